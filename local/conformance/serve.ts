/**
 * `npm run conformance:serve`: serves the conformance app on 127.0.0.1:${PORT:-3100}/mcp until
 * interrupted. `CONFORMANCE_VIA=lambda` serves it through the local Lambda stack instead.
 */
import { ConformanceSetupError, startConformanceServer } from './start.js';

const port = Number(process.env.PORT ?? 3100);
const via = process.env.CONFORMANCE_VIA === 'lambda' ? 'lambda' : 'node';

try {
  const server = await startConformanceServer({ port, via });
  process.stdout.write(`conformance app (${via}) listening on ${server.url}\n`);
  const stop = (): void => {
    void server.close().then(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
} catch (error) {
  if (!(error instanceof ConformanceSetupError)) throw error;
  process.stderr.write(`${error.message}\n`);
  process.exit(2);
}
