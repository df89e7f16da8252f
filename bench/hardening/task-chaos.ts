/**
 * Task chaos through the whole local stack (REST v1 front, the bundled platform under the runtime client,
 * worker rounds as asynchronous self-invocations, DynamoDB Local, the SCIM server and slapd).
 *
 * 1. **Outage as rounds start.** Creates `CHAOS_TASKS` (6) 2025-11-25 `bos_execute` tasks at once, then
 *    freezes DynamoDB Local (SIGSTOP of its Java process) for 4 s as their rounds start, and polls each
 *    task until it is terminal. Reports each task's status and seconds from creation to the terminal status
 *    (the bound: the claim window, 30 s, plus one round).
 * 2. **Slow rounds, short TTLs.** Freezes slapd (LDAP reads then wait for their timeout), and for
 *    `CHAOS_SECONDS` (25) keeps asking for tasks with a 1.5 s TTL (raised to the 5 s minimum), one request at
 *    a time, while sampling the function's invocations in flight every 20 ms. Rounds running = invocations in
 *    flight minus the one request; its peak must not exceed the cap (10). The function's concurrency is the
 *    cap + 4, so a breach would show.
 *
 * Prints a table and one JSON line; asserts nothing. The machine this runs on is shared and loaded: times are
 * indicative.
 */
import { execFileSync } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import { DEMO_PEOPLE_CONTEXT_HANDLE } from '../../lambda/bos/index.js';
import { openSession, post, startBosStack } from '../../test/helpers/bos-stack.js';
import type { BosStack } from '../../test/helpers/bos-stack.js';

const TASKS = Number(process.env['CHAOS_TASKS'] ?? 6);
const SECONDS = Number(process.env['CHAOS_SECONDS'] ?? 25);
const CAP = 10;
const TERMINAL = new Set(['completed', 'failed', 'cancelled']);
const args = {
  context_handle: DEMO_PEOPLE_CONTEXT_HANDLE,
  tool_name: 'search_people',
  arguments: { query: 'a' },
};

type Rpc = { result?: Record<string, unknown>; error?: { code: number; message: string } };

async function rpc(bos: BosStack, token: string, sessionId: string, method: string, params: object) {
  const response = await post(bos.url, { token, sessionId, body: { jsonrpc: '2.0', id: 1, method, params } });
  const text = await response.text();
  return { status: response.status, body: (response.status === 200 ? JSON.parse(text) : {}) as Rpc };
}

/** Opens a session, again after a 503 (DynamoDB Local may still be warming up on a loaded machine). */
async function opened(bos: BosStack, token: string): Promise<string> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return (await openSession(bos.url, token, { tasks: {} })).sessionId;
    } catch (error) {
      if (attempt === 10 || !String(error).includes('HTTP 503')) throw error;
      await sleep(1000);
    }
  }
}

/** Pid of the first process named `name` below this one. */
function childNamed(name: string): number | undefined {
  const rows = execFileSync('ps', ['-e', '-o', 'pid=,ppid=,comm='], { encoding: 'utf8' })
    .trim()
    .split('\n')
    .map((line) => line.trim().split(/\s+/));
  const tree = new Set([process.pid]);
  for (let grew = true; grew;) {
    grew = false;
    for (const [pid, ppid] of rows)
      if (tree.has(Number(ppid)) && !tree.has(Number(pid))) {
        tree.add(Number(pid));
        grew = true;
      }
  }
  const row = rows.find(([pid, , comm]) => tree.has(Number(pid)) && comm === name);
  return row === undefined ? undefined : Number(row[0]);
}

async function outageAsRoundsStart(bos: BosStack) {
  const token = bos.token('dev-user');
  const sessionId = await opened(bos, token);
  const created = await Promise.all(
    Array.from({ length: TASKS }, async () => {
      const { body } = await rpc(bos, token, sessionId, 'tools/call', {
        name: 'bos_execute',
        arguments: args,
        task: {},
      });
      return {
        taskId: String((body.result?.task as { taskId?: string } | undefined)?.taskId),
        at: Date.now(),
      };
    }),
  );
  const pid = bos.stack.dynamoDbLocal?.pid;
  if (pid === undefined) throw new Error('no DynamoDB Local');
  process.kill(pid, 'SIGSTOP');
  await sleep(4000);
  process.kill(pid, 'SIGCONT');
  return Promise.all(
    created.map(async ({ taskId, at }) => {
      for (;;) {
        const { status, body } = await rpc(bos, token, sessionId, 'tasks/get', { taskId });
        const state = status === 200 ? String(body.result?.status) : `HTTP ${status}`;
        if (TERMINAL.has(state) || Date.now() - at > 120_000) {
          const error = body.result?.error as { message?: string } | undefined;
          return { state, seconds: (Date.now() - at) / 1000, note: error?.message ?? '' };
        }
        await sleep(250);
      }
    }),
  );
}

async function slowRoundsShortTtls(bos: BosStack) {
  const token = bos.token('dev-user');
  const sessionId = await opened(bos, token);
  const slapd = childNamed('slapd');
  if (slapd === undefined) throw new Error('slapd is not running');
  process.kill(slapd, 'SIGSTOP');
  let requests = 0;
  let peak = 0;
  let admitted = 0;
  let refused = 0;
  const sampler = setInterval(() => {
    peak = Math.max(peak, bos.stack.pool.inFlight - requests);
  }, 20);
  try {
    const until = Date.now() + SECONDS * 1000;
    while (Date.now() < until) {
      requests += 1;
      const { body } = await rpc(bos, token, sessionId, 'tools/call', {
        name: 'bos_execute',
        arguments: args,
        task: { ttl: 1500 },
      }).finally(() => (requests -= 1));
      if (body.result !== undefined) admitted += 1;
      else refused += 1;
      await sleep(100);
    }
    await sleep(15_000);
  } finally {
    clearInterval(sampler);
    process.kill(slapd, 'SIGCONT');
  }
  return { peak, admitted, refused };
}

const bos = await startBosStack({
  name: 'task-chaos',
  poolSize: 2,
  providers: true,
  concurrency: CAP + 4,
  timeoutSeconds: 60,
});
try {
  const outage = await outageAsRoundsStart(bos);
  const cap = await slowRoundsShortTtls(bos);
  const rows = outage.map(
    (r, i) => `| outage: task ${i + 1} | ${r.state} | ${r.seconds.toFixed(1)} s | ${r.note} |`,
  );
  process.stdout.write(
    [
      '| case | status | to terminal | note |',
      '| --- | --- | --- | --- |',
      ...rows,
      `| slow rounds, 1.5 s TTLs, ${SECONDS} s | peak rounds running ${cap.peak} (cap ${CAP}) | — | ${cap.admitted} admitted, ${cap.refused} refused |`,
      '',
    ].join('\n'),
  );
  process.stdout.write(`${JSON.stringify({ bench: 'task-chaos', outage, cap: { ...cap, limit: CAP } })}\n`);
} finally {
  await bos.close();
}
