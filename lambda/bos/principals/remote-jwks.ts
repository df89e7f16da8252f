/**
 * The issuer's remote key set: fetched on first use, cached, re-fetched when too old or when a token names
 * an unknown `kid` (after a cooldown). It follows jose's `createRemoteJWKSet` (jwks/remote.js, v6) rule for
 * rule and raises the same jose errors, so `tokenFailure` maps outages and bad keys exactly as before.
 *
 * Why not jose's own: `createRemoteJWKSet` builds `new Headers(...)` when it is created, and in Node.js the
 * first touch of `Headers` loads undici, ~45 ms of CPU on a Lambda cold start (lambda/mcp/http/http-message.ts).
 * Key selection and import stay jose's (`createLocalJWKSet`).
 */
import { createLocalJWKSet, errors } from 'jose';
import type { FlattenedJWSInput, JWSHeaderParameters } from 'jose';
import { fetchJwks } from './jwks-fetch.js';

/** Bounds of the key set (see `RemoteJwksOptions` in jwt-verifier.ts for the defaults). */
export interface RemoteKeySetOptions {
  timeoutMs: number;
  cooldownMs: number;
  cacheMaxAgeMs: number;
}

/** A `jwtVerify` key resolver that can also be warmed ahead of the first token. */
export interface RemoteKeySet {
  (protectedHeader: JWSHeaderParameters, token: FlattenedJWSInput): Promise<CryptoKey>;
  /** True while the cached keys are younger than `cacheMaxAgeMs`. */
  readonly fresh: boolean;
  /** Fetches the keys now; concurrent callers share one fetch, and a failed fetch is forgotten. */
  reload(): Promise<void>;
}

/** The request headers jose sends for a key set (`accept` as in jwks/remote.js). */
const REQUEST_HEADERS = { accept: 'application/json, application/jwk-set+json' } as const;

type LocalKeySet = ReturnType<typeof createLocalJWKSet>;

function isFreshFor(timestamp: number | undefined, duration: number): boolean {
  return timestamp !== undefined && Date.now() < timestamp + duration;
}

/** GETs the key set; failures become the jose errors `createRemoteJWKSet` raises for them. */
async function download(href: string, timeoutMs: number): Promise<unknown> {
  const signal = AbortSignal.timeout(timeoutMs);
  const response = await fetchJwks(href, { signal, headers: REQUEST_HEADERS }).catch((error: unknown) => {
    throw error instanceof Error && error.name === 'TimeoutError'
      ? new errors.JWKSTimeout(undefined, { cause: error })
      : error;
  });
  if (response.status !== 200)
    throw new errors.JOSEError('Expected 200 OK from the JSON Web Key Set HTTP response');
  try {
    return await response.json();
  } catch (cause) {
    throw signal.aborted
      ? new errors.JWKSTimeout(undefined, { cause })
      : new errors.JOSEError('Failed to parse the JSON Web Key Set HTTP response as JSON', { cause });
  }
}

/** The key set at `url`. Nothing is fetched until the first token or `reload()`. */
export function createRemoteKeySet(url: URL, options: RemoteKeySetOptions): RemoteKeySet {
  const href = url.href;
  let local: LocalKeySet | undefined;
  let fetchedAt: number | undefined;
  let pending: Promise<void> | undefined;
  let started = 0;
  let applied = 0;

  const reload = async (): Promise<void> => {
    if (pending === undefined) {
      const sequence = ++started;
      const current = download(href, options.timeoutMs)
        .then((json) => {
          // Throws JWKSInvalid for a body that is not a key set, failing this fetch like jose does.
          const next = createLocalJWKSet(json as Parameters<typeof createLocalJWKSet>[0]);
          // A slower, older fetch never replaces keys a newer one already installed.
          if (sequence <= applied) return;
          local = next;
          fetchedAt = Date.now();
          applied = sequence;
        })
        .finally(() => {
          if (pending === current) pending = undefined;
        });
      pending = current;
    }
    await pending;
  };

  const getKey = async (
    protectedHeader: JWSHeaderParameters,
    token: FlattenedJWSInput,
  ): Promise<CryptoKey> => {
    if (local === undefined || !isFreshFor(fetchedAt, options.cacheMaxAgeMs)) await reload();
    const keys = local as LocalKeySet;
    try {
      return await keys(protectedHeader, token);
    } catch (error) {
      // An unknown kid may mean the issuer rotated its keys: fetch again, at most once per cooldown.
      if (error instanceof errors.JWKSNoMatchingKey && !isFreshFor(fetchedAt, options.cooldownMs)) {
        await reload();
        return (local as LocalKeySet)(protectedHeader, token);
      }
      throw error;
    }
  };

  return Object.defineProperties(getKey, {
    fresh: { get: () => isFreshFor(fetchedAt, options.cacheMaxAgeMs), enumerable: true },
    reload: { value: reload, enumerable: true },
  }) as RemoteKeySet;
}
