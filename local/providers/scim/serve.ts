/**
 * Runs the local SCIM server on its own (`node --import tsx local/providers/scim/serve.ts [size]`), for
 * benchmarks that must not share a process with it: prints one JSON line `{baseUrl, token}`, then one
 * `{firstPageAnsweredAt}` line (epoch ms) once it has finished answering its first `/Users` page.
 */
import { startScimServer } from './server.js';

const size = Number(process.argv[2] ?? 300);
const server = await startScimServer({ population: { name: 'acme-scim', size, overlap: 120 } });
process.stdout.write(`${JSON.stringify({ baseUrl: server.baseUrl, token: server.token })}\n`);
const poll = setInterval(() => {
  const answeredAt = server.requests[0]?.answeredAt;
  if (answeredAt === undefined) return;
  clearInterval(poll);
  process.stdout.write(`${JSON.stringify({ firstPageAnsweredAt: answeredAt })}\n`);
}, 1);
process.once('SIGTERM', () => void server.close().then(() => process.exit(0)));
