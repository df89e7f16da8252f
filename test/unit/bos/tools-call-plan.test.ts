/* eslint-disable @typescript-eslint/no-unsafe-member-access, @typescript-eslint/no-explicit-any -- response bodies are untyped wire JSON */
/**
 * A BOS tool checks its grant once per call: under the streaming opt-in the `beforeStream` hook's plan
 * reaches the handler (`call-plan.ts`), without it the handler plans itself. Every call still asks the
 * directory, so a revoked grant is refused on the very next call.
 */
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import type { ContextGrant, Directory } from '../../../lambda/bos/index.js';
import {
  createBosPlatform,
  createDemoDirectory,
  createJwtVerifier,
  DEMO_PEOPLE_CONTEXT_HANDLE,
} from '../../../lambda/bos/index.js';
import { callPlanner } from '../../../lambda/bos/tools/index.js';
import type { McpRequestContext } from '../../../lambda/mcp/index.js';
import { silentLogger } from '../../../lambda/mcp/index.js';
import { createDevAuth } from '../../../local/dev-auth/index.js';
import type { DevAuth } from '../../../local/dev-auth/index.js';
import { ENDPOINT, FIXED_NOW, ISSUER, fastDemoSources } from './platform-harness.js';

/** The fields of a request context the planner reads; the rest is irrelevant to it. */
const ctxWith = (prepared?: unknown) => ({ prepared }) as McpRequestContext;

describe('callPlanner', () => {
  it('hands the plan its beforeStream made to the same call, without checking again', async () => {
    let checks = 0;
    const planner = callPlanner(() => Promise.resolve({ check: ++checks }));
    const plan = await planner.beforeStream({}, ctxWith());
    assert.equal(await planner.plan({}, ctxWith(plan)), plan);
    assert.equal(checks, 1);
  });

  it('checks when the call carries no plan (a plain JSON call, where the hook does not run)', async () => {
    let checks = 0;
    const planner = callPlanner(() => Promise.resolve({ check: ++checks }));
    assert.deepEqual(await planner.plan({}, ctxWith()), { check: 1 });
    assert.equal(checks, 1);
  });

  it('ignores a prepared value it did not make: a forged plan or another planner’s', async () => {
    let checks = 0;
    const planner = callPlanner(() => Promise.resolve({ grant: `checked ${++checks}` }));
    const other = callPlanner(() => Promise.resolve({ grant: 'someone else' }));
    const foreign = await other.beforeStream({}, ctxWith());
    assert.deepEqual(await planner.plan({}, ctxWith({ grant: 'forged' })), { grant: 'checked 1' });
    assert.deepEqual(await planner.plan({}, ctxWith(foreign)), { grant: 'checked 2' });
    assert.deepEqual(await planner.plan({}, ctxWith('not even an object')), { grant: 'checked 3' });
  });

  it('uses a prepared plan once: a second handler run with it checks again', async () => {
    let checks = 0;
    const planner = callPlanner(() => Promise.resolve({ check: ++checks }));
    const plan = await planner.beforeStream({}, ctxWith());
    await planner.plan({}, ctxWith(plan));
    assert.deepEqual(await planner.plan({}, ctxWith(plan)), { check: 2 });
  });
});

/** The demo directory, counting lookups, with grants that can be revoked. */
function countingDirectory() {
  const inner = createDemoDirectory();
  const revoked = new Set<string>();
  const counts = { find: 0, contextsFor: 0 };
  const directory: Directory = {
    async contextsFor(principal) {
      counts.contextsFor += 1;
      const grants = await inner.contextsFor(principal);
      return grants.filter((g: ContextGrant) => !revoked.has(g.context.context_handle));
    },
    async find(principal, handle) {
      counts.find += 1;
      return revoked.has(handle) ? undefined : inner.find(principal, handle);
    },
  };
  return { directory, counts, revoked };
}

describe('BOS tools ask the directory once per call', () => {
  let auth: DevAuth;
  let refreshes = 0;
  const { directory, counts, revoked } = countingDirectory();
  let platform: ReturnType<typeof createBosPlatform>;

  before(async () => {
    auth = await createDevAuth({ issuer: ISSUER, audience: ENDPOINT });
    platform = createBosPlatform({
      directory,
      sources: fastDemoSources(),
      refreshSources: () => {
        refreshes += 1;
        return Promise.resolve();
      },
      verifier: createJwtVerifier({ issuer: ISSUER, audience: ENDPOINT, jwks: auth.jwks }),
      endpoint: ENDPOINT,
      logger: silentLogger,
      clock: () => FIXED_NOW,
      serverOptions: { name: 'bos-test', version: '0.0.0', keepaliveMs: 60_000 },
    });
  });

  /** A stateless (2026-07-28) tools/call, streamed when `stream` (opt-in + Accept), else JSON. */
  async function call(name: string, args: Record<string, unknown>, stream: boolean) {
    const token = await auth.mint('dev-user');
    const res = await platform.handle(
      new Request(ENDPOINT, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-protocol-version': '2026-07-28',
          'mcp-method': 'tools/call',
          'mcp-name': name,
        },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'tools/call',
          params: {
            name,
            arguments: args,
            _meta: {
              'io.modelcontextprotocol/protocolVersion': '2026-07-28',
              'io.modelcontextprotocol/clientCapabilities': stream
                ? { experimental: { 'bos/source-results/v1': {} } }
                : {},
            },
          },
        }),
      }),
    );
    const text = await res.text();
    const contentType = res.headers.get('content-type') ?? '';
    const finalJson = contentType.startsWith('text/event-stream')
      ? (text.trim().split('\n\n').at(-1) ?? '').replace(/^event: message\ndata: /, '')
      : text;
    return { contentType, final: JSON.parse(finalJson) as Record<string, any> };
  }

  const execute = { context_handle: DEMO_PEOPLE_CONTEXT_HANDLE, tool_name: 'list_people', arguments: {} };

  it('reads the grant once for a streamed bos_execute and once for a JSON one', async () => {
    for (const stream of [true, false]) {
      counts.find = 0;
      const { contentType, final } = await call('bos_execute', execute, stream);
      assert.ok(contentType.startsWith(stream ? 'text/event-stream' : 'application/json'));
      assert.equal(final.result.structuredContent.context.context_handle, DEMO_PEOPLE_CONTEXT_HANDLE);
      assert.equal(counts.find, 1, `grant lookups with stream=${stream}`);
    }
  });

  it('reads the default grant once for a streamed direct tool', async () => {
    counts.contextsFor = 0;
    const { contentType, final } = await call('list_people', {}, true);
    assert.ok(contentType.startsWith('text/event-stream'));
    assert.equal(final.result.structuredContent.metadata.completeness, 'partial');
    assert.equal(counts.contextsFor, 1);
  });

  it('refreshes the source catalog for each federated read, not for a listing', async () => {
    refreshes = 0;
    await call('bos_execute', execute, true);
    const afterRead = refreshes;
    await call('bos_list_tools', { context_handle: DEMO_PEOPLE_CONTEXT_HANDLE }, true);
    assert.ok(afterRead >= 1);
    assert.equal(refreshes, afterRead);
  });

  it('refuses a grant revoked after a successful call on the very next call, streamed or not', async () => {
    assert.equal((await call('bos_execute', execute, true)).final.result.isError, true);
    revoked.add(DEMO_PEOPLE_CONTEXT_HANDLE);
    try {
      for (const stream of [true, false]) {
        const { contentType, final } = await call('bos_execute', execute, stream);
        assert.ok(contentType.startsWith('application/json'), 'a refusal keeps its JSON answer');
        assert.equal(final.error.code, -32602);
      }
    } finally {
      revoked.delete(DEMO_PEOPLE_CONTEXT_HANDLE);
    }
  });
});
