/**
 * Streams the function's payload to the client the way API Gateway's STREAM mode does: chunk by chunk as it
 * arrives, no buffering, with backpressure both ways, an idle timeout between chunks, a total duration
 * limit (response-transfer-mode: 15 minutes; idle 5 minutes on Regional endpoints), Lambda's largest streamed
 * response and, optionally, the bandwidth cap past the first megabytes (docs/aws.md "AWS facts and the local front").
 */
import type { ServerResponse } from 'node:http';
import type { Readable } from 'node:stream';

/** How a relayed stream ended for the client. */
export type RelayOutcome =
  | 'completed'
  | 'function_failed'
  | 'client_gone'
  | 'idle_timeout'
  | 'duration_exceeded'
  | 'response_too_large';

/**
 * What happens to the function's response stream once the client side is over early (the client went away,
 * or a limit cut it). `keep-running` is AWS's behaviour: Lambda does not interrupt a streamed response when
 * its caller's connection breaks, so the function sees nothing and its further writes are read and discarded.
 * `close-stream` is the emulator mode that closes the function's stream (the function sees `close`).
 */
export type ClientLossMode = 'keep-running' | 'close-stream';

/** Bandwidth cap: the first `burstBytes` go at full speed, the rest at `bytesPerSecond`. */
export interface StreamShaping {
  burstBytes: number;
  bytesPerSecond: number;
}

/** Limits of one relayed stream. */
export interface RelayLimits {
  /** Longest silence between two chunks before the connection is cut. */
  idleTimeoutMs: number;
  /** `Date.now()` value at which the stream is cut whatever happens. */
  deadline: number;
  /** @default 'keep-running' */
  onClientLoss?: ClientLossMode;
  /** Payload bytes after which the client connection is cut (Lambda: 200 MB). @default unlimited */
  maxResponseBytes?: number;
  /** @default no cap */
  shaping?: StreamShaping;
}

/**
 * How long to hold the next chunk so that the `sentBytes` already sent respect `shaping` after
 * `elapsedMs` of streaming: 0 within the burst, then whatever keeps the bytes past it at `bytesPerSecond`.
 */
export function shapedDelayMs(sentBytes: number, elapsedMs: number, shaping: StreamShaping): number {
  if (shaping.bytesPerSecond <= 0 || sentBytes <= shaping.burstBytes) return 0;
  const dueMs = ((sentBytes - shaping.burstBytes) / shaping.bytesPerSecond) * 1000;
  return Math.max(0, Math.ceil(dueMs - elapsedMs));
}

/** Resolves once the function's stream is over: `ended` normally, `failed` with an error or cut. */
export function functionSettled(body: Readable): Promise<'ended' | 'failed'> {
  if (body.readableEnded) return Promise.resolve('ended');
  if (body.errored !== null || body.destroyed) return Promise.resolve('failed');
  return new Promise((resolve) => {
    body.once('end', () => resolve('ended'));
    body.once('close', () => resolve(body.readableEnded ? 'ended' : 'failed'));
  });
}

/**
 * Pipes `body` into `res`. A function failure or a limit cuts the client connection (the client sees a
 * truncated chunked body, as behind API Gateway). When the client side ends early, the function's stream is
 * drained and discarded (`keep-running`) or closed (`close-stream`), see {@link ClientLossMode}.
 */
export function relayPayload(
  body: Readable,
  res: ServerResponse,
  limits: RelayLimits,
): Promise<RelayOutcome> {
  const mode = limits.onClientLoss ?? 'keep-running';
  const maxBytes = limits.maxResponseBytes ?? Number.POSITIVE_INFINITY;
  return new Promise<RelayOutcome>((resolve) => {
    let settled = false;
    const startedAt = Date.now();
    let sentBytes = 0;
    let shapingTimer: NodeJS.Timeout | undefined;
    /** While shaping holds the body, a `drain` must not resume it early. */
    let heldUntil = 0;
    const totalTimer = setTimeout(
      () => abort('duration_exceeded'),
      Math.max(0, limits.deadline - Date.now()),
    );
    // The idle limit is checked lazily: a chunk only records the time, and one timer, when it fires, either
    // cuts the stream or re-arms itself for the silence still allowed. No timer work per chunk.
    let lastChunkAt = Date.now();
    const checkIdle = (): void => {
      const left = lastChunkAt + limits.idleTimeoutMs - Date.now();
      if (left <= 0) abort('idle_timeout');
      else idleTimer = setTimeout(checkIdle, left);
    };
    let idleTimer = setTimeout(checkIdle, limits.idleTimeoutMs);
    const settle = (outcome: RelayOutcome): void => {
      if (settled) return;
      settled = true;
      clearTimeout(idleTimer);
      clearTimeout(totalTimer);
      clearTimeout(shapingTimer);
      body.off('data', onData);
      res.off('drain', onDrain);
      resolve(outcome);
    };
    const releaseFunction = (): void => {
      if (mode === 'close-stream') {
        body.destroy();
        return;
      }
      // As on Lambda, the function goes on unaware: what it still writes is read and dropped.
      body.on('data', () => undefined);
      body.resume();
    };
    const abort = (outcome: RelayOutcome): void => {
      if (settled) return;
      settle(outcome);
      res.destroy();
      releaseFunction();
    };
    // No cork of our own: the Runtime API body already hands over what one event-loop turn brought as one
    // chunk, and `res.write()` corks the socket until the next tick, so writes of one tick share a syscall.
    const onData = (chunk: Buffer): void => {
      lastChunkAt = Date.now();
      if (sentBytes + chunk.byteLength > maxBytes) {
        abort('response_too_large');
        return;
      }
      sentBytes += chunk.byteLength;
      // The next chunk waits until the bytes sent so far are due at the capped rate.
      const delay =
        limits.shaping === undefined ? 0 : shapedDelayMs(sentBytes, Date.now() - startedAt, limits.shaping);
      const flowing = res.write(chunk);
      if (delay > 0) {
        body.pause();
        heldUntil = Date.now() + delay;
        shapingTimer = setTimeout(() => {
          if (!settled && !res.writableNeedDrain) body.resume();
        }, delay);
      } else if (!flowing) body.pause();
    };
    const onDrain = (): void => {
      if (Date.now() >= heldUntil) body.resume();
    };
    body.on('data', onData);
    res.on('drain', onDrain);
    body.once('end', () => {
      if (settled) return;
      settle('completed');
      res.end();
    });
    body.once('error', () => {
      if (settled) return;
      settle('function_failed');
      // Bytes are already out: the only honest signal left is to break the connection.
      res.destroy();
    });
    res.once('close', () => {
      if (!res.writableFinished) abort('client_gone');
    });
    if (body.errored !== null || body.destroyed) {
      settle('function_failed');
      res.destroy();
      return;
    }
    body.resume();
  });
}
