import assert from 'node:assert/strict';
import { setImmediate as tick } from 'node:timers/promises';
import { after, before, describe, it } from 'node:test';
import { toStreamingResult, writeResponse } from '../../../../lambda/aws/index.js';
import { installFakeAwsLambda } from '../../../helpers/fake-awslambda.js';
import {
  FakeResponseStream,
  parseStreamedResponse,
  PRELUDE_CONTENT_TYPE,
} from '../../../helpers/fake-response-stream.js';

const encoder = new TextEncoder();

/** A pull-based body that counts how many chunks the consumer has asked for. */
function countingBody(
  total: number,
  chunkSize = 1024,
): { body: ReadableStream<Uint8Array>; pulls: () => number } {
  let pulled = 0;
  const body = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        pulled += 1;
        if (pulled > total) controller.close();
        else controller.enqueue(new Uint8Array(chunkSize).fill(97));
      },
    },
    { highWaterMark: 0 },
  );
  return { body, pulls: () => pulled };
}

async function settle(rounds = 20): Promise<void> {
  for (let i = 0; i < rounds; i += 1) await tick();
}

describe('Response to the Lambda response stream', () => {
  let restore: () => void = () => undefined;
  before(() => {
    restore = installFakeAwsLambda();
  });
  after(() => restore());

  it('writes the JSON prelude once, then exactly 8 NUL bytes, then the body', async () => {
    // Prepare
    const stream = new FakeResponseStream();
    const response = new Response('{"ok":true}', {
      status: 201,
      headers: { 'content-type': 'application/json' },
    });
    // Act
    await writeResponse(response, stream);
    // Assess
    const bytes = stream.bytes();
    const { prelude, delimiter, body } = parseStreamedResponse(bytes);
    assert.equal(stream.contentType, PRELUDE_CONTENT_TYPE);
    assert.deepEqual(prelude, { statusCode: 201, headers: { 'content-type': 'application/json' } });
    assert.deepEqual([...delimiter], [0, 0, 0, 0, 0, 0, 0, 0]);
    assert.equal(body, '{"ok":true}');
    assert.equal(bytes.indexOf(Buffer.from('"statusCode"')), bytes.lastIndexOf(Buffer.from('"statusCode"')));
    assert.equal(stream.writableEnded, true);
  });

  it('moves Set-Cookie into cookies and keeps other repeated headers comma-joined', async () => {
    // Prepare
    const headers = new Headers({ 'content-type': 'application/json' });
    headers.append('set-cookie', 'a=1; Secure');
    headers.append('set-cookie', 'b=2; HttpOnly');
    headers.append('vary', 'Origin');
    headers.append('vary', 'Accept');
    const stream = new FakeResponseStream();
    // Act
    await writeResponse(new Response('{}', { headers }), stream);
    // Assess
    const { prelude } = parseStreamedResponse(stream.bytes());
    assert.deepEqual(prelude.cookies, ['a=1; Secure', 'b=2; HttpOnly']);
    assert.equal(prelude.headers?.['vary'], 'Origin, Accept');
    assert.equal(prelude.headers?.['set-cookie'], undefined);
  });

  it('still writes one (empty) chunk for a bodyless 202, so the prelude reaches API Gateway', async () => {
    // Prepare
    const stream = new FakeResponseStream();
    // Act
    await writeResponse(new Response(null, { status: 202 }), stream);
    // Assess
    assert.equal(stream.writeCalls, 1);
    const { prelude, body } = parseStreamedResponse(stream.bytes());
    assert.equal(prelude.statusCode, 202);
    assert.equal(body, '');
  });

  it('stops reading the body while the client is not draining (backpressure), then delivers it all', async () => {
    // Prepare
    const { body, pulls } = countingBody(200);
    const stream = new FakeResponseStream({ highWaterMark: 4096, held: true });
    // Act
    const done = writeResponse(
      new Response(body, { headers: { 'content-type': 'text/event-stream' } }),
      stream,
    );
    await settle();
    const pulledWhileHeld = pulls();
    stream.release();
    await done;
    // Assess: a few KiB of buffer, not the 200 KiB body, were read before the client drained.
    assert.ok(pulledWhileHeld <= 8, `pulled ${pulledWhileHeld} chunks while the stream was full`);
    assert.equal(parseStreamedResponse(stream.bytes()).body.length, 200 * 1024);
  });

  it('reports a failure after the first byte as an SSE JSON-RPC error frame and ends the stream', async () => {
    // Prepare
    let step = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        step += 1;
        if (step === 1)
          controller.enqueue(encoder.encode('event: message\ndata: {"jsonrpc":"2.0","method":"x"}\n\n'));
        else if (step === 2) controller.enqueue(encoder.encode('data: {"half'));
        else controller.error(new Error('secret provider detail'));
      },
    });
    const stream = new FakeResponseStream();
    // Act
    await writeResponse(new Response(body, { headers: { 'content-type': 'text/event-stream' } }), stream);
    // Assess
    const { prelude, body: text } = parseStreamedResponse(stream.bytes());
    assert.equal(prelude.statusCode, 200);
    assert.ok(
      text.endsWith(
        '\n\nevent: message\ndata: {"jsonrpc":"2.0","id":null,"error":{"code":-32603,"message":"Internal error"}}\n\n',
      ),
    );
    assert.doesNotMatch(text, /secret provider detail/);
    assert.equal(stream.writableEnded, true);
  });

  it('fires onAbort and cancels the body when the client goes away mid-stream', async () => {
    // Prepare
    let cancelled: unknown;
    const body = new ReadableStream<Uint8Array>({
      pull: (controller) => controller.enqueue(encoder.encode(': keepalive\n\n')),
      cancel: (reason) => {
        cancelled = reason;
      },
    });
    const stream = new FakeResponseStream({ highWaterMark: 64, held: true });
    const aborts: unknown[] = [];
    // Act
    const done = writeResponse(
      new Response(body, { headers: { 'content-type': 'text/event-stream' } }),
      stream,
      {
        onAbort: (reason) => aborts.push(reason),
      },
    );
    await settle();
    stream.disconnect();
    await done;
    // Assess
    assert.equal(aborts.length, 1);
    assert.ok(cancelled !== undefined);
  });

  it('does not fire onAbort when the body ended normally', async () => {
    // Prepare
    const aborts: unknown[] = [];
    const stream = new FakeResponseStream();
    // Act
    await writeResponse(new Response('done'), stream, { onAbort: (reason) => aborts.push(reason) });
    // Assess
    assert.deepEqual(aborts, []);
  });

  it('gives middy the prelude fields and a readable body with the same rules', async () => {
    // Prepare
    const response = new Response(null, { status: 202, headers: { 'x-a': '1' } });
    // Act
    const result = toStreamingResult(response);
    const chunks: unknown[] = [];
    for await (const chunk of result.body) chunks.push(chunk);
    // Assess
    assert.equal(result.statusCode, 202);
    assert.deepEqual({ ...result.headers }, { 'x-a': '1' });
    assert.deepEqual(chunks, ['']);
  });
});
