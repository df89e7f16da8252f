/**
 * Streams the function's payload to the client the way API Gateway's STREAM mode does: chunk by chunk as it
 * arrives, no buffering, with backpressure both ways, an idle timeout between chunks and a total duration
 * limit (response-transfer-mode: 15 minutes; idle 5 minutes on Regional endpoints).
 */
import type { ServerResponse } from 'node:http';
import type { Readable } from 'node:stream';

/** How a relayed stream ended. */
export type RelayOutcome =
  'completed' | 'function_failed' | 'client_gone' | 'idle_timeout' | 'duration_exceeded';

/** Limits of one relayed stream. */
export interface RelayLimits {
  /** Longest silence between two chunks before the connection is cut. */
  idleTimeoutMs: number;
  /** `Date.now()` value at which the stream is cut whatever happens. */
  deadline: number;
}

/**
 * Pipes `body` into `res`. A function failure or a limit aborts the client connection (the client sees a
 * truncated chunked body, as behind API Gateway); a client that goes away closes `body`, which closes the
 * function's response stream.
 */
export function relayPayload(
  body: Readable,
  res: ServerResponse,
  limits: RelayLimits,
): Promise<RelayOutcome> {
  return new Promise<RelayOutcome>((resolve) => {
    let settled = false;
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
      body.off('data', onData);
      res.off('drain', onDrain);
      resolve(outcome);
    };
    const abort = (outcome: RelayOutcome): void => {
      if (settled) return;
      settle(outcome);
      res.destroy();
      body.destroy();
    };
    // No cork of our own: the Runtime API body already hands over what one event-loop turn brought as one
    // chunk, and `res.write()` corks the socket until the next tick, so writes of one tick share a syscall.
    const onData = (chunk: Buffer): void => {
      lastChunkAt = Date.now();
      if (!res.write(chunk)) body.pause();
    };
    const onDrain = (): void => {
      body.resume();
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
