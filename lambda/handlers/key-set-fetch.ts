/**
 * The fetch the token verifier reads the issuer's key set with (`KeySetFetch`, jose's `customFetch`), on
 * the provider kernel's one bounded-body HTTP exchange (`sendHttp`): `redirect: 'manual'`, jose's timeout
 * signal, and a body read that stops at {@link MAX_JWKS_BYTES}. A key set is a few KB; an issuer that
 * answers with megabytes must not fill the function's memory, so a larger body fails like an unreachable
 * issuer (the call answers 503).
 */
import type { KeySetFetch } from '../bos/index.js';
import { sendHttp } from '../sources/index.js';

/** Largest JWKS body accepted (bytes). */
export const MAX_JWKS_BYTES = 256 * 1024;

/** Statuses whose `Response` may carry no body (the Fetch standard's null body statuses). */
const NULL_BODY = new Set([101, 103, 204, 205, 304]);

/** A {@link KeySetFetch} reading at most `maxBodyBytes` of the issuer's answer. */
export function boundedKeySetFetch(maxBodyBytes = MAX_JWKS_BYTES): KeySetFetch {
  return async (url, init) => {
    const headers: Record<string, string> = {};
    new Headers(init.headers).forEach((value, name) => (headers[name] = value));
    const result = await sendHttp({
      url: new URL(url),
      headers,
      // jose always passes its timeout signal; a caller that passes none gets one that never fires.
      signal: init.signal ?? new AbortController().signal,
      maxBodyBytes,
    });
    return new Response(NULL_BODY.has(result.status) ? null : Uint8Array.from(result.body), {
      status: result.status,
      headers: result.headers,
    });
  };
}
