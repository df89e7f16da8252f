/** The client CLI's `--task` path against an in-process server with a task runtime. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { callAsTask } from '../../../client/cli-task.js';
import { McpHttpClient } from '../../../client/mcp-http.js';
import { InMemoryTaskStore, McpServer, silentLogger } from '../../../lambda/mcp/index.js';
import type { StreamingToolContext } from '../../../lambda/mcp/index.js';

function serverWithTask(): McpServer {
  const server = new McpServer({
    name: 't',
    version: '1',
    logger: silentLogger,
    allowedOrigins: [],
    tasks: { store: new InMemoryTaskStore(), pollIntervalMs: 10 },
  });
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
  return server;
}

describe('npm run client -- --task', () => {
  it('creates the task, prints its status messages as they change, then its result', async () => {
    const server = serverWithTask();
    const client = new McpHttpClient({
      url: 'http://localhost/mcp',
      fetch: (input, init) => server.handle(new Request(input, init)),
    });
    const out: string[] = [];
    const code = await callAsTask(
      client,
      'read',
      {},
      true,
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
    assert.deepEqual(events.at(-1), {
      event: 'result',
      result: {
        content: [{ type: 'text', text: 'ok' }],
        structuredContent: { records: 2 },
        _meta: { 'io.modelcontextprotocol/related-task': { taskId: events[0]?.taskId } },
      },
    });
    await server.settled();
  });
});
