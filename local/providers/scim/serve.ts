/**
 * Runs the local SCIM server on its own (`node --import tsx local/providers/scim/serve.ts [size] [eq-only]`;
 * `eq-only`: the restricted profile that refuses every filter but `eq`, `profile.ts`), for
 * benchmarks that must not share a process with it: prints one JSON line `{baseUrl, token}`, then one line
 * `{answeredAt, firstPage}` per `/Users` request once it has finished answering it (`answeredAt`: epoch ms
 * with sub-millisecond precision, comparable across processes; `firstPage`: the request asked for the
 * first page of a list, with `startIndex=1` or an empty cursor).
 */
import { startScimServer } from './server.js';

const size = Number(process.argv[2] ?? 300);
const server = await startScimServer({ population: { name: 'acme-scim', size, overlap: 120 } });
server.behaviour.profile.eqOnly = process.argv[3] === 'eq-only';
process.stdout.write(`${JSON.stringify({ baseUrl: server.baseUrl, token: server.token })}\n`);
let reported = 0;
// Polled rather than hooked into the server: the report must not run inside the request it reports on.
setInterval(() => {
  // In arrival order; a request the client abandoned is passed over unreported.
  for (let r = server.requests[reported]; r !== undefined; r = server.requests[++reported]) {
    if (r.answeredAt === undefined && !r.abortedByClient) break;
    if (r.answeredAt === undefined) continue;
    const firstPage = (r.query['startIndex'] ?? '1') === '1' && (r.query['cursor'] ?? '') === '';
    process.stdout.write(`${JSON.stringify({ answeredAt: r.answeredAt, firstPage })}\n`);
  }
}, 1).unref();
process.once('SIGTERM', () => void server.close().then(() => process.exit(0)));
