/* eslint-disable @typescript-eslint/no-unsafe-member-access, @typescript-eslint/no-unsafe-argument, @typescript-eslint/no-unsafe-call, @typescript-eslint/no-unsafe-assignment -- response bodies are untyped wire JSON */
/**
 * Bounded batches on 2025-03-26 sessions: an element count above the limit is refused whole, elements run
 * with bounded concurrency, and the joined answer stays under its byte limit with a clear per-element error.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { JsonRpcCode } from '../../../lambda/mcp/index.js';
import type { McpServerOptions } from '../../../lambda/mcp/index.js';
import { initialize, inSession, makeServer, post, readJson, rpc } from './helpers.js';

const legacy = '2025-03-26';

async function legacySession(options: Partial<McpServerOptions> = {}) {
  const server = makeServer(options);
  let running = 0;
  let peak = 0;
  server.registerTool({ name: 'slow', inputSchema: { type: 'object' } }, async () => {
    running++;
    peak = Math.max(peak, running);
    await new Promise((resolve) => setTimeout(resolve, 5));
    running--;
    return { content: [{ type: 'text', text: 'x'.repeat(1000) }] };
  });
  const session = await initialize(server, { protocolVersion: legacy });
  const send = (values: unknown[]) => server.handle(post(values, inSession(session, legacy)));
  return { server, send, peak: () => peak };
}

const call = (i: number) => rpc(i, 'tools/call', { name: 'slow', arguments: {} });

describe('bounded 2025-03-26 batches', () => {
  it('refuses a batch over the element limit as a whole with -32600, running none of it', async () => {
    // Prepare
    const { send, peak } = await legacySession({ maxBatchElements: 10 });
    // Act
    const res = await readJson(await send(Array.from({ length: 11 }, (_, i) => call(i))));
    // Assess
    assert.equal(res.status, 200);
    assert.equal(res.body.error.code, JsonRpcCode.InvalidRequest);
    assert.match(res.body.error.message, /at most 10/);
    assert.equal(peak(), 0);
  });

  it('refuses 1,000 tools/list elements by default', async () => {
    const { send } = await legacySession();
    const res = await readJson(await send(Array.from({ length: 1000 }, (_, i) => rpc(i, 'tools/list'))));
    assert.equal(res.body.error.code, JsonRpcCode.InvalidRequest);
    assert.ok(res.text.length < 200);
  });

  it('runs at most the configured number of elements at once and answers each in order', async () => {
    // Prepare
    const { send, peak } = await legacySession({ maxBatchElements: 20, batchConcurrency: 3 });
    // Act
    const res = await readJson(await send(Array.from({ length: 20 }, (_, i) => call(i))));
    // Assess
    assert.equal(res.status, 200);
    assert.deepEqual(
      res.body.map((part: { id: number }) => part.id),
      Array.from({ length: 20 }, (_, i) => i),
    );
    assert.ok(peak() <= 3, `peak concurrency ${peak()}`);
  });

  it('keeps the joined answer under its byte limit, answering what does not fit with a clear error', async () => {
    // Prepare: each answer is ~1.1 kB; the limit fits about four.
    const { send } = await legacySession({ maxBatchResponseBytes: 5000 });
    // Act
    const res = await readJson(await send(Array.from({ length: 10 }, (_, i) => call(i))));
    // Assess
    assert.equal(res.status, 200);
    assert.ok(res.text.length <= 5000 + 10 * 200, `answer is ${res.text.length} bytes`);
    const tooLarge = res.body.filter((part: { error?: { code: number } }) => part.error !== undefined);
    assert.ok(tooLarge.length >= 5);
    for (const part of tooLarge) {
      assert.equal(part.error.code, JsonRpcCode.InternalError);
      assert.match(part.error.message, /batch answer limit/);
    }
    assert.deepEqual(
      res.body.map((part: { id: number }) => part.id),
      Array.from({ length: 10 }, (_, i) => i),
    );
  });
});
