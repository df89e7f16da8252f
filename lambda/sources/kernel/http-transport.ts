/**
 * One provider HTTP exchange on `node:http`/`node:https`, with a bounded body.
 *
 * Why not the global `fetch`: on the Lambda path its first call loads Node's undici (~45 ms of CPU on a
 * cold start, docs/aws.md "No undici on the Lambda path", guarded by `test/integration/lambda-no-undici`).
 * These modules are already loaded by the AWS SDK, take the same `AbortSignal`, and never follow a
 * redirect by themselves, which is what a provider read wants (`redirect: 'manual'` in fetch terms).
 */
import { Agent as HttpAgent, request as httpRequest } from 'node:http';
import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
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

/** A complete response. */
export interface HttpResult {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  readonly body: Buffer;
}

/** A failure below HTTP (refused, reset, DNS); `code` is node's errno code, never a message. */
export class TransportError extends Error {
  override readonly name = 'TransportError';
  readonly code: string;

  constructor(code: string) {
    super(`provider connection failed (${code})`);
    this.code = code;
  }
}

// Keep-alive: consecutive pages of one read reuse a connection. A socket that went stale while the
// execution environment was frozen fails with ECONNRESET, which the kernel's one retry absorbs.
const agents = {
  'http:': new HttpAgent({ keepAlive: true }),
  'https:': new HttpsAgent({ keepAlive: true }),
};

/**
 * Sends `exchange` and reads the whole body, at most `maxBodyBytes` (beyond it: `source_unavailable`,
 * `body_too_large`). An abort rejects with the signal's reason and tears the request down, so the
 * provider sees the connection close.
 */
export function sendHttp(exchange: HttpExchange): Promise<HttpResult> {
  const { url, signal } = exchange;
  const limit = exchange.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  const agent = url.protocol === 'https:' ? agents['https:'] : agents['http:'];
  return new Promise<HttpResult>((resolve, reject) => {
    if (signal.aborted) {
      reject(signal.reason as Error);
      return;
    }
    const fail = (error: unknown) => {
      if (signal.aborted) reject(signal.reason as Error);
      else if (error instanceof ProviderError) reject(error);
      else reject(new TransportError((error as NodeJS.ErrnoException | undefined)?.code ?? 'EUNKNOWN'));
    };
    const request = send(
      url,
      { method: exchange.method ?? 'GET', headers: exchange.headers, signal, agent },
      (response) => {
        void readBounded(response, limit).then(
          (body) => resolve({ status: response.statusCode ?? 0, headers: response.headers, body }),
          (error: unknown) => {
            request.destroy();
            fail(error);
          },
        );
      },
    );
    request.on('error', fail);
    request.end(exchange.body);
  });
}

async function readBounded(response: IncomingMessage, limit: number): Promise<Buffer> {
  const declared = Number(response.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit)
    throw new ProviderError('source_unavailable', 'body_too_large');
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of response as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit) throw new ProviderError('source_unavailable', 'body_too_large');
    chunks.push(chunk);
  }
  return Buffer.concat(chunks, size);
}
