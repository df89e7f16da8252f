/**
 * A client that stops reading: a response write that makes no progress for the stall time aborts the
 * invocation's work (the producer is cancelled, `onAbort` fires with the reason) and ends the response,
 * logged with the reason. A client that reads slowly, and a producer that is merely slow, are not stalls.
 */
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { describe, it } from 'node:test';
import { toStreamingResult } from '../../../../lambda/aws/index.js';
import type { Logger } from '../../../../lambda/mcp/index.js';

function recordingLogger(
  lines: { level: string; message: string; fields?: Record<string, unknown> }[],
): Logger {
  const at =
    (level: string) =>
    (message: string, fields?: Record<string, unknown>): void =>
      void lines.push({ level, message, ...(fields && { fields }) });
  return { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
}

/** An endless SSE body; records when it is cancelled. */
function endlessSse(state: { cancelled: unknown }): Response {
  const chunk = new TextEncoder().encode(`data: ${'x'.repeat(16 * 1024)}\n\n`);
  const body = new ReadableStream<Uint8Array>({
    pull: (controller) => controller.enqueue(chunk),
    cancel: (reason) => {
      state.cancelled = reason;
    },
  });
  return new Response(body, { headers: { 'content-type': 'text/event-stream' } });
}

/** A client connection that accepts `budget` bytes, then never reads again (callbacks withheld). */
function stalledClient(budget: number): Writable {
  let taken = 0;
  return new Writable({
    highWaterMark: 16 * 1024,
    write(chunk: Buffer, _encoding, callback) {
      taken += chunk.byteLength;
      if (taken <= budget) callback();
    },
  });
}

describe('a client that stops reading', { timeout: 10_000 }, () => {
  it('aborts the work and ends the response after the stall time, logging why', async () => {
    // Prepare
    const state = { cancelled: undefined as unknown };
    const lines: { level: string; message: string; fields?: Record<string, unknown> }[] = [];
    let aborted: unknown;
    const result = toStreamingResult(endlessSse(state), {
      onAbort: (reason) => (aborted = reason),
      logger: recordingLogger(lines),
      stallMs: 300,
    });
    // Act
    const startedAt = Date.now();
    await assert.rejects(pipeline(result.body, stalledClient(200 * 1024)));
    // Assess
    const elapsed = Date.now() - startedAt;
    assert.ok(elapsed >= 300 && elapsed < 5000, `ended after ${elapsed} ms`);
    assert.equal((aborted as { code?: string } | undefined)?.code, 'client_stalled');
    assert.equal((state.cancelled as { code?: string } | undefined)?.code, 'client_stalled');
    const line = lines.find((entry) => entry.message.includes('stopped reading'));
    assert.ok(line, JSON.stringify(lines));
    assert.equal(line.fields?.stallMs, 300);
  });

  it('leaves a slow producer alone: waiting for the next event is not a stall', async () => {
    // Prepare: one event, a pause five times the stall time, then the end.
    const body = new ReadableStream<Uint8Array>({
      async start(controller) {
        controller.enqueue(new TextEncoder().encode('data: 1\n\n'));
        await new Promise((resolve) => setTimeout(resolve, 500));
        controller.enqueue(new TextEncoder().encode('data: 2\n\n'));
        controller.close();
      },
    });
    let aborted: unknown;
    const result = toStreamingResult(
      new Response(body, { headers: { 'content-type': 'text/event-stream' } }),
      { onAbort: (reason) => (aborted = reason), stallMs: 100 },
    );
    const received: Buffer[] = [];
    // Act
    await pipeline(
      result.body,
      new Writable({
        write(chunk: Buffer, _encoding, callback) {
          received.push(Buffer.from(chunk));
          callback();
        },
      }),
    );
    // Assess
    assert.equal(aborted, undefined);
    assert.equal(Buffer.concat(received).toString(), 'data: 1\n\ndata: 2\n\n');
  });

  it('leaves a client that reads slowly but steadily alone', async () => {
    // Prepare: 256 KiB read in 8 KiB steps of 40 ms (about 1.3 s in all), with a stall time of 1 s: the whole
    // read outlasts the stall time, each step stays far inside it even on a loaded machine.
    const text = 'y'.repeat(256 * 1024);
    const piece = new TextEncoder().encode(text.slice(0, 8 * 1024));
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent === text.length) return controller.close();
        sent += piece.byteLength;
        controller.enqueue(piece);
      },
    });
    let aborted: unknown;
    const result = toStreamingResult(
      new Response(body, { headers: { 'content-type': 'application/json' } }),
      {
        onAbort: (reason) => (aborted = reason),
        stallMs: 1000,
      },
    );
    let bytes = 0;
    // Act
    await pipeline(
      result.body,
      new Writable({
        highWaterMark: 8 * 1024,
        write(chunk: Buffer, _encoding, callback) {
          bytes += chunk.byteLength;
          setTimeout(callback, 40);
        },
      }),
    );
    // Assess
    assert.equal(aborted, undefined);
    assert.equal(bytes, text.length);
  });
});
