/**
 * The body of a runtime's streamed `/response` post as the invoker reads it: batching of the runtime client's
 * one-chunk-per-write framing, incremental hand-over, backpressure back to the writer, error trailers and a
 * dropped runtime connection. Real sockets on 127.0.0.1: the point is how Node's HTTP parser delivers chunks.
 */
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { type ClientRequest, type IncomingMessage, type Server, createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { InvocationError, MAX_BATCH_BYTES, ResponseBody } from '../../../local/runtime-api/index.js';

/** One runtime post: the writer side (what the RIC does) and the body the invoker reads. */
interface Post {
  runtime: ClientRequest;
  body: ResponseBody;
  /** The Runtime API's answer to the post, once it comes. */
  answer: Promise<IncomingMessage>;
  settled: () => boolean;
}

let server: Server;
let port = 0;
const waiting: Array<(post: { body: ResponseBody; settled: () => boolean }) => void> = [];

before(async () => {
  server = createServer((req, res) => {
    let settled = false;
    const body = new ResponseBody(req, res, () => {
      settled = true;
    });
    waiting.shift()?.({ body, settled: () => settled });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  port = (server.address() as AddressInfo).port;
});
after(async () => {
  server.closeAllConnections();
  server.close();
  await once(server, 'close');
});

/** Opens a chunked post with the runtime client's headers and waits until the server built its body. */
async function openPost(): Promise<Post> {
  const arrived = new Promise<{ body: ResponseBody; settled: () => boolean }>((resolve) => {
    waiting.push(resolve);
  });
  const runtime = request({
    host: '127.0.0.1',
    port,
    method: 'POST',
    path: '/2018-06-01/runtime/invocation/id/response',
    agent: false,
    headers: {
      'Lambda-Runtime-Function-Response-Mode': 'streaming',
      'Transfer-Encoding': 'chunked',
      Trailer: 'Lambda-Runtime-Function-Error-Type, Lambda-Runtime-Function-Error-Body',
    },
  });
  runtime.on('error', () => undefined);
  const answer = once(runtime, 'response').then(([res]) => res as IncomingMessage);
  // A test that kills the connection never gets an answer; the others await it.
  answer.catch(() => undefined);
  runtime.flushHeaders();
  const { body, settled } = await arrived;
  return { runtime, body, answer, settled };
}

/** Reads the body to its end, counting the buffers it was handed in. */
async function readAll(body: ResponseBody): Promise<{ text: string; pushes: number }> {
  const parts: Buffer[] = [];
  for await (const part of body) parts.push(part as Buffer);
  return { text: Buffer.concat(parts).toString('utf8'), pushes: parts.length };
}

/** Resolves with the next buffer the body hands over, or rejects if none comes within 5 s. */
function nextChunk(body: ResponseBody): Promise<string> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('no chunk within 5 s')), 5000);
    body.once('data', (chunk: Buffer) => {
      clearTimeout(timer);
      body.pause();
      resolve(chunk.toString('utf8'));
    });
    body.resume();
  });
}

describe('ResponseBody', () => {
  it('hands over a burst of one-chunk writes as a few buffers, complete and in order, then answers 202', async () => {
    // Prepare
    const post = await openPost();
    const frames = Array.from({ length: 2000 }, (_, index) => `id: ${index}\ndata: ${'x'.repeat(100)}\n\n`);

    // Act
    for (const frame of frames) post.runtime.write(frame);
    post.runtime.end();
    const received = await readAll(post.body);

    // Assess
    assert.equal(received.text, frames.join(''));
    assert.ok(received.pushes <= 200, `${received.pushes} buffers for 2000 writes`);
    assert.equal((await post.answer).statusCode, 202);
    assert.equal(post.settled(), true);
  });

  it('hands over each write before the next one is made (nothing waits for later bytes)', async () => {
    // Prepare
    const post = await openPost();

    // Act
    post.runtime.write('first');
    const first = await nextChunk(post.body);
    post.runtime.write('second');
    const second = await nextChunk(post.body);
    post.runtime.end();
    const rest = await readAll(post.body);

    // Assess
    assert.equal(first, 'first');
    assert.equal(second, 'second');
    assert.equal(rest.text, '');
  });

  it('stops reading the runtime while the invoker is behind, so the writer sees backpressure and little is held', async () => {
    // Prepare
    const post = await openPost();
    const piece = Buffer.alloc(64 * 1024, 'a');
    let written = 0;

    // Act: write until the socket stays full (no 'drain' for 300 ms) while nobody reads the body.
    let blocked = false;
    for (let round = 0; round < 4096 && !blocked; round += 1) {
      written += piece.byteLength;
      if (!post.runtime.write(piece)) {
        const drained = once(post.runtime, 'drain').then(() => true);
        const stalled = new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 300));
        blocked = !(await Promise.race([drained, stalled]));
      }
    }
    const heldByBody = post.body.readableLength;
    post.runtime.end();
    const received = await readAll(post.body);

    // Assess
    assert.equal(blocked, true, `the writer never blocked after ${written} bytes`);
    assert.ok(
      heldByBody <= post.body.readableHighWaterMark + 2 * MAX_BATCH_BYTES,
      `body held ${heldByBody} B`,
    );
    assert.equal(received.text.length, written);
  });

  it('passes on the bytes before the error trailers, then fails with the function error they carry', async () => {
    // Prepare
    const post = await openPost();
    const document = { errorType: 'TypeError', errorMessage: 'boom' };
    const chunks: string[] = [];
    post.body.on('data', (chunk: Buffer) => chunks.push(chunk.toString('utf8')));

    // Act
    post.runtime.write('partial');
    post.runtime.addTrailers({
      'Lambda-Runtime-Function-Error-Type': 'TypeError',
      'Lambda-Runtime-Function-Error-Body': Buffer.from(JSON.stringify(document)).toString('base64'),
    });
    post.runtime.end();
    const [error] = (await once(post.body, 'error').catch((caught: unknown) => [caught])) as [unknown];

    // Assess
    assert.deepEqual(chunks, ['partial']);
    assert.ok(error instanceof InvocationError);
    assert.equal(error.code, 'function_error');
    assert.equal(error.errorType, 'TypeError');
    assert.equal(error.message, 'boom');
    assert.equal((await post.answer).statusCode, 202);
  });

  it('passes on what arrived, then fails with runtime_exit when the runtime connection drops mid-body', async () => {
    // Prepare
    const post = await openPost();
    const chunks: string[] = [];
    post.body.on('data', (chunk: Buffer) => chunks.push(chunk.toString('utf8')));

    // Act
    post.runtime.write('before the crash');
    await new Promise((resolve) => post.body.once('data', resolve));
    post.runtime.destroy();
    const [error] = (await once(post.body, 'error').catch((caught: unknown) => [caught])) as [unknown];

    // Assess
    assert.deepEqual(chunks, ['before the crash']);
    assert.ok(error instanceof InvocationError);
    assert.equal(error.code, 'runtime_exit');
    assert.equal(post.settled(), true);
  });

  it('answers the runtime and closes its connection when the invoker drops the body', async () => {
    // Prepare
    const post = await openPost();
    post.runtime.write('first');
    await nextChunk(post.body);

    // Act
    post.body.destroy();
    const answer = await post.answer;
    await once(post.runtime.socket!, 'end');

    // Assess
    assert.equal(answer.statusCode, 202);
    assert.equal(post.settled(), true);
  });
});
