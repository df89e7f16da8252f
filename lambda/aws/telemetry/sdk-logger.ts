/**
 * The logger our AWS SDK clients get: the SDK's own no-op logger, except that warnings become JSON lines of
 * our structured logger.
 *
 * Why the clients need one: the bundle is minified without `keepNames` (`lib/bundling.ts`), and the SDK
 * recognises its default logger partly by class name (`logger.constructor.name === "NoOpLogger"`) to send
 * its warnings (socket capacity, request-time hints) to `console.warn` instead; without a name that check
 * fails and the warnings would go to the no-op logger, unseen.
 *
 * Why a subclass of the SDK's `NoOpLogger`: the SDK's logger middleware skips loggers that are an
 * `instanceof NoOpLogger`. Any other logger makes it copy and filter every call's input and output on the
 * hot path, and log them at info level (session data, directory records) or, for every failed call (a
 * conditional write that lost is normal here), at error level.
 */
// The SDK's package subpath, not our `client/` folder, which the layer rule's `**/client` pattern also matches.
// eslint-disable-next-line no-restricted-imports
import { NoOpLogger } from '@smithy/core/client';
import type { Logger } from '../../mcp/index.js';
import { createPowertoolsLogger, loggerPort } from './powertools-logger.js';

/** SDK client logger: silent like the SDK's default, but its warnings reach our log. */
export class SdkWarningLogger extends NoOpLogger {
  readonly #logger: Logger;

  /** @param logger @default the function's Powertools logger with `component: "aws-sdk"` */
  constructor(logger: Logger = loggerPort(createPowertoolsLogger({ component: 'aws-sdk' }))) {
    super();
    this.#logger = logger;
  }

  override warn(...content: unknown[]): void {
    this.#logger.warn('aws sdk warning', { detail: describe(content) });
  }
}

/** The text of what the SDK logged: strings as they are, errors by name and message, nothing else. */
function describe(content: readonly unknown[]): string {
  const parts: string[] = [];
  for (const part of content) {
    if (typeof part === 'string') parts.push(part);
    else if (part instanceof Error) parts.push(`${part.name}: ${part.message}`);
  }
  return parts.join(' ');
}
