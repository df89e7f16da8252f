/**
 * The fetch jose's `createRemoteJWKSet` uses for the issuer's key set (its documented `customFetch` option):
 * the platform's `fetch`, with the body bounded. A key set is a few KB; an issuer that answers with megabytes
 * must not fill the function's memory, so a larger body fails like an unreachable issuer (503).
 */

/** Largest JWKS body accepted (bytes). */
export const MAX_JWKS_BYTES = 256 * 1024;

/** Raised for a JWKS body over {@link MAX_JWKS_BYTES}. */
export class JwksFetchError extends Error {
  override readonly name = 'JwksFetchError';
  readonly code = 'jwks_too_large';
}

/**
 * `fetch(url, init)` whose response body is read here, up to {@link MAX_JWKS_BYTES}, and handed on whole. jose
 * passes `redirect: "manual"` and its timeout signal, so a redirect stays a non-200 and a slow body still
 * times out.
 */
export async function fetchJwks(url: string, init: RequestInit): Promise<Response> {
  const response = await fetch(url, init);
  const declared = Number(response.headers.get('content-length'));
  if (declared > MAX_JWKS_BYTES) {
    await response.body?.cancel();
    throw tooLarge();
  }
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = response.body?.getReader();
  while (reader !== undefined) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_JWKS_BYTES) {
      await reader.cancel();
      throw tooLarge();
    }
    chunks.push(value);
  }
  return new Response(Buffer.concat(chunks), { status: response.status, headers: response.headers });
}

const tooLarge = () => new JwksFetchError(`JWKS response larger than ${MAX_JWKS_BYTES} bytes`);
