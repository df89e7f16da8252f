/* eslint-disable @typescript-eslint/no-unsafe-member-access, @typescript-eslint/no-unsafe-assignment, @typescript-eslint/no-unsafe-return, @typescript-eslint/no-unsafe-argument, @typescript-eslint/no-unsafe-call -- response bodies are untyped wire JSON; the assertions check their shape */
/** Registries and methods: tools, schema validation, pagination, resources, prompts, completion, hooks, capabilities. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { compileJsonSchema } from '../../../lambda/mcp/index.js';
import type { McpServer, ToolDef } from '../../../lambda/mcp/index.js';
import { inSession, initialize, makeServer, post, readJson, rpc } from './helpers.js';

async function call(server: McpServer, session: string, method: string, params?: Record<string, unknown>) {
  return (await readJson(await server.handle(post(rpc(1, method, params), inSession(session))))).body;
}

const richTool: ToolDef = {
  name: 'pairs',
  title: 'Pairs',
  description: 'Takes a tuple',
  inputSchema: {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    type: 'object',
    properties: {
      pair: { type: 'array', prefixItems: [{ type: 'string' }, { type: 'integer' }], items: false },
    },
    required: ['pair'],
  },
  outputSchema: { type: 'object', properties: { ok: { type: 'boolean' } } },
  annotations: { readOnlyHint: true, openWorldHint: false },
  icons: [{ src: 'https://example.com/i.png', mimeType: 'image/png', sizes: ['48x48'] }],
  execution: { taskSupport: 'forbidden' },
};

describe('tools', () => {
  it('lists definitions verbatim and validates 2020-12 arguments (prefixItems) with structuredContent results', async () => {
    const server = makeServer();
    server.registerTool(richTool, (args) =>
      Promise.resolve({ content: [], structuredContent: { ok: Array.isArray(args.pair) } }),
    );
    const session = await initialize(server);
    assert.deepEqual((await call(server, session, 'tools/list')).result, { tools: [richTool] });
    const ok = await call(server, session, 'tools/call', { name: 'pairs', arguments: { pair: ['a', 1] } });
    assert.deepEqual(ok.result, { content: [], structuredContent: { ok: true } });
    const bad = await call(server, session, 'tools/call', { name: 'pairs', arguments: { pair: ['a', 'b'] } });
    assert.equal(bad.error.code, -32602);
    assert.match(bad.error.message, /^Invalid params: arguments at \/pair\/1 must be integer$/);
  });

  it('compiles schemas as 2020-12 by default and as draft-07 when $schema names it (compileJsonSchema)', async () => {
    const tuple = { type: 'array', prefixItems: [{ type: 'string' }] };
    assert.equal((await compileJsonSchema(tuple))([1]), false);
    const draft07 = 'http://json-schema.org/draft-07/schema#';
    // Draft-07 has no prefixItems (ignored) and writes tuples with an `items` array.
    assert.equal((await compileJsonSchema({ $schema: draft07, ...tuple }))([1]), true);
    const draft07Tuple = { $schema: draft07, type: 'array', items: [{ type: 'string' }] };
    assert.equal((await compileJsonSchema(draft07Tuple))([1]), false);
    assert.equal((await compileJsonSchema(draft07Tuple))(['a', 1]), true);
  });

  it('validates schemas without $schema (constraints both dialects share)', async () => {
    const server = makeServer();
    server.registerTool(
      {
        name: 'legacy',
        inputSchema: {
          type: 'object',
          properties: { n: { type: 'number', minimum: 3 } },
          additionalProperties: false,
        },
      },
      () => Promise.resolve({ content: [] }),
    );
    const session = await initialize(server);
    assert.equal(
      (await call(server, session, 'tools/call', { name: 'legacy', arguments: { n: 1 } })).error.code,
      -32602,
    );
    assert.equal(
      (await call(server, session, 'tools/call', { name: 'legacy', arguments: { x: 1 } })).error.code,
      -32602,
    );
    assert.deepEqual(
      (await call(server, session, 'tools/call', { name: 'legacy', arguments: { n: 4 } })).result,
      { content: [] },
    );
  });

  it('refuses a duplicate tool name and an invalid schema at registration', () => {
    const server = makeServer();
    server.registerTool({ name: 'a', inputSchema: { type: 'object' } }, () =>
      Promise.resolve({ content: [] }),
    );
    assert.throws(() =>
      server.registerTool({ name: 'a', inputSchema: { type: 'object' } }, () =>
        Promise.resolve({ content: [] }),
      ),
    );
    assert.throws(() =>
      server.registerTool({ name: 'b', inputSchema: { type: 'nonsense' } }, () =>
        Promise.resolve({ content: [] }),
      ),
    );
  });

  it('compiles a schema on first call: a nested schema Ajv rejects answers -32603 without its text, never a handler run', async () => {
    const server = makeServer();
    let runs = 0;
    server.registerTool(
      { name: 'broken', inputSchema: { type: 'object', properties: { a: { type: 'nonsense' } } } },
      () => {
        runs += 1;
        return Promise.resolve({ content: [] });
      },
    );
    const session = await initialize(server);
    assert.equal((await call(server, session, 'tools/list')).result.tools.length, 1);
    const answer = await call(server, session, 'tools/call', { name: 'broken', arguments: { a: 1 } });
    assert.equal(answer.error.code, -32603);
    assert.doesNotMatch(JSON.stringify(answer), /nonsense|JSON type/);
    assert.equal(runs, 0);
  });

  it('never emits 2026-07-28 result fields in the session-ful shape', async () => {
    const server = makeServer();
    server.registerTool({ name: 'modern', inputSchema: { type: 'object' } }, () =>
      Promise.resolve({ content: [{ type: 'text', text: 'x' }], resultType: 'complete' as const }),
    );
    const session = await initialize(server);
    assert.deepEqual((await call(server, session, 'tools/call', { name: 'modern', arguments: {} })).result, {
      content: [{ type: 'text', text: 'x' }],
    });
  });
});

describe('pagination', () => {
  it('pages every list with an opaque cursor and rejects a forged one', async () => {
    const server = makeServer({ pageSize: 2 });
    for (const name of ['a', 'b', 'c', 'd', 'e']) {
      server.registerTool({ name, inputSchema: { type: 'object' } }, () => Promise.resolve({ content: [] }));
      server.registerPrompt({ name }, () => Promise.resolve({ messages: [] }));
    }
    const session = await initialize(server);
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = (await call(server, session, 'tools/list', cursor === undefined ? {} : { cursor })).result;
      seen.push(...page.tools.map((t: ToolDef) => t.name));
      cursor = page.nextCursor;
    } while (cursor !== undefined);
    assert.deepEqual(seen, ['a', 'b', 'c', 'd', 'e']);
    const prompts = (await call(server, session, 'prompts/list')).result;
    assert.equal(prompts.prompts.length, 2);
    assert.equal(typeof prompts.nextCursor, 'string');
    for (const cursor of ['nope', Buffer.from('v1:99').toString('base64url'), 12]) {
      assert.equal((await call(server, session, 'tools/list', { cursor })).error.code, -32602);
    }
  });
});

describe('resources and prompts', () => {
  it('reads registered resources and template matches, lists templates, and answers -32602 for a missing one', async () => {
    const server = makeServer();
    server.registerResource({ uri: 'file:///a.txt', name: 'a' }, (uri) =>
      Promise.resolve([{ uri, text: 'A' }]),
    );
    server.registerResourceTemplate({ uriTemplate: 'people://{id}', name: 'person' }, (uri) =>
      Promise.resolve([{ uri, mimeType: 'application/json', text: '{}' }]),
    );
    const session = await initialize(server);
    assert.deepEqual((await call(server, session, 'resources/list')).result, {
      resources: [{ uri: 'file:///a.txt', name: 'a' }],
    });
    assert.deepEqual((await call(server, session, 'resources/templates/list')).result, {
      resourceTemplates: [{ uriTemplate: 'people://{id}', name: 'person' }],
    });
    assert.deepEqual(
      (await call(server, session, 'resources/read', { uri: 'people://42' })).result.contents[0].uri,
      'people://42',
    );
    assert.deepEqual((await call(server, session, 'resources/read', { uri: 'file:///nope' })).error, {
      code: -32602,
      message: 'resource not found: file:///nope',
    });
  });

  it('checks required prompt arguments before rendering', async () => {
    const server = makeServer();
    server.registerPrompt({ name: 'greet', arguments: [{ name: 'name', required: true }] }, (args) =>
      Promise.resolve({
        messages: [{ role: 'user', content: { type: 'text', text: `Hello, ${args.name}.` } }],
      }),
    );
    const session = await initialize(server);
    assert.deepEqual((await call(server, session, 'prompts/get', { name: 'greet', arguments: {} })).error, {
      code: -32602,
      message: 'Invalid params: missing required argument name',
    });
    const ok = await call(server, session, 'prompts/get', { name: 'greet', arguments: { name: 'Ada' } });
    assert.equal(ok.result.messages[0].content.text, 'Hello, Ada.');
  });
});

describe('hooks and capabilities', () => {
  it('routes completion by reference type and answers -32602 for a reference without a hook', async () => {
    const server = makeServer({
      completion: { prompt: (req) => Promise.resolve({ values: [`${req.argument.value}thon`] }) },
    });
    const session = await initialize(server);
    const ok = await call(server, session, 'completion/complete', {
      ref: { type: 'ref/prompt', name: 'p' },
      argument: { name: 'lang', value: 'py' },
    });
    assert.deepEqual(ok.result, { completion: { values: ['python'] } });
    const missing = await call(server, session, 'completion/complete', {
      ref: { type: 'ref/resource', uri: 'x://y' },
      argument: { name: 'a', value: 'b' },
    });
    assert.equal(missing.error.code, -32602);
  });

  it('validates logging levels and hides logging/setLevel and subscriptions without their hooks', async () => {
    const withHooks = makeServer({
      loggingLevelHook: () => Promise.resolve(),
      resourceSubscriptionHooks: { subscribe: () => Promise.resolve(), unsubscribe: () => Promise.resolve() },
    });
    const s1 = await initialize(withHooks);
    assert.equal((await call(withHooks, s1, 'logging/setLevel', { level: 'loud' })).error.code, -32602);
    assert.deepEqual((await call(withHooks, s1, 'resources/subscribe', { uri: 'file:///a' })).result, {});
    const bare = makeServer();
    const s2 = await initialize(bare);
    assert.deepEqual((await call(bare, s2, 'logging/setLevel', { level: 'info' })).error, {
      code: -32601,
      message: 'Method not found: logging/setLevel',
    });
    assert.equal((await call(bare, s2, 'resources/subscribe', { uri: 'file:///a' })).error.code, -32601);
  });

  it('advertises only registered and enabled surfaces plus experimental and extensions maps', async () => {
    const server = makeServer({
      capabilities: { prompts: false },
      completion: { resource: () => Promise.resolve({ values: [] }) },
      experimental: { 'bos/source-results/v1': { pageSize: 100 } },
      extensions: { 'ai.example/ext': {} },
    });
    server.registerTool({ name: 't', inputSchema: { type: 'object' } }, () =>
      Promise.resolve({ content: [] }),
    );
    server.registerPrompt({ name: 'p' }, () => Promise.resolve({ messages: [] }));
    const res = await readJson(
      await server.handle(post(rpc(1, 'initialize', { protocolVersion: '2025-11-25' }))),
    );
    assert.deepEqual(res.body.result.capabilities, {
      experimental: { 'bos/source-results/v1': { pageSize: 100 } },
      extensions: { 'ai.example/ext': {} },
      tools: {},
      completions: {},
    });
  });
});
