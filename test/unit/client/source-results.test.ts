/**
 * The consumer end to end over bytes (no sockets): checklist items 4–6 of the contract.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  McpHttpStatusError,
  McpProtocolError,
  consumeSourceResults,
  iterateSourceResults,
  type ProvisionalPage,
  type SourceResultsOutcome,
} from '../../../client/index.js';
import {
  CONTEXT,
  CONTRACT_MESSAGES,
  CONTRACT_STREAM,
  DEMO_RECORD,
  REQUEST_ID,
  directFinal,
  frame,
  sourceFrame,
  splitAt,
  streamOf,
} from './contract-example.js';

const encoder = new TextEncoder();
const sse = (text: string, headers: Record<string, string> = {}): Response =>
  new Response(text, { headers: { 'content-type': 'text/event-stream', ...headers } });

/** The outcome without arrival times, which legitimately differ between runs. */
function timeless(outcome: SourceResultsOutcome): string {
  return JSON.stringify(outcome, (key, value: unknown) => (key === 'elapsedMs' ? undefined : value));
}

const person = (id: string, source: string, email: string) => ({
  ...DEMO_RECORD,
  record_ref: `bos:person:${id}`,
  email,
  sources: [{ ...DEMO_RECORD.sources[0], source_identity: source, external_id: id }],
});

describe('consumeSourceResults over the contract example', () => {
  it('confirms the final bos_execute result: partial, one record, the timeout as source error', async () => {
    const pages: ProvisionalPage[] = [];
    const terminals: string[] = [];
    const outcome = await consumeSourceResults(sse(CONTRACT_STREAM), {
      requestId: REQUEST_ID,
      onPage: (p) => pages.push(p),
      onSourceComplete: (t) => terminals.push(`complete ${t.source.source_identity}`),
      onSourceError: (t) => terminals.push(`error ${t.source.source_identity} ${t.errorCode ?? ''}`),
    });
    assert.equal(outcome.confirmed, true);
    if (!outcome.confirmed) return;
    assert.equal(outcome.delivery, 'sse');
    assert.equal(outcome.path, 'execute');
    assert.equal(outcome.isError, true);
    assert.equal(outcome.completeness, 'partial');
    assert.equal(outcome.resultCount, 1);
    assert.deepEqual(outcome.records, [DEMO_RECORD]);
    assert.deepEqual(outcome.sourceErrors, [
      { source: { source_type: 'example', source_identity: 'other-demo-source' }, code: 'source_timeout' },
    ]);
    assert.deepEqual(outcome.context, CONTEXT);
    assert.deepEqual(outcome.violations, []);
    assert.equal(pages.length, 1);
    assert.equal(pages[0]?.provisional, true);
    assert.deepEqual(terminals, ['complete demo-source', 'error other-demo-source source_timeout']);
    assert.equal(outcome.diagnostics.comments, 2);
    assert.equal(outcome.diagnostics.emptyEvents, 1);
    assert.equal(outcome.diagnostics.sourceFrames, 3);
  });

  it('gives an identical outcome for every split of the byte stream into two chunks', async () => {
    const bytes = encoder.encode(CONTRACT_STREAM);
    const reference = timeless(await consumeSourceResults(streamOf([bytes]), { requestId: REQUEST_ID }));
    for (let i = 1; i < bytes.length; i += 1) {
      const outcome = await consumeSourceResults(streamOf(splitAt(bytes, [i])), { requestId: REQUEST_ID });
      assert.equal(timeless(outcome), reference, `split at byte ${i}`);
    }
  });

  it('gives an identical outcome when the stream arrives in 1- to 7-byte chunks', async () => {
    const bytes = encoder.encode(CONTRACT_STREAM);
    const reference = timeless(await consumeSourceResults(streamOf([bytes]), { requestId: REQUEST_ID }));
    for (let size = 1; size <= 7; size += 1) {
      const offsets = Array.from({ length: Math.ceil(bytes.length / size) - 1 }, (_, k) => (k + 1) * size);
      const outcome = await consumeSourceResults(streamOf(splitAt(bytes, offsets)), {
        requestId: REQUEST_ID,
      });
      assert.equal(timeless(outcome), reference, `chunk size ${size}`);
    }
  });

  it('yields the same events through the async iterator, in arrival order', async () => {
    const iterator = iterateSourceResults(sse(CONTRACT_STREAM), { requestId: REQUEST_ID });
    const types: string[] = [];
    let step = await iterator.next();
    while (step.done !== true) {
      types.push(step.value.type);
      step = await iterator.next();
    }
    assert.deepEqual(types, ['page', 'source_complete', 'source_error']);
    assert.equal(step.value.confirmed, true);
  });
});

describe('consumeSourceResults without a confirmed final response', () => {
  it('reports no confirmed result at EOF before the final frame, even when every source completed', async () => {
    const text = CONTRACT_MESSAGES.slice(0, 3).map(frame).join('');
    const outcome = await consumeSourceResults(sse(text), { requestId: REQUEST_ID });
    assert.equal(outcome.confirmed, false);
    if (outcome.confirmed) return;
    assert.equal(outcome.reason, 'no confirmed result');
    assert.equal(outcome.cause, 'eof');
    assert.equal(outcome.observedPages.length, 1);
    assert.ok(outcome.sources.every((s) => s.terminal !== undefined));
  });

  it('reports no confirmed result when the final frame is cut before its blank line', async () => {
    const text = CONTRACT_STREAM.slice(0, -1);
    const outcome = await consumeSourceResults(sse(text), { requestId: REQUEST_ID });
    assert.equal(outcome.confirmed, false);
  });

  it('reports no confirmed result with cause network when the connection fails mid-stream', async () => {
    let sent = false;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent) controller.error(new TypeError('terminated'));
        sent = true;
        controller.enqueue(encoder.encode(frame(CONTRACT_MESSAGES[0])));
      },
    });
    const outcome = await consumeSourceResults(body, { requestId: REQUEST_ID });
    assert.equal(outcome.confirmed, false);
    if (outcome.confirmed) return;
    assert.equal(outcome.cause, 'network');
    assert.equal(outcome.observedPages.length, 1);
  });

  it('does not accept a final response carrying another id', async () => {
    const other = { ...CONTRACT_MESSAGES[3], id: 'search-0' };
    const text = CONTRACT_MESSAGES.slice(0, 3).map(frame).join('') + frame(other);
    const outcome = await consumeSourceResults(sse(text), { requestId: REQUEST_ID });
    assert.equal(outcome.confirmed, false);
    assert.deepEqual(
      outcome.violations.map((v) => v.kind),
      ['unexpected_response'],
    );
  });
});

describe('the final result replaces provisional pages', () => {
  it('exposes only the final merged records, never the provisional ones added to them', async () => {
    // Two sources deliver the same person; the final result merges them into one record.
    const a = person('p-1', 'hr', 'ada@example.test');
    const b = person('p-1', 'crm', 'ada@example.test');
    const merged = {
      ...a,
      sources: [...b.sources, ...a.sources],
      identity_match: { matched_on: ['email'], source_count: 2 },
    };
    const hr = { source_type: 'example', source_identity: 'hr' };
    const crm = { source_type: 'example', source_identity: 'crm' };
    const text = [
      sourceFrame({ sequence: 1, source: hr, records: [a] }),
      sourceFrame({ sequence: 2, source: crm, records: [b] }),
      sourceFrame({ sequence: 3, source: hr, status: 'complete' }),
      sourceFrame({ sequence: 4, source: crm, status: 'complete' }),
      directFinal([merged], { completeness: 'complete', result_count: 1, source_errors: [] }),
    ]
      .map(frame)
      .join('');
    const outcome = await consumeSourceResults(sse(text), { requestId: REQUEST_ID });
    assert.equal(outcome.confirmed, true);
    if (!outcome.confirmed) return;
    assert.equal(outcome.path, 'direct');
    assert.deepEqual(outcome.records, [merged]);
    assert.equal(outcome.observedPages.flatMap((p) => p.records).length, 2);
    assert.equal(outcome.completeness, 'complete');
    assert.equal(outcome.isError, false);
    assert.deepEqual(outcome.sourceErrors, []);
  });

  it('reports a missing terminal when the final result arrives while a source is still open', async () => {
    const text = [
      sourceFrame({ sequence: 1, records: [DEMO_RECORD] }),
      directFinal([DEMO_RECORD], { completeness: 'complete' }),
    ]
      .map(frame)
      .join('');
    const outcome = await consumeSourceResults(sse(text), { requestId: REQUEST_ID });
    assert.equal(outcome.confirmed, true);
    assert.deepEqual(
      outcome.violations.map((v) => v.kind),
      ['missing_terminal'],
    );
  });

  it('surfaces a top-level JSON-RPC error without source notifications', async () => {
    const text = frame({
      jsonrpc: '2.0',
      id: REQUEST_ID,
      error: { code: -32603, message: 'Internal error' },
    });
    const outcome = await consumeSourceResults(sse(text), { requestId: REQUEST_ID });
    assert.equal(outcome.confirmed, true);
    if (!outcome.confirmed) return;
    assert.deepEqual(outcome.error, { code: -32603, message: 'Internal error' });
    assert.equal(outcome.isError, true);
    assert.deepEqual(outcome.violations, []);
  });

  it('surfaces resultType of a stateless result next to partial metadata', async () => {
    const final = directFinal([], FINAL_PARTIAL, { resultType: 'complete' });
    const outcome = await consumeSourceResults(sse(frame(final)), { requestId: REQUEST_ID });
    assert.equal(outcome.confirmed && outcome.resultType, 'complete');
    assert.equal(outcome.confirmed && outcome.completeness, 'partial');
    assert.deepEqual(outcome.confirmed && outcome.records, []);
  });
});

const FINAL_PARTIAL = {
  completeness: 'partial',
  result_count: 0,
  source_errors: [
    { source: { source_type: 'x', source_identity: 'y' }, error: { code: 'source_unavailable' } },
  ],
};

describe('delivery selection by status and Content-Type', () => {
  it('reads the existing JSON delivery when the server answers application/json', async () => {
    const body = JSON.stringify(directFinal([DEMO_RECORD], { completeness: 'complete', result_count: 1 }));
    const response = new Response(body, { headers: { 'content-type': 'application/json; charset=utf-8' } });
    const outcome = await consumeSourceResults(response, { requestId: REQUEST_ID });
    assert.equal(outcome.confirmed, true);
    if (!outcome.confirmed) return;
    assert.equal(outcome.delivery, 'json');
    assert.deepEqual(outcome.records, [DEMO_RECORD]);
    assert.equal(outcome.observedPages.length, 0);
  });

  it('reads the bos_execute context from _meta when structuredContent has none', async () => {
    const final = structuredClone(CONTRACT_MESSAGES[3]) as unknown as {
      result: { structuredContent: Record<string, unknown> };
    };
    delete final.result.structuredContent.context;
    const response = new Response(JSON.stringify(final), { headers: { 'content-type': 'application/json' } });
    const outcome = await consumeSourceResults(response, { requestId: REQUEST_ID });
    assert.equal(outcome.confirmed && outcome.path, 'execute');
    assert.deepEqual(outcome.confirmed && outcome.context, CONTEXT);
  });

  it('accepts text/event-stream with a charset parameter and in other letter case', async () => {
    const outcome = await consumeSourceResults(
      sse(CONTRACT_STREAM, { 'content-type': 'Text/Event-Stream; charset=UTF-8' }),
      {
        requestId: REQUEST_ID,
      },
    );
    assert.equal(outcome.confirmed, true);
  });

  it('raises an HTTP status error with the JSON-RPC error for a 401, before parsing any stream', async () => {
    const response = new Response(
      JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32011, message: 'Unauthorized' } }),
      {
        status: 401,
        headers: { 'content-type': 'application/json', 'www-authenticate': 'Bearer resource_metadata="x"' },
      },
    );
    const error = await consumeSourceResults(response, { requestId: REQUEST_ID }).then(
      () => undefined,
      (e: unknown) => e,
    );
    assert.ok(error instanceof McpHttpStatusError);
    assert.equal(error.status, 401);
    assert.equal(error.rpcError?.code, -32011);
    assert.equal(error.wwwAuthenticate, 'Bearer resource_metadata="x"');
  });

  it('rejects a 200 response that is neither JSON nor an event stream', async () => {
    const response = new Response('<html></html>', { headers: { 'content-type': 'text/html' } });
    await assert.rejects(consumeSourceResults(response, { requestId: REQUEST_ID }), McpProtocolError);
  });

  it('rejects a JSON response whose id is not the request id', async () => {
    const body = JSON.stringify({ ...directFinal([], { completeness: 'complete' }), id: 'other' });
    const response = new Response(body, { headers: { 'content-type': 'application/json' } });
    await assert.rejects(consumeSourceResults(response, { requestId: REQUEST_ID }), /does not match/);
  });
});
