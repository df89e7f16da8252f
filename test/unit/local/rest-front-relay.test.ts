/**
 * The REST front's payload relay (STREAM mode): chunk-by-chunk delivery, the idle and total limits, function
 * failure, client disconnect in both modes (the function keeps running, as on AWS, or its stream is closed),
 * the largest streamed response, the bandwidth cap, and backpressure from a slow client. Real sockets on
 * 127.0.0.1.
 */
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { type IncomingMessage, type Server, type ServerResponse, createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import {
  type RelayLimits,
  type RelayOutcome,
  relayPayload,
  shapedDelayMs,
} from '../../../local/rest-front/index.js';

/** What the next request to the test server relays, and with which limits. */
let next: { body: Readable; limits: RelayLimits } | undefined;
let outcome: Promise<RelayOutcome> = Promise.resolve('completed');
let server: Server;
let url = '';

before(async () => {
  server = createServer((_req, res: ServerResponse) => {
    const { body, limits } = next!;
    // As the front does once the prelude is read: status and headers leave before the first payload byte.
    res.writeHead(200, { 'Content-Type': 'text/event-stream' });
    res.flushHeaders();
    outcome = relayPayload(body, res, limits);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
});
after(async () => {
  server.closeAllConnections();
  server.close();
  await once(server, 'close');
});

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Limits far from any test's timing unless a test sets its own. */
function limits(overrides: Partial<RelayLimits> = {}): RelayLimits {
  return { idleTimeoutMs: 60_000, deadline: Date.now() + 60_000, ...overrides };
}

/** A body the test writes into by hand (`push`), like the function's response stream. */
function manualBody(): Readable {
  return new Readable({ read: () => undefined });
}

/** Requests `url` and collects the body; `aborted` tells whether the connection was cut before the end. */
function fetchRelayed(): Promise<{ text: string; aborted: boolean }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { agent: false }, (res: IncomingMessage) => {
      const parts: Buffer[] = [];
      res.on('data', (part: Buffer) => parts.push(part));
      res.on('error', () => undefined);
      res.on('close', () => resolve({ text: Buffer.concat(parts).toString('utf8'), aborted: !res.complete }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** Pushes `text` into `body` `count` times, `gapMs` apart, then ends it (unless told not to). */
async function trickle(body: Readable, count: number, gapMs: number, end = true): Promise<void> {
  for (let index = 0; index < count; index += 1) {
    if (body.destroyed) return;
    body.push(`event ${index}\n`);
    await sleep(gapMs);
  }
  if (end) body.push(null);
}

describe('relayPayload', { timeout: 60_000 }, () => {
  it('relays every chunk and completes when the body ends', async () => {
    // Prepare
    const body = manualBody();
    next = { body, limits: limits() };

    // Act
    const fetched = fetchRelayed();
    await trickle(body, 3, 10);
    const response = await fetched;

    // Assess
    assert.equal(await outcome, 'completed');
    assert.deepEqual(response, { text: 'event 0\nevent 1\nevent 2\n', aborted: false });
  });

  it('keeps a stream whose chunks keep coming open well past one idle timeout', async () => {
    // Prepare
    const body = manualBody();
    next = { body, limits: limits({ idleTimeoutMs: 1500 }) };

    // Act: 40 chunks 100 ms apart last more than two idle timeouts; a gap is 15 times shorter than one, so a
    // loaded machine that stretches a gap does not turn it into silence.
    const fetched = fetchRelayed();
    await trickle(body, 40, 100);
    const response = await fetched;

    // Assess
    assert.equal(await outcome, 'completed');
    assert.equal(response.aborted, false);
    assert.match(response.text, /event 39\n$/);
  });

  it('cuts the client connection with idle_timeout after a silence longer than the idle timeout', async () => {
    // Prepare
    const body = manualBody();
    next = { body, limits: limits({ idleTimeoutMs: 1000 }) };

    // Act: a few chunks close together (far inside the idle timeout), then silence.
    const fetched = fetchRelayed();
    await trickle(body, 3, 10, false);
    const response = await fetched;

    // Assess
    assert.equal(await outcome, 'idle_timeout');
    assert.equal(response.aborted, true);
    assert.equal(response.text, 'event 0\nevent 1\nevent 2\n');
    // As on AWS, the function is not told: its stream stays open and is read.
    assert.equal(body.destroyed, false);
    assert.equal(body.readableFlowing, true);
    body.push(null);
  });

  it('cuts the client connection at the deadline even while chunks keep coming', async () => {
    // Prepare
    const body = manualBody();
    next = { body, limits: limits({ idleTimeoutMs: 10_000, deadline: Date.now() + 1000 }) };

    // Act: chunks for about three seconds, each gap far inside the idle timeout.
    const fetched = fetchRelayed();
    await trickle(body, 60, 50);
    const response = await fetched;

    // Assess
    assert.equal(await outcome, 'duration_exceeded');
    assert.equal(response.aborted, true);
    assert.doesNotMatch(response.text, /event 59/);
  });

  it('cuts the client connection with function_failed when the body fails after bytes went out', async () => {
    // Prepare: the first chunk reaches the client before the body fails (whatever the machine's load).
    const body = manualBody();
    next = { body, limits: limits() };
    const req = request(url, { agent: false });
    req.on('error', () => undefined);
    req.end();
    const [res] = (await once(req, 'response')) as [IncomingMessage];
    res.on('error', () => undefined);
    body.push('event 0\n');
    const [first] = (await once(res, 'data')) as [Buffer];

    // Act
    const closed = new Promise((resolve) => res.once('close', resolve));
    body.destroy(new Error('failed mid-stream'));
    await closed;

    // Assess
    assert.equal(await outcome, 'function_failed');
    assert.equal(first.toString('utf8'), 'event 0\n');
    assert.equal(res.complete, false);
  });

  /** Starts a relayed request, lets one chunk arrive, then drops the client. */
  async function dropClientAfterFirstChunk(body: Readable): Promise<void> {
    const req = request(url, { agent: false });
    req.on('error', () => undefined);
    req.end();
    const [res] = (await once(req, 'response')) as [IncomingMessage];
    res.on('error', () => undefined);
    body.push('event 0\n');
    await once(res, 'data');
    req.destroy();
  }

  it('keeps reading the body after client_gone, as Lambda keeps a streaming function running', async () => {
    // Prepare
    const body = manualBody();
    next = { body, limits: limits() };

    // Act
    await dropClientAfterFirstChunk(body);
    const ended = await outcome;
    const accepted = [body.push('event 1\n'), body.push('event 2\n')];
    body.push(null);
    await once(body, 'end');

    // Assess: the function's later writes were taken and dropped, and its stream ended normally.
    assert.equal(ended, 'client_gone');
    assert.deepEqual(accepted, [true, true]);
    assert.equal(body.readableEnded, true);
  });

  it('destroys the body with client_gone in the close-stream mode', async () => {
    // Prepare
    const body = manualBody();
    next = { body, limits: limits({ onClientLoss: 'close-stream' }) };

    // Act
    await dropClientAfterFirstChunk(body);

    // Assess
    assert.equal(await outcome, 'client_gone');
    assert.equal(body.destroyed, true);
  });

  it('cuts the client connection with response_too_large past the largest streamed response', async () => {
    // Prepare
    const body = manualBody();
    next = { body, limits: limits({ maxResponseBytes: 20 }) };

    // Act: three 8-byte chunks, the third crosses 20 bytes.
    const fetched = fetchRelayed();
    await trickle(body, 3, 10, false);
    const response = await fetched;

    // Assess
    assert.equal(await outcome, 'response_too_large');
    assert.deepEqual(response, { text: 'event 0\nevent 1\n', aborted: true });
    body.push(null);
  });

  it('computes the bandwidth cap: nothing held within the burst, then the rate past it', () => {
    const shaping = { burstBytes: 1000, bytesPerSecond: 500 };
    assert.equal(shapedDelayMs(0, 0, shaping), 0);
    assert.equal(shapedDelayMs(1000, 0, shaping), 0);
    // 500 bytes past the burst at 500 B/s are due 1 s after the start.
    assert.equal(shapedDelayMs(1500, 0, shaping), 1000);
    assert.equal(shapedDelayMs(1500, 400, shaping), 600);
    assert.equal(shapedDelayMs(1500, 2000, shaping), 0);
    assert.equal(shapedDelayMs(5000, 0, { burstBytes: 0, bytesPerSecond: 0 }), 0);
  });

  it('delivers the bytes past the burst no faster than the configured rate', async () => {
    // Prepare: 10 chunks of 1,000 bytes; 2,000 are free, the rest go at 20,000 B/s: the last chunk may leave
    // only once 9,000 bytes are due, 350 ms after the start.
    const body = manualBody();
    next = { body, limits: limits({ shaping: { burstBytes: 2000, bytesPerSecond: 20_000 } }) };
    const chunk = 'x'.repeat(1000);

    // Act
    const started = Date.now();
    const fetched = fetchRelayed();
    for (let index = 0; index < 10; index += 1) body.push(chunk);
    body.push(null);
    const response = await fetched;
    const elapsedMs = Date.now() - started;

    // Assess: a lower bound only (a loaded machine is slower, never faster).
    assert.equal(await outcome, 'completed');
    assert.equal(response.text.length, 10_000);
    assert.ok(elapsedMs >= 340, `10,000 bytes took ${elapsedMs} ms`);
  });

  it('stops pulling from the body while the client does not read, so the front holds a bounded amount', async () => {
    // Prepare: an endless body that counts what the relay pulled from it.
    let pulled = 0;
    const piece = Buffer.alloc(64 * 1024, 'a');
    // Each piece is pushed a turn later so that even a relay ignoring backpressure leaves timers running.
    const body = new Readable({
      read() {
        setImmediate(() => {
          pulled += piece.byteLength;
          this.push(piece);
        });
      },
    });
    next = { body, limits: limits() };
    const req = request(url, { agent: false });
    req.on('error', () => undefined);
    req.end();
    const [res] = (await once(req, 'response')) as [IncomingMessage];
    res.on('error', () => undefined);
    res.pause();

    // Act: wait until pulling stops (no change for half a second), or until an unbounded relay has pulled
    // more than any socket buffers hold; how long the buffers take to fill on a loaded machine is not the point.
    const bound = 32 * 1024 * 1024;
    let seen = -1;
    let unchangedSince = Date.now();
    while (pulled < bound && Date.now() - unchangedSince < 500) {
      await sleep(50);
      if (pulled !== seen) {
        seen = pulled;
        unchangedSince = Date.now();
      }
    }
    const pulledWhileStalled = pulled;
    req.destroy();

    // Assess: only socket buffers' worth was pulled, then pulling stopped.
    assert.ok(pulledWhileStalled < bound, `pulled ${pulledWhileStalled} B from a stalled client`);
    assert.equal(await outcome, 'client_gone');
    body.destroy();
  });
});
