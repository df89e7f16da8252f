/**
 * The method table is what both protocol shapes serve: every method it lists for a shape is answered there
 * (never -32601), every method it leaves out of a shape is -32601 there, and a capability the server turns
 * off takes the table's methods of that capability away in both shapes.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { InMemoryTaskStore, tasksExtension } from '../../../../lambda/mcp/index.js';
import type { McpServer, McpServerOptions } from '../../../../lambda/mcp/index.js';
import { methods } from '../../../../lambda/mcp/methods/index.js';
import { initialize, inSession, makeServer, post, readJson, rpc } from '../helpers.js';
import { modernMeta, modernPost } from '../stateless/helpers.js';

/** A server with every surface the table can serve: tools, resources, prompts, completions, logging, tasks. */
function everything(overrides: Partial<McpServerOptions> = {}): McpServer {
  const server = makeServer({
    completion: { prompt: () => Promise.resolve({ values: [] }) },
    loggingLevelHook: () => Promise.resolve(),
    resourceSubscriptionHooks: { subscribe: () => Promise.resolve(), unsubscribe: () => Promise.resolve() },
    tasks: { store: new InMemoryTaskStore() },
    ...overrides,
  });
  server.registerTool({ name: 'echo', inputSchema: { type: 'object' } }, () =>
    Promise.resolve({ content: [{ type: 'text', text: 'ok' }] }),
  );
  server.registerResource({ uri: 'file:///a', name: 'a' }, (uri) => Promise.resolve([{ uri, text: 'a' }]));
  server.registerPrompt({ name: 'p' }, () => Promise.resolve({ messages: [] }));
  return server;
}

/** Params that satisfy every method's required fields; what a method does with them is not at issue here. */
const params: Record<string, unknown> = {
  name: 'echo',
  uri: 'file:///a',
  arguments: {},
  taskId: 'no-such-task',
  inputResponses: {},
  ref: { type: 'ref/prompt', name: 'p' },
  argument: { name: 'x', value: '' },
  level: 'info',
};

async function sessionfulCode(
  server: McpServer,
  sessionId: string,
  method: string,
): Promise<number | undefined> {
  const message = method === 'prompts/get' ? { ...params, name: 'p' } : params;
  const reply = await readJson(await server.handle(post(rpc(1, method, message), inSession(sessionId))));
  const body = reply.body as { error?: { code: number } } | undefined;
  const code = body?.error?.code;
  assert.notEqual(code, -32600, `${method} reached no method (${JSON.stringify(body)})`);
  return code;
}

async function statelessCode(server: McpServer, method: string): Promise<number | undefined> {
  const spec = methods.get(method);
  const message: Record<string, unknown> = { ...params, ...(method === 'prompts/get' && { name: 'p' }) };
  const routed =
    spec?.task === true
      ? message.taskId
      : spec?.nameParam === undefined
        ? undefined
        : message[spec.nameParam];
  const meta = modernMeta({
    'io.modelcontextprotocol/clientCapabilities': { extensions: { [tasksExtension]: {} } },
  });
  const reply = await readJson(
    await server.handle(
      modernPost(
        1,
        method,
        { ...message, _meta: meta },
        typeof routed === 'string' ? { 'mcp-name': routed } : {},
      ),
    ),
  );
  const body = reply.body as { error?: { code: number } } | undefined;
  const code = body?.error?.code;
  assert.notEqual(code, -32600, `${method} reached no method (${JSON.stringify(body)})`);
  return code;
}

describe('the method table', () => {
  const requestMethods = [...methods.values()].filter((spec) => spec.method !== 'initialize');

  it('is what the session-ful shape serves: a listed method is answered, an unlisted one is -32601', async () => {
    // Prepare
    const server = everything();
    const sessionId = await initialize(server);
    // Act
    const found: Record<string, boolean> = {};
    for (const spec of requestMethods)
      found[spec.method] = (await sessionfulCode(server, sessionId, spec.method)) !== -32601;
    // Assess
    const expected = Object.fromEntries(
      requestMethods.map((s) => [s.method, s.shapes.includes('sessionful')]),
    );
    assert.deepEqual(found, expected);
  });

  it('is what the stateless shape serves: a listed method is answered, an unlisted one is -32601', async () => {
    // Prepare
    const server = everything();
    // Act
    const found: Record<string, boolean> = {};
    for (const spec of requestMethods)
      found[spec.method] = (await statelessCode(server, spec.method)) !== -32601;
    // Assess
    const expected = Object.fromEntries(
      requestMethods.map((s) => [s.method, s.shapes.includes('stateless')]),
    );
    assert.deepEqual(found, expected);
  });

  it('takes a capability turned off away in both shapes', async () => {
    // Prepare
    const server = everything({ capabilities: { prompts: false, resources: false } });
    const sessionId = await initialize(server);
    const gone = [
      'prompts/list',
      'prompts/get',
      'resources/list',
      'resources/templates/list',
      'resources/read',
    ];
    // Act
    const sessionful = await Promise.all(gone.map((method) => sessionfulCode(server, sessionId, method)));
    const stateless = await Promise.all(gone.map((method) => statelessCode(server, method)));
    // Assess
    assert.deepEqual(
      sessionful,
      gone.map(() => -32601),
    );
    assert.deepEqual(
      stateless,
      gone.map(() => -32601),
    );
  });
});
