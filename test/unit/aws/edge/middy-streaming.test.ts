/**
 * `toStreamingResult` under the real `@middy/core` v6 streamify mode: middy writes the prelude with
 * `HttpResponseStream.from` and pipes our body, and the adapter's rules must survive that.
 */
import assert from 'node:assert/strict';
import { setImmediate as tick } from 'node:timers/promises';
import { after, before, describe, it } from 'node:test';
import middy from '@middy/core';
import type { Context } from 'aws-lambda';
import { toStreamingResult } from '../../../../lambda/aws/index.js';
import type { StreamResponseOptions } from '../../../../lambda/aws/index.js';
import { installFakeAwsLambda } from '../../../helpers/fake-awslambda.js';
import { FakeResponseStream, parseStreamedResponse } from '../../../helpers/fake-response-stream.js';
import { lambdaContext } from '../../../helpers/rest-events.js';

type Streaming = (event: unknown, stream: FakeResponseStream, context: Context) => Promise<void>;

function middyFor(response: () => Response, options: StreamResponseOptions = {}): Streaming {
  const handler = middy({ streamifyResponse: true, timeoutEarlyInMillis: 0 }).handler(() =>
    Promise.resolve(toStreamingResult(response(), options)),
  );
  return handler as unknown as Streaming;
}

const sse = { 'content-type': 'text/event-stream' };

describe('toStreamingResult under middy streamifyResponse', () => {
  let restore: () => void = () => undefined;
  before(() => {
    restore = installFakeAwsLambda();
  });
  after(() => restore());

  it('sends the prelude of a bodyless 202 through middy', async () => {
    // Prepare
    const stream = new FakeResponseStream();
    // Act
    await middyFor(() => new Response(null, { status: 202 }))({}, stream, lambdaContext());
    // Assess
    const { prelude, body } = parseStreamedResponse(stream.bytes());
    assert.equal(prelude.statusCode, 202);
    assert.equal(body, '');
  });

  it('ends a failing SSE body with a JSON-RPC error frame, and the invocation itself succeeds', async () => {
    // Prepare
    let pulls = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulls += 1;
        if (pulls === 1) controller.enqueue(new TextEncoder().encode(': bos/source-results/v1\n\n'));
        else controller.error(new Error('boom'));
      },
    });
    const stream = new FakeResponseStream();
    // Act
    await middyFor(() => new Response(body, { headers: sse }))({}, stream, lambdaContext());
    // Assess
    const parsed = parseStreamedResponse(stream.bytes());
    assert.equal(
      parsed.body,
      ': bos/source-results/v1\n\nevent: message\ndata: {"jsonrpc":"2.0","id":null,"error":{"code":-32603,"message":"Internal error"}}\n\n',
    );
    assert.equal(stream.writableEnded, true);
  });

  it('fires onAbort when the response stream closes early', async () => {
    // Prepare
    const body = new ReadableStream<Uint8Array>({
      pull: (controller) => controller.enqueue(new TextEncoder().encode(': keepalive\n\n')),
    });
    const stream = new FakeResponseStream({ highWaterMark: 32, held: true });
    const aborts: unknown[] = [];
    // Act
    const running = middyFor(() => new Response(body, { headers: sse }), { onAbort: (r) => aborts.push(r) })(
      {},
      stream,
      lambdaContext(),
    );
    for (let i = 0; i < 10; i += 1) await tick();
    stream.disconnect();
    // middy rethrows the pipeline failure (the runtime records it); what matters here is the signal.
    await running.catch(() => undefined);
    // Assess
    assert.equal(aborts.length, 1);
  });
});
