/**
 * The client CLI's `--task` path against an in-process server with a task runtime: the same exit codes and
 * the same closing `final:` line as the call without `--task`.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { callAsTask } from '../../../client/cli-task.js';
import { runCli } from '../../../client/index.js';
import { McpHttpClient } from '../../../client/mcp-http.js';
import { InMemoryTaskStore, McpServer, silentLogger } from '../../../lambda/mcp/index.js';
import type { StreamingToolContext } from '../../../lambda/mcp/index.js';

const SLOW = { source_type: 'hr', source_identity: 'acme-legacy' };
const RECORD = { record_ref: 'bos:person:1', display_name: 'Ada' };

/** The tool results of each outcome the CLI's exit-code table names. */
const OUTCOMES = {
  complete: {
    content: [{ type: 'text', text: 'ok' }],
    structuredContent: {
      result: [RECORD],
      metadata: { completeness: 'complete', result_count: 1, source_errors: [] },
    },
  },
  partial: {
    isError: true,
    content: [{ type: 'text', text: 'partial' }],
    structuredContent: {
      result: [RECORD],
      metadata: {
        completeness: 'partial',
        result_count: 1,
        source_errors: [{ source: SLOW, error: { code: 'source_timeout' } }],
      },
    },
  },
  tool_error: { isError: true, content: [{ type: 'text', text: 'no such context' }] },
} as const;

function serverWithTasks(): McpServer {
  const server = new McpServer({
    name: 't',
    version: '1',
    logger: silentLogger,
    allowedOrigins: [],
    tasks: { store: new InMemoryTaskStore(), pollIntervalMs: 10 },
  });
  server.registerStreamingTool(
    { name: 'slow', inputSchema: { type: 'object' }, execution: { taskSupport: 'optional' } },
    async (_args, ctx: StreamingToolContext) => {
      await new Promise((resolve) => setTimeout(resolve, 1500));
      ctx.progress(1, 1, 'done');
      return { content: [{ type: 'text', text: 'late' }] };
    },
  );
  server.registerStreamingTool(
    { name: 'read', inputSchema: { type: 'object' }, execution: { taskSupport: 'optional' } },
    async (_args, ctx: StreamingToolContext) => {
      for (let done = 1; done <= 2; done += 1) {
        await new Promise((resolve) => setTimeout(resolve, 30));
        ctx.progress(done, 2, `${done} of 2 sources complete`);
      }
      await new Promise((resolve) => setTimeout(resolve, 30));
      return { content: [{ type: 'text', text: 'ok' }], structuredContent: { records: 2 } };
    },
  );
  for (const [name, result] of Object.entries(OUTCOMES))
    server.registerStreamingTool(
      { name, inputSchema: { type: 'object' }, execution: { taskSupport: 'optional' } },
      () => Promise.resolve(structuredClone(result) as never),
    );
  return server;
}

/** Runs the CLI in process against `server` and captures its lines and exit code. */
async function cli(
  server: McpServer,
  argv: string[],
): Promise<{ code: number; out: string[]; err: string[] }> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(['--url', 'http://localhost/mcp', ...argv], {
    stdout: (l) => out.push(l),
    stderr: (l) => err.push(l),
    fetch: (input, init) => server.handle(new Request(input, init)),
  });
  return { code, out, err };
}

describe('npm run client -- --task', () => {
  it('creates the task, prints its status messages as they change, then the final summary', async () => {
    const server = serverWithTasks();
    const client = new McpHttpClient({
      url: 'http://localhost/mcp',
      fetch: (input, init) => server.handle(new Request(input, init)),
    });
    const out: string[] = [];
    const code = await callAsTask(
      client,
      'read',
      {},
      { json: true, withResult: false },
      { stdout: (l) => out.push(l), stderr: (l) => out.push(l) },
      (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
    );
    assert.equal(code, 0);
    const events = out.map((line) => JSON.parse(line) as Record<string, unknown>);
    assert.equal(events[0]?.event, 'task');
    const messages = events.filter((e) => e.event === 'task_status').map((e) => e.statusMessage);
    assert.ok(
      messages.includes('2 of 2 sources complete') || messages.includes('1 of 2 sources complete'),
      JSON.stringify(messages),
    );
    assert.equal(events.at(-1)?.event, 'final');
    assert.equal(events.at(-1)?.confirmed, true);
    assert.equal(events.at(-1)?.isError, false);
    assert.equal('result' in (events.at(-1) ?? {}), false, 'the body is printed only with --result');
    await server.settled();
  });

  const table = [
    {
      outcome: 'complete',
      exit: 0,
      final: /^final: confirmed \(json\) {2}isError=false {2}completeness=complete/,
    },
    {
      outcome: 'partial',
      exit: 3,
      final: /^final: confirmed \(json\) {2}isError=true {2}completeness=partial/,
    },
    { outcome: 'tool_error', exit: 1, final: /^final: confirmed \(json\) {2}isError=true$/ },
  ] as const;
  for (const { outcome, exit, final } of table)
    it(`exits ${exit} for a ${outcome} result, with and without --task, and ends with the same final line`, async () => {
      const server = serverWithTasks();
      const plain = await cli(server, ['call', outcome, '{}']);
      const task = await cli(server, ['--task', 'call', outcome, '{}']);
      assert.equal(plain.code, exit, plain.out.join('\n'));
      assert.equal(task.code, exit, task.out.join('\n'));
      // The in-process server may answer the plain call as an event stream; only the delivery may differ.
      const summary = (out: string[]): string[] =>
        out.slice(out.findIndex((l) => l.startsWith('final:'))).map((l) => l.replace('(sse)', '(json)'));
      assert.match(summary(task.out)[0] ?? '', final);
      assert.deepEqual(summary(task.out), summary(plain.out));
      assert.match(task.out[0] ?? '', /^task \S+: working$/);
      assert.ok(!task.out.some((l) => l.startsWith('{')), 'no JSON body without --result');
      await server.settled();
    });

  it('prints the result body before the summary with --result', async () => {
    const server = serverWithTasks();
    const { code, out } = await cli(server, ['--task', '--result', 'call', 'partial', '{}']);
    assert.equal(code, 3);
    const final = out.findIndex((l) => l.startsWith('final:'));
    assert.deepEqual(JSON.parse(out[final - 1] ?? ''), OUTCOMES.partial.structuredContent);
    await server.settled();
  });

  it('puts the body in the final JSON line with --json --result', async () => {
    const server = serverWithTasks();
    const { code, out } = await cli(server, ['--task', '--json', '--result', 'call', 'complete', '{}']);
    assert.equal(code, 0);
    const final = JSON.parse(out.at(-1) ?? '{}') as Record<string, unknown>;
    assert.equal(final.event, 'final');
    assert.deepEqual(final.result, OUTCOMES.complete.structuredContent);
    await server.settled();
  });

  it('exits 2 with the JSON-RPC error as its final line when the tool is unknown', async () => {
    const server = serverWithTasks();
    const plain = await cli(server, ['call', 'missing', '{}']);
    const task = await cli(server, ['--task', 'call', 'missing', '{}']);
    assert.equal(plain.code, 2);
    assert.equal(task.code, 2);
    await server.settled();
  });

  it('answers tasks/result with -32010, not a timeout, when the task outlives the invocation', async () => {
    const server = serverWithTasks();
    // Each request gets an invocation deadline 800 ms ahead, as a Lambda invocation would.
    const client = new McpHttpClient({
      url: 'http://localhost/mcp',
      fetch: (input, init) => server.handle(new Request(input, init), { deadline: Date.now() + 800 }),
    });
    const created = await client.request('tools/call', { name: 'slow', arguments: {}, task: {} });
    const taskId = (created.task as { taskId: string }).taskId;
    const outcome = await client.requestOutcome('tasks/result', { taskId });
    assert.equal(outcome.confirmed && outcome.error?.code, -32010);
    assert.equal(outcome.confirmed && outcome.error?.message, 'Task still running: call tasks/result again');
    await server.settled();
  });
});
