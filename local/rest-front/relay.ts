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
    // One timer for the whole stream, pushed back on every chunk (`refresh()` reuses it: no per-chunk timer).
    const idleTimer = setTimeout(() => abort('idle_timeout'), limits.idleTimeoutMs);
    const armIdle = (): void => {
      idleTimer.refresh();
    };
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
    // Chunks read in the same event-loop turn leave in one socket write (cork until `setImmediate`, which
    // runs right after this turn's I/O callbacks): fewer syscalls, and no timer-based delay.
    let corked = false;
    const uncork = (): void => {
      corked = false;
      res.uncork();
    };
    const onData = (chunk: Buffer): void => {
      armIdle();
      if (!corked) {
        corked = true;
        res.cork();
        setImmediate(uncork);
      }
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
      // Flush a pending cork first: on Node 22, end() while corked can drop the corked chunks.
      if (corked) uncork();
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
