/**
 * The client resumes a broken stream with `Last-Event-ID` (docs/client.md "Resuming a broken stream"): after
 * the last id received (the priming event's included), with bounded attempts, and the CLI does it too. The
 * server side is a scripted fetch: each response says exactly which bytes the client got.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { McpHttpClient, runCli } from '../../../client/index.js';
import type { ResumeAttempt } from '../../../client/index.js';

const URL_ = 'http://mcp.test/mcp';
/** `initialize` takes id 1, so the tool call is request 2. */
const CALL_ID = 2;
const encoder = new TextEncoder();

const progress = (id: number, n: number): string =>
  `id: ${id}\nevent: message\ndata: ${JSON.stringify({
    jsonrpc: '2.0',
    method: 'notifications/progress',
    params: { progressToken: 'p', progress: n, total: 3 },
  })}\n\n`;
const final = (id: number, requestId: number): string =>
  `id: ${id}\nevent: message\ndata: ${JSON.stringify({
    jsonrpc: '2.0',
    id: requestId,
    result: { content: [{ type: 'text', text: 'done' }] },
  })}\n\n`;

/** An event stream of `chunks`; with `cut` it then fails as a dropped connection does. */
function sse(chunks: string[], cut = false): Response {
  let next = 0;
  // Pull-based: an error raised while chunks are still queued would discard them unread.
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      const chunk = chunks[next++];
      if (chunk !== undefined) controller.enqueue(encoder.encode(chunk));
      else if (cut) controller.error(new TypeError('terminated'));
      else controller.close();
    },
  });
  return new Response(body, { status: 200, headers: { 'content-type': 'text/event-stream' } });
}

interface Seen {
  method: string;
  lastEventId: string | null;
}

/**
 * A session-ful server: `initialize`, `notifications/initialized`, then `call` answers the tools/call and
 * `replays` answer the GETs in order.
 */
function scripted(call: Response, replays: (Response | Error)[]): { fetch: typeof fetch; seen: Seen[] } {
  const seen: Seen[] = [];
  const answer = (init?: RequestInit): Response => {
    const headers = new Headers(init?.headers);
    seen.push({ method: init?.method ?? 'GET', lastEventId: headers.get('last-event-id') });
    if (init?.method === 'GET') {
      const next = replays.shift();
      if (next === undefined || next instanceof Error) throw next ?? new Error('no more replays');
      return next;
    }
    const body = JSON.parse(init?.body as string) as { method: string; id?: number };
    if (body.method === 'initialize')
      return new Response(
        JSON.stringify({
          jsonrpc: '2.0',
          id: body.id,
          result: { protocolVersion: '2025-11-25', capabilities: {} },
        }),
        { status: 200, headers: { 'content-type': 'application/json', 'mcp-session-id': 's-1' } },
      );
    if (body.method === 'notifications/initialized') return new Response(null, { status: 202 });
    return call;
  };
  const fetchImpl = ((_url: string | URL | Request, init?: RequestInit) => {
    try {
      return Promise.resolve(answer(init));
    } catch (error) {
      return Promise.reject(error instanceof Error ? error : new Error(String(error)));
    }
  }) as typeof fetch;
  return { fetch: fetchImpl, seen };
}

describe('resuming a broken stream', () => {
  it('reconnects after the last id received and delivers every event once, ending with the final response', async () => {
    const { fetch, seen } = scripted(
      sse(['id: 1\nretry: 5\ndata:\n\n', progress(2, 1), progress(3, 2).slice(0, 30)], true),
      [sse([progress(3, 2), progress(4, 3), final(5, CALL_ID)])],
    );
    const client = new McpHttpClient({ url: URL_, fetch });
    const notified: unknown[] = [];
    const attempts: ResumeAttempt[] = [];

    const outcome = await client.callTool(
      'ticker',
      {},
      {
        progressToken: 'p',
        onNotification: (_method, params) => notified.push((params as { progress: number }).progress),
        resume: { onResume: (attempt) => attempts.push(attempt) },
      },
    );

    assert.equal(outcome.confirmed, true);
    assert.deepEqual(notified, [1, 2, 3]);
    assert.deepEqual(attempts, [{ lastEventId: '2', attempt: 1, delayMs: 5 }]);
    assert.equal(outcome.diagnostics.resumes, 1);
    const get = seen.find((request) => request.method === 'GET');
    assert.equal(get?.lastEventId, '2');
  });

  it('resumes after the priming event when the stream broke before any message', async () => {
    const { fetch, seen } = scripted(sse(['id: 1\ndata:\n\n'], true), [
      sse([progress(2, 1), final(3, CALL_ID)]),
    ]);
    const client = new McpHttpClient({ url: URL_, fetch });

    const outcome = await client.callTool('ticker', {}, { resume: { initialDelayMs: 1 } });

    assert.equal(outcome.confirmed, true);
    assert.equal(seen.at(-1)?.lastEventId, '1');
  });

  it('gives up after the attempts in a row that bring nothing, waiting twice as long each time', async () => {
    const { fetch } = scripted(sse(['id: 1\ndata:\n\n', progress(2, 1)], true), [
      new Error('connection refused'),
      sse([], true),
      sse([]),
    ]);
    const client = new McpHttpClient({ url: URL_, fetch });
    const delays: number[] = [];

    const outcome = await client.callTool(
      'ticker',
      {},
      { resume: { initialDelayMs: 2, onResume: (attempt) => delays.push(attempt.delayMs) } },
    );

    assert.equal(outcome.confirmed, false);
    assert.deepEqual(delays, [2, 4, 8]);
  });

  it('stops at once when the server no longer knows the stream (404)', async () => {
    const { fetch, seen } = scripted(sse(['id: 1\ndata:\n\n'], true), [
      new Response('{"error":"stream not found"}', {
        status: 404,
        headers: { 'content-type': 'application/json' },
      }),
    ]);
    const client = new McpHttpClient({ url: URL_, fetch });

    const outcome = await client.callTool('ticker', {}, { resume: { initialDelayMs: 1 } });

    assert.equal(outcome.confirmed, false);
    assert.match(outcome.confirmed ? '' : (outcome.detail ?? ''), /404/);
    assert.equal(seen.filter((request) => request.method === 'GET').length, 1);
  });

  it('never resumes a stream without event ids, nor when resuming is off', async () => {
    for (const [response, resume] of [
      [sse([progress(2, 1).replace('id: 2\n', '')], true), undefined],
      [sse(['id: 1\ndata:\n\n'], true), false],
    ] as const) {
      const { fetch, seen } = scripted(response, []);
      const client = new McpHttpClient({ url: URL_, fetch });

      const outcome = await client.callTool('ticker', {}, resume === undefined ? {} : { resume });

      assert.equal(outcome.confirmed, false);
      assert.equal(seen.filter((request) => request.method === 'GET').length, 0);
    }
  });
});

describe('the CLI on a broken stream', () => {
  it('resumes, says so on stderr, and exits 0 with the final result', async () => {
    const { fetch } = scripted(sse(['id: 1\nretry: 1\ndata:\n\n', progress(2, 1)], true), [
      sse([final(3, CALL_ID)]),
    ]);
    const out: string[] = [];
    const err: string[] = [];

    const code = await runCli(['--url', URL_, 'call', 'ticker', '{}'], {
      stdout: (line) => out.push(line),
      stderr: (line) => err.push(line),
      fetch,
    });

    assert.equal(code, 0);
    assert.deepEqual(err, ['stream broken; resuming after event 2 (attempt 1, after 1 ms)']);
    assert.match(out.join('\n'), /final: confirmed/);
  });
});
