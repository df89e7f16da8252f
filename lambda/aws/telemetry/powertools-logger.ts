/**
 * The runtime's `Logger` port over Powertools for AWS Lambda's Logger: one JSON object per line with
 * Powertools' keys (`level`, `message`, `timestamp`, `service`, and after `addContext` the Lambda context:
 * `cold_start`, `function_name`, `function_request_id`, …), then the call site's fields. Call sites keep
 * the port's `(message, fields)` signature and never see Powertools.
 *
 * Two rules the port keeps that Powertools alone would not:
 * - an `Error` anywhere in the fields prints as its class name only. Powertools would print its message,
 *   stack and cause, and a provider's or SDK's message may carry a URL, a header or a credential;
 * - a field named like one of Powertools' own keys (`level`, `message`, …) is kept as `field.<name>`
 *   instead of being dropped with a warning line.
 */
import { Logger as PowertoolsLogger } from '@aws-lambda-powertools/logger';
import type { Logger } from '../../mcp/index.js';

/** Powertools' reserved keys (`ReservedKeys` in its constants), which a call site's field must not replace. */
const RESERVED: ReadonlySet<string> = new Set(['level', 'message', 'sampling_rate', 'service', 'timestamp']);

/** The default `service` of every line and metric when `POWERTOOLS_SERVICE_NAME` is unset. */
export const DEFAULT_SERVICE_NAME = 'bos-mcp';

/** Options of {@link createPowertoolsLogger}. */
export interface PowertoolsLoggerOptions {
  /** `component` of every line (which part of the function wrote it). */
  component?: string;
  /** @default POWERTOOLS_SERVICE_NAME, else {@link DEFAULT_SERVICE_NAME} */
  serviceName?: string;
}

/** JSON replacer: errors by class name only (see the module comment). */
function withoutErrorDetail(_key: string, value: unknown): unknown {
  return value instanceof Error ? { name: value.name } : value;
}

/** The Powertools Logger the deployed function writes through (level: `POWERTOOLS_LOG_LEVEL`, default INFO). */
export function createPowertoolsLogger(options: PowertoolsLoggerOptions = {}): PowertoolsLogger {
  return new PowertoolsLogger({
    serviceName: options.serviceName ?? (process.env['POWERTOOLS_SERVICE_NAME'] || DEFAULT_SERVICE_NAME),
    jsonReplacerFn: withoutErrorDetail,
    ...(options.component === undefined ? {} : { persistentKeys: { component: options.component } }),
  });
}

function safeFields(fields: Record<string, unknown> | undefined): Record<string, unknown> | undefined {
  if (fields === undefined) return undefined;
  let renamed: Record<string, unknown> | undefined;
  for (const key of Object.keys(fields)) {
    if (!RESERVED.has(key)) continue;
    renamed ??= { ...fields };
    renamed[`field.${key}`] = renamed[key];
    delete renamed[key];
  }
  return renamed ?? fields;
}

/** The `Logger` port writing through `logger`. */
export function loggerPort(logger: PowertoolsLogger): Logger {
  return {
    debug: (message, fields) => logger.debug(message, safeFields(fields) ?? {}),
    info: (message, fields) => logger.info(message, safeFields(fields) ?? {}),
    warn: (message, fields) => logger.warn(message, safeFields(fields) ?? {}),
    error: (message, fields) => logger.error(message, safeFields(fields) ?? {}),
  };
}
