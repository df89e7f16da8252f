/**
 * The client-credentials broker of one source: it asks the token endpoint for an access token, keeps it
 * until shortly before it expires, and lets concurrent reads share one request. A read that gives up (its
 * deadline, a client disconnect) stops waiting at once; the request itself is aborted only when no read is
 * waiting for it any more.
 */
import { decodeJwt } from 'jose';
import type { JWTPayload } from 'jose';
import { ProviderError, resolveCredential } from '../kernel/index.js';
import type { ProviderCredential } from '../registry/types.js';
import { authenticateClient, ClientCredentialError } from './client-auth.js';
import type { BrokerOptions, ClientCredentialsOptions } from './options.js';
import { requestToken } from './token-endpoint.js';
import { fetchTokenTransport } from './token-transport.js';
import type { TokenTransport } from './token-transport.js';

/** A token the broker holds. `claims` are read, not verified: the API that receives the token verifies it. */
export interface BrokerToken {
  readonly accessToken: string;
  /** Epoch ms at which the issuer says the token expires. */
  readonly expiresAt: number;
  /** The token's payload when it is a JWT (e.g. Entra's `tid`), else undefined. */
  readonly claims: JWTPayload | undefined;
}

/** Lifetime assumed when the endpoint states none and the token is opaque (RFC 6749 leaves it optional). */
const DEFAULT_LIFETIME_MS = 300_000;

interface Refresh {
  readonly promise: Promise<BrokerToken>;
  readonly controller: AbortController;
  waiters: number;
}

/** Tokens for one source. Create one per source adapter; it is safe to share across concurrent reads. */
export class ClientCredentialsBroker {
  readonly #options: ClientCredentialsOptions;
  readonly #credential: ProviderCredential | undefined;
  readonly #clock: () => number;
  readonly #transport: TokenTransport;
  readonly #allowLoopbackHttp: boolean;
  readonly #timeoutMs: number;
  readonly #maxBytes: number;
  #cached: { token: BrokerToken; refreshAt: number } | undefined;
  #refresh: Refresh | undefined;
  /** How many token requests were sent (for tests and metrics; never the token). */
  requests = 0;

  constructor(
    options: ClientCredentialsOptions,
    credential: ProviderCredential | undefined,
    brokerOptions: BrokerOptions = {},
  ) {
    this.#options = options;
    this.#credential = credential;
    this.#clock = brokerOptions.clock ?? Date.now;
    this.#transport = brokerOptions.transport ?? fetchTokenTransport;
    this.#allowLoopbackHttp = brokerOptions.allowLoopbackHttp ?? false;
    this.#timeoutMs = brokerOptions.requestTimeoutMs ?? 10_000;
    this.#maxBytes = brokerOptions.maxResponseBytes ?? 65_536;
  }

  /**
   * A token valid for a while yet: the cached one, or a fresh one. Rejects with a kernel `ProviderError`, or
   * with `signal.reason` once `signal` aborts.
   */
  token(signal: AbortSignal): Promise<BrokerToken> {
    if (signal.aborted) return Promise.reject(signal.reason as Error);
    const cached = this.#cached;
    if (cached !== undefined && this.#clock() < cached.refreshAt) return Promise.resolve(cached.token);
    return this.#wait(this.#refresh ?? this.#start(), signal);
  }

  /** Forgets `token` if it is the cached one (the API refused it), so the next read asks for another. */
  invalidate(token: BrokerToken): void {
    if (this.#cached?.token === token) this.#cached = undefined;
  }

  #start(): Refresh {
    const controller = new AbortController();
    const timer = setTimeout(
      () => controller.abort(new ProviderError('source_timeout', 'deadline')),
      this.#timeoutMs,
    );
    const refresh: Refresh = {
      controller,
      waiters: 0,
      promise: this.#fetchToken(controller.signal).finally(() => {
        clearTimeout(timer);
        if (this.#refresh === refresh) this.#refresh = undefined;
      }),
    };
    refresh.promise.catch(() => undefined); // every waiter handles it; none left must not be "unhandled"
    this.#refresh = refresh;
    return refresh;
  }

  #wait(refresh: Refresh, signal: AbortSignal): Promise<BrokerToken> {
    refresh.waiters += 1;
    return new Promise<BrokerToken>((resolve, reject) => {
      const leave = () => {
        signal.removeEventListener('abort', onAbort);
        refresh.waiters -= 1;
      };
      const onAbort = () => {
        leave();
        if (refresh.waiters === 0) {
          // Nobody wants this token any more: stop the request, and let the next caller start afresh.
          if (this.#refresh === refresh) this.#refresh = undefined;
          refresh.controller.abort(signal.reason);
        }
        reject(signal.reason as Error);
      };
      signal.addEventListener('abort', onAbort, { once: true });
      refresh.promise.then(
        (token) => {
          if (signal.aborted) return;
          leave();
          resolve(token);
        },
        (error: unknown) => {
          if (signal.aborted) return;
          leave();
          reject(error instanceof Error ? error : new Error('token request failed'));
        },
      );
    });
  }

  async #fetchToken(signal: AbortSignal): Promise<BrokerToken> {
    const secret = await resolveCredential(this.#credential);
    const sentAt = this.#clock();
    let auth;
    try {
      auth = await authenticateClient(this.#options, secret, sentAt);
    } catch (error) {
      if (!(error instanceof ClientCredentialError)) throw error;
      throw new ProviderError('provider_authorization_required', 'credential_unavailable');
    }
    this.requests += 1;
    // On our own timeout this rejects with the ProviderError the timer aborted with.
    const issued = await requestToken(this.#options, auth, {
      signal,
      transport: this.#transport,
      maxBodyBytes: this.#maxBytes,
      allowLoopbackHttp: this.#allowLoopbackHttp,
    });
    const claims = readClaims(issued.accessToken);
    const lifetime =
      issued.expiresInS !== undefined
        ? issued.expiresInS * 1000
        : typeof claims?.exp === 'number'
          ? claims.exp * 1000 - sentAt
          : DEFAULT_LIFETIME_MS;
    // Counted from when the request was sent, so the time it took never makes us overestimate the life left.
    const expiresAt = sentAt + lifetime;
    const margin = Math.min(60_000, Math.max(5_000, lifetime / 10), lifetime / 2);
    const token: BrokerToken = { accessToken: issued.accessToken, expiresAt, claims };
    this.#cached = { token, refreshAt: expiresAt - margin };
    return token;
  }
}

function readClaims(token: string): JWTPayload | undefined {
  try {
    return decodeJwt(token);
  } catch {
    return undefined; // an opaque token
  }
}
