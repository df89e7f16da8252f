/**
 * One provider page request with the kernel's policy: URL safety, the deadline on the in-flight request,
 * `429` waits that fit the budget, at most one jittered retry for a 5xx or a connection reset, the status
 * mapping, and a bounded JSON body. Everything that fails becomes a {@link ProviderError}.
 */
import type { SourceRef } from '../../federation/index.js';
import type { ReadBudget } from './budget.js';
import { ProviderError } from './errors.js';
import { DEFAULT_MAX_BODY_BYTES, sendHttp, TransportError } from './http-transport.js';
import type { HttpResult } from './http-transport.js';
import { rateLimitWaitMs } from './rate-limit.js';
import type { ProviderSettings } from './settings.js';
import { codeForHttpStatus, isRetryableStatus, isRetryableTransport } from './status-map.js';
import { assertProviderUrl } from './url-policy.js';

/** A parsed JSON page with what paging needs from its response. */
export interface JsonPage {
  readonly url: URL;
  readonly status: number;
  readonly headers: HttpResult['headers'];
  readonly json: unknown;
}

/** Sends provider requests for one read of one source. */
export class ProviderHttp {
  readonly #source: SourceRef;
  readonly #budget: ReadBudget;
  readonly #settings: ProviderSettings;

  constructor(source: SourceRef, budget: ReadBudget, settings: ProviderSettings = {}) {
    this.#source = source;
    this.#budget = budget;
    this.#settings = settings;
  }

  get budget(): ReadBudget {
    return this.#budget;
  }

  /** GETs `url` and parses its JSON body, applying the kernel's policy (see the module comment). */
  async getJson(
    url: URL,
    headers: Readonly<Record<string, string>>,
    signal?: AbortSignal,
  ): Promise<JsonPage> {
    const result = await this.send(url, headers, { ...(signal === undefined ? {} : { signal }) });
    try {
      return {
        url,
        status: result.status,
        headers: result.headers,
        json: JSON.parse(result.body.toString('utf8')),
      };
    } catch {
      throw this.#failed(new ProviderError('source_unavailable', 'invalid_json'));
    }
  }

  /**
   * Sends one request until it succeeds (2xx) or fails for good; returns the raw response. `init.signal`
   * closes it early (the page loop's prefetch), beside the read's signal and deadline.
   */
  async send(
    url: URL,
    headers: Readonly<Record<string, string>>,
    init: {
      method?: 'GET' | 'POST';
      body?: string;
      signal?: AbortSignal;
      /** Statuses answered to the caller instead of failing (a SCIM filter refusal is read, not fatal). */
      passStatus?: readonly number[];
    } = {},
  ): Promise<HttpResult> {
    const settings = this.#settings;
    assertProviderUrl(url, settings.allowLoopbackHttp ?? false);
    let retried = false;
    let rateWaits = 0;
    for (;;) {
      const signal = this.#budget.requestSignal(init.signal);
      let result: HttpResult;
      try {
        result = await sendHttp({
          url,
          headers,
          signal,
          maxBodyBytes: settings.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES,
          ...(init.method === undefined ? {} : { method: init.method }),
          ...(init.body === undefined ? {} : { body: init.body }),
        });
      } catch (error) {
        const aborted = this.#budget.abortOutcome(init.signal);
        if (aborted !== undefined) throw aborted instanceof ProviderError ? this.#failed(aborted) : aborted;
        if (error instanceof ProviderError) throw this.#failed(error);
        const code = error instanceof TransportError ? error.code : 'EUNKNOWN';
        if (!retried && isRetryableTransport(code) && (await this.#retryWait('connection_reset'))) {
          retried = true;
          continue;
        }
        throw this.#failed(
          new ProviderError(
            'source_unavailable',
            code === 'ECONNREFUSED' ? 'connection_refused' : 'connection_failed',
          ),
        );
      }
      const { status } = result;
      if ((status >= 200 && status < 300) || init.passStatus?.includes(status) === true) return result;
      if (status === 429) {
        const wait = rateLimitWaitMs(result.headers) ?? settings.defaultRateLimitWaitMs ?? 1000;
        if (rateWaits < (settings.maxRateLimitWaits ?? 3) && this.#budget.fits(wait)) {
          rateWaits++;
          this.#log({ event: 'provider_rate_limit_wait', status, wait_ms: wait });
          await this.#budget.sleep(wait);
          continue;
        }
        throw this.#failed(new ProviderError('rate_limited', 'rate_limit_beyond_budget', status));
      }
      // A 503 may say when to come back (Graph sends Retry-After with it): the one retry waits that long when it fits.
      const asked = status === 503 ? rateLimitWaitMs(result.headers) : undefined;
      if (!retried && isRetryableStatus(status) && (await this.#retryWait('server_error', status, asked))) {
        retried = true;
        continue;
      }
      if (status >= 300 && status < 400)
        throw this.#failed(new ProviderError('source_unavailable', 'redirect', status));
      const code = codeForHttpStatus(status);
      throw this.#failed(
        new ProviderError(
          code,
          code === 'provider_authorization_required' ? 'authorization' : 'http_status',
          status,
        ),
      );
    }
  }

  /**
   * Sleeps a jittered moment (or the provider's `Retry-After`, when it asks for longer) before the one retry;
   * false when that would not fit the budget.
   */
  async #retryWait(
    reason: 'server_error' | 'connection_reset',
    status?: number,
    askedMs?: number,
  ): Promise<boolean> {
    const [low, high] = this.#settings.retryJitterMs ?? [50, 250];
    const jittered = Math.round(low + (this.#settings.random ?? Math.random)() * (high - low));
    const wait = Math.max(jittered, askedMs ?? 0);
    if (!this.#budget.fits(wait, 100)) return false;
    this.#log({
      event: 'provider_retry',
      reason,
      wait_ms: wait,
      ...(status === undefined ? {} : { status }),
    });
    await this.#budget.sleep(wait);
    return true;
  }

  /** Logs a failure an adapter found in a response (code, reason, status: all ours); returns it for throwing. */
  failed(error: ProviderError): ProviderError {
    return this.#failed(error);
  }

  /** Logs a failure (code, reason, status: all ours) and returns it for throwing. */
  #failed(error: ProviderError): ProviderError {
    this.#log({
      event: 'provider_failed',
      code: error.code,
      reason: error.reason,
      ...(error.status === undefined ? {} : { status: error.status }),
    });
    return error;
  }

  #log(entry: Omit<Parameters<NonNullable<ProviderSettings['log']>>[0], 'source'>): void {
    this.#settings.log?.({ source: this.#source, ...entry });
  }
}
