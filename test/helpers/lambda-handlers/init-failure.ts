/**
 * A handler module that fails while loading, as a handler with a broken configuration would: the runtime
 * client reports it to `/runtime/init/error` and exits.
 */
import type { Writable } from 'node:stream';

function loadConfiguration(): string {
  throw new Error('configuration is broken at load time');
}

const configuration = loadConfiguration();

export const handler = awslambda.streamifyResponse(
  async (_event: unknown, stream: Writable): Promise<void> => {
    await Promise.resolve();
    stream.end(configuration);
  },
);
