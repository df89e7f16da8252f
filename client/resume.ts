/**
 * Resuming a broken event stream (MCP Streamable HTTP resumability): after a disconnect, GET the endpoint with
 * `Last-Event-ID` set to the last event id received, and the server replays only the later events of that
 * stream. Only streams whose events carry ids can be resumed: session-ful MCP streams of resumable tools. A
 * `bos/source-results/v1` stream carries none ("Disconnect cancels outstanding work"), so it ends unconfirmed
 * as before, and a 2026-07-28 stream has no resumption at all.
 */
import { mediaTypeOf } from './media-type.js';

/** Told before each reconnection. */
export interface ResumeAttempt {
  /** The id the replay starts after. */
  lastEventId: string;
  /** 1 for the first reconnection since events last arrived, then 2, 3, … */
  attempt: number;
  /** How long the client waited before this reconnection. */
  delayMs: number;
}

/** How a consumer reconnects, and how often it tries. */
export interface ResumeOptions {
  /** Sends the GET with `Last-Event-ID` and answers its response (the caller adds session and auth headers). */
  reconnect(lastEventId: string): Promise<Response>;
  /** Reconnections in a row that bring no new event before the consumer gives up. @default 3 */
  maxAttempts?: number;
  /** Wait before the first reconnection. @default the server's `retry:` field, else 500 */
  initialDelayMs?: number;
  /** The wait doubles with each attempt in a row, up to this. @default 5000 */
  maxDelayMs?: number;
  /** Stops resuming (the caller aborted the call). */
  signal?: AbortSignal;
  onResume?: (attempt: ResumeAttempt) => void;
}

/** The body of a reconnection, `undefined` to try again later, or `gone` when the server says the stream is unknown. */
export type Reconnected = ReadableStream<Uint8Array> | undefined | 'gone';

/** Waits `ms`, or less when `signal` aborts. */
export function pause(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
  });
}

/**
 * One reconnection. A 404 means the server no longer knows the stream (expired, or never stored): resuming
 * cannot succeed. Any other failure (network, 5xx, a 429 of the rate limit) may pass: the caller tries again.
 */
export async function reconnect(options: ResumeOptions, lastEventId: string): Promise<Reconnected> {
  let response: Response;
  try {
    response = await options.reconnect(lastEventId);
  } catch {
    return undefined;
  }
  if (response.status === 404) {
    await response.body?.cancel().catch(() => undefined);
    return 'gone';
  }
  if (!response.ok || mediaTypeOf(response.headers.get('content-type')) !== 'text/event-stream') {
    await response.body?.cancel().catch(() => undefined);
    return undefined;
  }
  return response.body ?? undefined;
}

/** The wait before attempt `attempt` (1-based) in a row. */
export function resumeDelay(
  options: ResumeOptions,
  attempt: number,
  serverRetryMs: number | undefined,
): number {
  const initial = options.initialDelayMs ?? serverRetryMs ?? 500;
  return Math.min(options.maxDelayMs ?? 5000, initial * 2 ** (attempt - 1));
}
