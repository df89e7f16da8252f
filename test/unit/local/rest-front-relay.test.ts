/**
 * The REST front's payload relay (STREAM mode): chunk-by-chunk delivery, the idle and total limits, function
 * failure and client disconnect, and backpressure from a slow client. Real sockets on 127.0.0.1.
 */
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { type IncomingMessage, type Server, type ServerResponse, createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import { type RelayLimits, type RelayOutcome, relayPayload } from '../../../local/rest-front/index.js';

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
    assert.equal(body.destroyed, true);
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
    // Prepare
    const body = manualBody();
    next = { body, limits: limits() };

    // Act
    const fetched = fetchRelayed();
    await trickle(body, 1, 30, false);
    body.destroy(new Error('failed mid-stream'));
    const response = await fetched;

    // Assess
    assert.equal(await outcome, 'function_failed');
    assert.deepEqual(response, { text: 'event 0\n', aborted: true });
  });

  it('destroys the body with client_gone when the client goes away', async () => {
    // Prepare
    const body = manualBody();
    next = { body, limits: limits() };
    const req = request(url, { agent: false });
    req.on('error', () => undefined);
    req.end();
    const [res] = (await once(req, 'response')) as [IncomingMessage];
    res.on('error', () => undefined);
    body.push('event 0\n');
    await once(res, 'data');

    // Act
    req.destroy();

    // Assess
    assert.equal(await outcome, 'client_gone');
    assert.equal(body.destroyed, true);
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
  });
});
