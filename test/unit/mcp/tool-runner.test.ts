/**
 * `beforeStream` → handler hand-over: what the hook resolves to reaches the handler of the same streamed
 * call as `ctx.prepared`, in both protocol shapes, so a tool's checks need not run twice. Calls that answer
 * JSON (no hook run) and tools without a hook see no `prepared` value.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { McpServer, StreamingToolOptions } from '../../../lambda/mcp/index.js';
import { initialize, inSession, makeServer, parseSse, post, rpc } from './helpers.js';
import { modernMeta, modernPost } from './stateless/helpers.js';

interface Seen {
  hookRuns: number;
  prepared: unknown[];
}

/** A streaming tool that reports what its handler saw as `ctx.prepared`; `hook` undefined = no hook. */
function serverWith(hook: StreamingToolOptions['beforeStream'] | 'none', seen: Seen): McpServer {
  const server = makeServer({ keepaliveMs: 0 });
  server.registerStreamingTool(
    { name: 'planned', inputSchema: { type: 'object', properties: { n: { type: 'number' } } } },
    (_args, ctx) => {
      seen.prepared.push(ctx.prepared);
      return Promise.resolve({ content: [{ type: 'text', text: 'done' }] });
    },
    {
      // Streams only when asked to, as the BOS extension does with its opt-in.
      shouldStream: (ctx) => ctx.meta['stream'] === true,
      ...(hook !== 'none' && {
        beforeStream: async (args, ctx) => {
          seen.hookRuns += 1;
          return hook === undefined ? undefined : hook(args, ctx);
        },
      }),
    },
  );
  return server;
}

const planFor = (args: { n?: number }) => Promise.resolve({ plan: args.n ?? 0 });

async function finalFrame(res: Response): Promise<Record<string, unknown>> {
  assert.equal(res.headers.get('content-type'), 'text/event-stream');
  const frames = parseSse(await res.text()).filter((b) => b.data !== undefined);
  return JSON.parse(frames.at(-1)?.data ?? '{}') as Record<string, unknown>;
}

describe('beforeStream hands its result to the handler (ctx.prepared)', () => {
  it('passes the hook result to the handler of the same stateless streamed call', async () => {
    const seen: Seen = { hookRuns: 0, prepared: [] };
    const server = serverWith(planFor, seen);
    const meta = modernMeta({ stream: true });
    const res = await server.handle(
      modernPost(1, 'tools/call', { name: 'planned', arguments: { n: 7 }, _meta: meta }),
    );
    const final = await finalFrame(res);
    assert.equal((final.result as { isError?: boolean }).isError, undefined);
    assert.equal(seen.hookRuns, 1);
    assert.deepEqual(seen.prepared, [{ plan: 7 }]);
  });

  it('passes the hook result to the handler of the same session-ful streamed call', async () => {
    const seen: Seen = { hookRuns: 0, prepared: [] };
    const server = serverWith(planFor, seen);
    const sessionId = await initialize(server);
    const call = (id: number, n: number) =>
      server.handle(
        post(rpc(id, 'tools/call', { name: 'planned', arguments: { n }, _meta: { stream: true } }), {
          ...inSession(sessionId),
        }),
      );
    await finalFrame(await call(1, 1));
    await finalFrame(await call(2, 2));
    // One hook run per call, and each handler saw its own call's plan, never the other's.
    assert.equal(seen.hookRuns, 2);
    assert.deepEqual(seen.prepared, [{ plan: 1 }, { plan: 2 }]);
  });

  it('gives the handler no prepared value when the call answers JSON, since the hook does not run', async () => {
    const seen: Seen = { hookRuns: 0, prepared: [] };
    const server = serverWith(planFor, seen);
    const res = await server.handle(modernPost(1, 'tools/call', { name: 'planned', arguments: { n: 3 } }));
    assert.equal(res.headers.get('content-type'), 'application/json');
    const body = (await res.json()) as { result?: unknown };
    assert.ok(body.result);
    assert.equal(seen.hookRuns, 0);
    assert.deepEqual(seen.prepared, [undefined]);
  });

  it('gives the handler no prepared value when the tool has no hook or the hook resolves to nothing', async () => {
    const meta = modernMeta({ stream: true });
    for (const hook of ['none', undefined] as const) {
      const seen: Seen = { hookRuns: 0, prepared: [] };
      const server = serverWith(hook, seen);
      await finalFrame(
        await server.handle(modernPost(1, 'tools/call', { name: 'planned', arguments: {}, _meta: meta })),
      );
      assert.equal(seen.hookRuns, hook === 'none' ? 0 : 1);
      assert.deepEqual(seen.prepared, [undefined]);
    }
  });
});
