/**
 * Child process entry of the runtime benchmark: starts one side (`ours` or `sdk`), prints its URL as one
 * JSON line, and stops when stdin closes. Each side runs alone in its own process so the load generator
 * in the parent does not share an event loop with it.
 */
import { startOurs, startSdk } from './servers.js';

const side = process.argv[2];
if (side !== 'ours' && side !== 'sdk') {
  process.stderr.write('usage: serve-one.ts ours|sdk\n');
  process.exit(2);
}
const server = side === 'ours' ? await startOurs() : await startSdk();
process.stdout.write(`${JSON.stringify({ side, url: server.url })}\n`);
process.stdin.resume();
process.stdin.once('end', () => {
  void server.close().then(() => process.exit(0));
});
