/**
 * The token request on the platform's `fetch`, with what a credential-carrying request needs: no redirect
 * followed (`redirect: 'manual'`, a 3xx is refused by the caller), the caller's `AbortSignal`, and a body
 * read that stops at a byte limit instead of buffering whatever the server sends.
 */

/** One token request. */
export interface TokenExchange {
  readonly url: URL;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
  readonly signal: AbortSignal;
  readonly maxBodyBytes: number;
}

/** Its response: status and the (bounded) body text. */
export interface TokenResponse {
  readonly status: number;
  readonly body: string;
}

/** Sends one exchange; tests wrap it to record what was sent. */
export type TokenTransport = (exchange: TokenExchange) => Promise<TokenResponse>;

/** The response body was over the limit. */
export class TokenBodyTooLargeError extends Error {
  override readonly name = 'TokenBodyTooLargeError';
}

/** A failure below HTTP; `code` is the system error code (e.g. `ECONNREFUSED`), never a message. */
export class TokenTransportError extends Error {
  override readonly name = 'TokenTransportError';
  constructor(readonly code: string) {
    super(`token endpoint connection failed (${code})`);
  }
}

/** POSTs `exchange` with `fetch`. */
export const fetchTokenTransport: TokenTransport = async (exchange) => {
  let response: Response;
  try {
    response = await fetch(exchange.url, {
      method: 'POST',
      headers: exchange.headers,
      body: exchange.body,
      redirect: 'manual',
      signal: exchange.signal,
    });
  } catch (error) {
    if (exchange.signal.aborted) throw exchange.signal.reason;
    const code = (error as { cause?: { code?: unknown } } | undefined)?.cause?.code;
    throw new TokenTransportError(typeof code === 'string' ? code : 'EUNKNOWN');
  }
  return { status: response.status, body: await readBounded(response, exchange.maxBodyBytes) };
};

async function readBounded(response: Response, limit: number): Promise<string> {
  const declared = Number(response.headers.get('content-length'));
  if (response.body === null) return '';
  if (Number.isFinite(declared) && declared > limit) {
    await response.body.cancel().catch(() => undefined);
    throw new TokenBodyTooLargeError(`token response over ${limit} bytes`);
  }
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let size = 0;
  let text = '';
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return text + decoder.decode();
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => undefined);
      throw new TokenBodyTooLargeError(`token response over ${limit} bytes`);
    }
    text += decoder.decode(value, { stream: true });
  }
}
