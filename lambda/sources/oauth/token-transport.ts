/**
 * The token request, sent by the provider kernel's one HTTP path (`kernel/http-transport.ts`), which gives
 * it what a credential-carrying request needs: no redirect followed (`redirect: 'manual'`, a 3xx is refused
 * by the caller), the caller's `AbortSignal`, and a body read that stops at a byte limit instead of
 * buffering whatever the server sends.
 */
import { isProviderError } from '../kernel/errors.js';
import { sendHttp, TransportError } from '../kernel/http-transport.js';

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

/** POSTs `exchange` with the kernel's `sendHttp`. */
export const fetchTokenTransport: TokenTransport = async (exchange) => {
  try {
    const { status, body } = await sendHttp({ ...exchange, method: 'POST' });
    // TextDecoder, as a JSON response is read: UTF-8, a leading byte order mark dropped.
    return { status, body: new TextDecoder().decode(body) };
  } catch (error) {
    if (exchange.signal.aborted) throw exchange.signal.reason;
    if (error instanceof TransportError) throw new TokenTransportError(error.code);
    if (isProviderError(error) && error.reason === 'body_too_large')
      throw new TokenBodyTooLargeError(`token response over ${exchange.maxBodyBytes} bytes`);
    throw error;
  }
};
