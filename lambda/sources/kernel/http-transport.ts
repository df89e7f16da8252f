/**
 * One provider HTTP exchange on the platform `fetch`, with a bounded body: `redirect: 'manual'` (a
 * redirect is never followed, to any origin), the read's `AbortSignal` (an abort tears the request down,
 * so the provider sees the connection close), and the body read chunk by chunk up to a byte cap.
 */
import { ProviderError } from './errors.js';

/** Largest provider response body accepted by default (bytes). */
export const DEFAULT_MAX_BODY_BYTES = 8 * 1024 * 1024;

/** A request. */
export interface HttpExchange {
  readonly url: URL;
  readonly method?: 'GET' | 'POST';
  readonly headers?: Readonly<Record<string, string>>;
  readonly body?: string;
  readonly signal: AbortSignal;
  /** @default DEFAULT_MAX_BODY_BYTES */
  readonly maxBodyBytes?: number;
}

/** A complete response; header names are lower-case. */
export interface HttpResult {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: Buffer;
}

/** A failure below HTTP (refused, reset, DNS); `code` is the system error code, never a message. */
export class TransportError extends Error {
  override readonly name = 'TransportError';
  readonly code: string;

  constructor(code: string) {
    super(`provider connection failed (${code})`);
    this.code = code;
  }
}

/** The system error code behind a failed fetch (undici puts it on `cause`, sometimes one level deeper). */
function codeOf(error: unknown): string {
  let current: unknown = error;
  for (let depth = 0; depth < 3 && current !== undefined && current !== null; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    current = (current as { cause?: unknown }).cause;
  }
  return 'EUNKNOWN';
}

/**
 * Sends `exchange` and reads the whole body, at most `maxBodyBytes` (beyond it: `source_unavailable`,
 * `body_too_large`). An abort rejects with the signal's reason.
 */
export async function sendHttp(exchange: HttpExchange): Promise<HttpResult> {
  const { signal } = exchange;
  const limit = exchange.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  let response: Response;
  try {
    response = await fetch(exchange.url, {
      method: exchange.method ?? 'GET',
      headers: { ...exchange.headers },
      ...(exchange.body === undefined ? {} : { body: exchange.body }),
      redirect: 'manual',
      signal,
    });
  } catch (error) {
    if (signal.aborted) throw signal.reason as Error;
    throw new TransportError(codeOf(error));
  }
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => (headers[name] = value));
  try {
    return { status: response.status, headers, body: await readBounded(response, limit) };
  } catch (error) {
    if (signal.aborted) throw signal.reason as Error;
    if (error instanceof ProviderError) throw error;
    throw new TransportError(codeOf(error));
  }
}

async function readBounded(response: Response, limit: number): Promise<Buffer> {
  const declared = Number(response.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > limit) {
    await response.body?.cancel().catch(() => undefined);
    throw new ProviderError('source_unavailable', 'body_too_large');
  }
  if (response.body === null) return Buffer.alloc(0);
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => undefined);
      throw new ProviderError('source_unavailable', 'body_too_large');
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks, size);
}
