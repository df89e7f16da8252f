/**
 * Plain-Node side of the streaming benchmark: a bare `node:http` server writing the same frames to its
 * response, in its own process like the Lambda side's handler. Prints `{"url":…}` once listening.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { writeBurst } from './events.js';

const server = createServer((req, res) => {
  const count = Number(new URL(req.url ?? '/', 'http://local').searchParams.get('count') ?? '1000');
  res.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache' });
  void writeBurst(res, count);
});
server.listen(0, '127.0.0.1', () => {
  const { port } = server.address() as AddressInfo;
  process.stdout.write(`${JSON.stringify({ url: `http://127.0.0.1:${port}/` })}\n`);
});
// Exit with the benchmark: it closes our stdin when it is done (or dies).
process.stdin.on('end', () => process.exit(0)).resume();
