/**
 * A tiny streaming Lambda handler for the local-stack tests. It runs bundled under the real runtime client and
 * uses the real `awslambda.streamifyResponse` / `awslambda.HttpResponseStream.from` globals it installs.
 * `?scenario=` picks the behaviour, so one bundle serves a whole test file.
 */
import type { APIGatewayProxyEvent, Context } from 'aws-lambda';
import type { Writable } from 'node:stream';
import { writeResponse } from '../../../lambda/aws/index.js';

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

type Scenario = (event: APIGatewayProxyEvent, stream: Writable, context: Context) => Promise<void>;

function open(stream: Writable, metadata: Record<string, unknown>): Writable {
  return awslambda.HttpResponseStream.from(stream, metadata);
}

function number(event: APIGatewayProxyEvent, name: string, fallback: number): number {
  const value = Number(event.queryStringParameters?.[name]);
  return Number.isFinite(value) ? value : fallback;
}

/**
 * Writes a whole JSON answer. `write()` then `end()`, never `end(data)`: the runtime client emits the prelude
 * from its `write()` hook only, so `end(data)` alone would send the payload without a prelude (API Gateway 502).
 */
function json(stream: Writable, statusCode: number, body: unknown): void {
  const out = open(stream, { statusCode, headers: { 'Content-Type': 'application/json' } });
  out.write(JSON.stringify(body));
  out.end();
}

/** `data: <digits>\n\n` of exactly `size` bytes: the digits cycle 0-9, so a lost or moved byte shows. */
function largeFrame(size: number): Uint8Array {
  const bytes = new Uint8Array(Math.max(size, 9));
  bytes.set(new TextEncoder().encode('data: '));
  for (let index = 6; index < bytes.length - 2; index += 1) bytes[index] = 0x30 + (index % 10);
  bytes[bytes.length - 2] = 0x0a;
  bytes[bytes.length - 1] = 0x0a;
  return bytes;
}

const scenarios: Record<string, Scenario> = {
  /** `count` SSE events `gap` ms apart. */
  events: async (event, stream) => {
    const out = open(stream, { statusCode: 200, headers: { 'Content-Type': 'text/event-stream' } });
    const count = number(event, 'count', 3);
    for (let index = 1; index <= count; index += 1) {
      if (index > 1) await sleep(number(event, 'gap', 300));
      out.write(`data: event ${index}\n\n`);
    }
    out.end();
  },
  /**
   * An SSE body through the platform's own response path (`writeResponse`): `pages` small frames, then one
   * final frame of `size` bytes enqueued as ONE chunk (a big final result), with the stall watchdog on.
   */
  'large-final': async (event, stream) => {
    const pages = number(event, 'pages', 3);
    const size = number(event, 'size', 2_400_000);
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let index = 1; index <= pages; index += 1) {
          controller.enqueue(new TextEncoder().encode(`data: page ${index}\n\n`));
        }
        controller.enqueue(largeFrame(size));
        controller.close();
      },
    });
    const response = new Response(body, { headers: { 'Content-Type': 'text/event-stream' } });
    await writeResponse(response, stream, { stallMs: number(event, 'stallMs', 30_000) });
  },
  /** What the function sees of its time budget and of the event. */
  inspect: async (event, stream, context) => {
    await Promise.resolve();
    json(stream, 200, {
      remainingMs: context.getRemainingTimeInMillis(),
      event,
      env: process.env['LOCAL_MARKER'] ?? null,
    });
  },
  /** Answers after `ms` milliseconds. */
  sleep: async (event, stream) => {
    await sleep(number(event, 'ms', 1000));
    json(stream, 200, { slept: true });
  },
  /** Sends the prelude and one chunk, then works past any timeout. */
  'stream-then-hang': async (_event, stream) => {
    const out = open(stream, { statusCode: 200, headers: { 'Content-Type': 'text/plain' } });
    out.write('started\n');
    await sleep(60_000);
    out.end('never\n');
  },
  /** 202 with no body: an empty write still sends the prelude (DESIGN §3 step 4). */
  accepted: async (_event, stream) => {
    await Promise.resolve();
    const out = open(stream, { statusCode: 202, headers: {} });
    out.write('');
    out.end();
  },
  /** Status, single and multi-value headers and cookies from the prelude. */
  headers: async (_event, stream) => {
    await Promise.resolve();
    const out = open(stream, {
      statusCode: 201,
      headers: { 'Content-Type': 'text/plain', 'X-Single': 'one' },
      multiValueHeaders: { 'X-Multi': ['a', 'b'] },
      cookies: ['session=abc; Path=/', 'theme=dark'],
    });
    out.write('made');
    out.end();
  },
  /** Ends without writing: `HttpResponseStream.from` never emits its prelude, so API Gateway answers 502. */
  'no-prelude': async (_event, stream) => {
    await Promise.resolve();
    open(stream, { statusCode: 200, headers: {} }).end();
  },
  /** `end(data)` with no `write()`: the runtime client's prelude hook never runs either. */
  'end-with-data': async (_event, stream) => {
    await Promise.resolve();
    open(stream, { statusCode: 200, headers: { 'Content-Type': 'text/plain' } }).end('payload only');
  },
  /** Writes plain bytes with no prelude at all. */
  'raw-bytes': async (_event, stream) => {
    await Promise.resolve();
    stream.end('just bytes, no metadata');
  },
  /** Fails before writing anything. */
  'throw-before': async () => {
    await Promise.resolve();
    throw new Error('failed before the prelude');
  },
  /** Sends the prelude and a chunk, then fails. */
  'throw-mid': async (_event, stream) => {
    const out = open(stream, { statusCode: 200, headers: { 'Content-Type': 'text/plain' } });
    out.write('partial\n');
    await sleep(200);
    throw new Error('failed mid-stream');
  },
  /** Writes until its stream closes, then logs that it saw the close (the test reads the log line). */
  'until-closed': async (event, stream) => {
    const out = open(stream, { statusCode: 200, headers: { 'Content-Type': 'text/plain' } });
    const marker = event.queryStringParameters?.['marker'] ?? 'unnamed';
    let closed = false;
    out.on('close', () => {
      closed = true;
    });
    out.on('error', () => undefined);
    for (let index = 0; index < 100 && !closed; index += 1) {
      out.write(`tick ${index}\n`);
      await sleep(50);
    }
    console.log(`until-closed ${marker}: ${closed ? 'saw close' : 'never closed'}`);
    if (!closed) out.end();
  },
};

export const handler = awslambda.streamifyResponse(
  async (event: APIGatewayProxyEvent, stream: Writable, context: Context): Promise<void> => {
    // API Gateway's completion notice after a streamed response (docs/aws.md): nothing to do.
    if ('invokeCompletionStatus' in event) {
      stream.end();
      return;
    }
    const name = event.queryStringParameters?.['scenario'] ?? 'events';
    const scenario = scenarios[name];
    if (scenario === undefined) {
      json(stream, 404, { error: `unknown scenario ${name}` });
      return;
    }
    await scenario(event, stream, context);
  },
);
