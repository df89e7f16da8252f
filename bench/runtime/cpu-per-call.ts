/**
 * `node --import tsx bench/runtime/cpu-per-call.ts`: CPU per `tools/call` of the `echo` tool through our runtime on
 * `serveNode`, with a fixed client (4 concurrent keep-alive loops of `node:http` requests) in the same process.
 * On a loaded machine throughput varies by a factor of three between runs; CPU per call varies far less, so this
 * is the figure to compare two trees with (alternate fresh processes). It includes the client's own CPU, which is
 * the same for every tree. Prints a table line and one JSON line. Knob: BENCH_CALLS (3000).
 */
import { Agent, request } from 'node:http';
import { startOurs } from './servers.js';

const calls = Math.max(4, Number(process.env.BENCH_CALLS ?? 3000) || 3000);
const server = await startOurs();
const url = new URL(server.url);
const agent = new Agent({ keepAlive: true, maxSockets: 4 });

/** One POST; resolves with the response's session header and body. */
function post(headers: Record<string, string>, body: string): Promise<{ session?: string; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      { host: url.hostname, port: url.port, path: url.pathname, method: 'POST', agent, headers },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          const session = res.headers['mcp-session-id'];
          resolve({
            session: typeof session === 'string' ? session : undefined,
            text: Buffer.concat(chunks).toString(),
          });
        });
      },
    );
    req.setTimeout(30_000, () => req.destroy(new Error('request timed out')));
    req.on('error', reject);
    req.end(body);
  });
}

const base = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
const init = await post(
  base,
  JSON.stringify({
    jsonrpc: '2.0',
    id: 0,
    method: 'initialize',
    params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'bench', version: '1' } },
  }),
);
if (init.session === undefined) throw new Error('initialize returned no session id');
const headers = { ...base, 'mcp-session-id': init.session, 'mcp-protocol-version': '2025-11-25' };
await post(headers, JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }));
const call = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'tools/call',
  params: { name: 'echo', arguments: { message: 'hello from the benchmark' } },
});
if (!(await post(headers, call)).text.includes('hello from the benchmark')) throw new Error('echo failed');

const loops = async (total: number): Promise<void> => {
  const loop = async (count: number) => {
    for (let i = 0; i < count; i++) await post(headers, call);
  };
  await Promise.all(Array.from({ length: 4 }, () => loop(total / 4)));
};
await loops(1200); // warm-up
const cpu = process.cpuUsage();
const started = performance.now();
await loops(calls);
const used = process.cpuUsage(cpu);
const wallMs = performance.now() - started;
agent.destroy();
await server.close();

const perCall = (micros: number) => Math.round(micros / calls);
const figures = {
  bench: 'runtime-cpu',
  node: process.version,
  calls,
  cpu_us_per_call: perCall(used.user + used.system),
  user_us_per_call: perCall(used.user),
  system_us_per_call: perCall(used.system),
  calls_per_sec: Math.round((calls / wallMs) * 1000),
};
process.stdout.write(
  `tools/call through serveNode, client in process (${process.version}, ${calls} calls): ` +
    `${figures.cpu_us_per_call} µs CPU per call (user ${figures.user_us_per_call}, system ` +
    `${figures.system_us_per_call}), ${figures.calls_per_sec} calls/s\n${JSON.stringify(figures)}\n`,
);
