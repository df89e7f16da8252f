/* eslint-disable @typescript-eslint/no-unsafe-member-access, @typescript-eslint/no-unsafe-assignment, @typescript-eslint/no-unsafe-return, @typescript-eslint/no-unsafe-argument -- response bodies are untyped wire JSON */
/**
 * 2026-07-28 results: `resultType` everywhere, serverInfo `_meta` with its opt-out, cache hints on the
 * six cacheable surfaces (fail-closed defaults, normalisation), version-aware `server/discover`.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { McpServerOptions } from '../../../../lambda/mcp/index.js';
import { initialize, inSession, makeServer, post, readJson } from '../helpers.js';
import { modernPost } from './helpers.js';

function fullServer(overrides: Partial<McpServerOptions> = {}) {
  const server = makeServer({
    completion: { prompt: () => Promise.resolve({ values: ['a', 'b'] }) },
    ...overrides,
  });
  server.registerTool({ name: 'echo', inputSchema: { type: 'object' } }, () =>
    Promise.resolve({
      content: [{ type: 'text', text: 'x' }],
      _meta: { 'app/key': 1 },
      resultType: 'complete',
    }),
  );
  server.registerResource({ uri: 'file:///a.txt', name: 'a' }, (uri) =>
    Promise.resolve([{ uri, text: 'A' }]),
  );
  server.registerResourceTemplate({ uriTemplate: 'file:///{name}', name: 'files' });
  server.registerPrompt({ name: 'p' }, () =>
    Promise.resolve({ messages: [{ role: 'user', content: { type: 'text', text: 'hi' } }] }),
  );
  return server;
}

const calls: [string, Record<string, unknown>, string | undefined][] = [
  ['server/discover', {}, 'serverDiscover'],
  ['tools/list', {}, 'toolsList'],
  ['prompts/list', {}, 'promptsList'],
  ['resources/list', {}, 'resourcesList'],
  ['resources/templates/list', {}, 'resourceTemplatesList'],
  ['resources/read', { uri: 'file:///a.txt' }, 'resourcesRead'],
  ['tools/call', { name: 'echo', arguments: {} }, undefined],
  ['prompts/get', { name: 'p' }, undefined],
  [
    'completion/complete',
    { ref: { type: 'ref/prompt', name: 'p' }, argument: { name: 'x', value: '' } },
    undefined,
  ],
];

describe('stateless results', () => {
  it('carry resultType and serverInfo everywhere, and cache fields (0/private by default) only on the six surfaces', async () => {
    const server = fullServer();
    for (const [method, params, surface] of calls) {
      const res = await readJson(await server.handle(modernPost(1, method, params)));
      assert.equal(res.status, 200, method);
      const result = res.body.result;
      assert.equal(result.resultType, 'complete', method);
      assert.deepEqual(
        result._meta['io.modelcontextprotocol/serverInfo'],
        { name: 'test-server', version: '1.0.0' },
        method,
      );
      if (surface === undefined) {
        assert.equal('ttlMs' in result || 'cacheScope' in result, false, method);
      } else {
        assert.deepEqual([result.ttlMs, result.cacheScope], [0, 'private'], method);
      }
    }
  });

  it('keeps the handler _meta keys and does not duplicate a handler-set resultType', async () => {
    const res = await fullServer().handle(modernPost(1, 'tools/call', { name: 'echo', arguments: {} }));
    const text = await res.text();
    assert.equal(text.match(/"resultType"/g)?.length, 1);
    assert.equal(JSON.parse(text).result._meta['app/key'], 1);
  });

  it('omits serverInfo when the server opts out, only in the stateless shape', async () => {
    const server = fullServer({ includeServerInfoMetadata: false });
    const call = await readJson(
      await server.handle(modernPost(1, 'tools/call', { name: 'echo', arguments: {} })),
    );
    assert.deepEqual(call.body.result._meta, { 'app/key': 1 });
    const list = await readJson(await server.handle(modernPost(2, 'tools/list')));
    assert.equal(list.body.result._meta, undefined);
    const session = await initialize(server);
    const legacy = await readJson(
      await server.handle(post({ jsonrpc: '2.0', id: 3, method: 'server/discover' }, inSession(session))),
    );
    assert.ok(legacy.body.result._meta['io.modelcontextprotocol/serverInfo']);
  });

  it('applies configured hints, normalising negative and non-finite TTLs to 0 and anything but public to private', async () => {
    const server = fullServer({
      cacheableResults: {
        toolsList: { ttlMs: 60_000.7, scope: 'public' },
        promptsList: { ttlMs: -5, scope: 'public' },
        resourcesList: { ttlMs: Number.POSITIVE_INFINITY, scope: 'private' },
        resourceTemplatesList: { ttlMs: Number.NaN, scope: 'shared' as 'public' },
        resourcesRead: { ttlMs: 30_000, scope: 'public' },
      },
    });
    const hint = async (method: string, params: Record<string, unknown> = {}) => {
      const { result } = (await readJson(await server.handle(modernPost(1, method, params)))).body;
      return [result.ttlMs, result.cacheScope];
    };
    assert.deepEqual(await hint('tools/list'), [60_000, 'public']);
    assert.deepEqual(await hint('prompts/list'), [0, 'public']);
    assert.deepEqual(await hint('resources/list'), [0, 'private']);
    assert.deepEqual(await hint('resources/templates/list'), [0, 'private']);
    assert.deepEqual(await hint('server/discover'), [0, 'private']);
    assert.deepEqual(await hint('resources/read', { uri: 'file:///a.txt' }), [30_000, 'public']);
    // A retry carrying inputResponses is never cacheable, whatever the surface says.
    assert.deepEqual(await hint('resources/read', { uri: 'file:///a.txt', inputResponses: {} }), [
      0,
      'private',
    ]);
  });

  it('answers a version-aware discover: every supported version, no tasks capability', async () => {
    const res = await readJson(await fullServer().handle(modernPost(1, 'server/discover')));
    assert.deepEqual(res.body.result.supportedVersions, [
      '2026-07-28',
      '2025-11-25',
      '2025-06-18',
      '2025-03-26',
    ]);
    assert.deepEqual(Object.keys(res.body.result.capabilities).sort(), [
      'completions',
      'prompts',
      'resources',
      'tools',
    ]);
  });
});
