/**
 * `GET /mcp` without `Last-Event-ID` (mcp-method-surface "Keeping the initial keepalive path open for a
 * bounded window on Lambda"): one keepalive and the end by default; with `initialSessionListenerBudget`,
 * open with keepalives for the budget, ending `safetyBufferMs` before the invocation deadline if that
 * comes first, and with no final event or comment.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { McpInvocationContext, McpServerOptions } from '../../../lambda/mcp/index.js';
import { initialize, makeServer } from './helpers.js';

function get(sessionId: string): Request {
  return new Request('http://localhost/mcp', {
    method: 'GET',
    headers: {
      accept: 'text/event-stream',
      'mcp-session-id': sessionId,
      'mcp-protocol-version': '2025-11-25',
    },
  });
}

/** Opens the listener and reads it to its end; returns the body and how long it stayed open. */
async function listen(
  options: Partial<McpServerOptions>,
  ctx: McpInvocationContext = {},
): Promise<{ text: string; openMs: number; status: number }> {
  const server = makeServer({ keepaliveMs: 40, ...options });
  const session = await initialize(server, { protocolVersion: '2025-11-25' }, ctx);
  const started = Date.now();
  const res = await server.handle(get(session), ctx);
  const text = await res.text();
  return { text, openMs: Date.now() - started, status: res.status };
}

const keepalives = (text: string): number => text.split(': keepalive\n\n').length - 1;

describe('GET /mcp listener budget', () => {
  it('answers one keepalive and ends by default', async () => {
    const { text, openMs, status } = await listen({});
    assert.equal(status, 200);
    assert.equal(text, ': keepalive\n\n');
    assert.ok(openMs < 200, `${openMs} ms`);
  });

  it('stays open for the budget with keepalives, then ends without a final event', async () => {
    const { text, openMs } = await listen({
      initialSessionListenerBudget: { maxDurationMs: 300, safetyBufferMs: 0 },
    });
    assert.ok(openMs >= 290, `closed after ${openMs} ms`);
    assert.ok(openMs < 1_000, `closed after ${openMs} ms`);
    assert.ok(keepalives(text) >= 3, text);
    assert.match(text, /^(: keepalive\n\n)+$/);
  });

  it("ends safetyBufferMs before the invocation's deadline when that comes first", async () => {
    const { openMs } = await listen(
      { initialSessionListenerBudget: { maxDurationMs: 5_000, safetyBufferMs: 200 } },
      { deadline: Date.now() + 600 },
    );
    assert.ok(openMs >= 300 && openMs < 560, `closed after ${openMs} ms`);
  });

  it('keeps the default when the deadline leaves no room beyond the safety buffer', async () => {
    const { text } = await listen(
      { initialSessionListenerBudget: { maxDurationMs: 5_000, safetyBufferMs: 5_000 } },
      { deadline: Date.now() + 1_000 },
    );
    assert.equal(text, ': keepalive\n\n');
  });

  it('ends when the client goes away', async () => {
    const gone = new AbortController();
    setTimeout(() => gone.abort(), 100);
    const { openMs } = await listen(
      { initialSessionListenerBudget: { maxDurationMs: 5_000 } },
      { signal: gone.signal },
    );
    assert.ok(openMs < 1_000, `closed after ${openMs} ms`);
  });
});
