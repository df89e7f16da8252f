/**
 * Integrity, binding and single use of 2026-07-28 `requestState` (mcp-2026-notes §1.6: attacker-
 * controlled; MUST be integrity-protected when it drives logic; SHOULD bind principal, expiry and a
 * digest of the originating request; single use MUST be enforced server-side).
 *
 * The wire carries the handler's own string unchanged (fixture result-type-input-required.json pins
 * `"requestState": "confirm-contract"` on the wire and echoes it verbatim on the retry, which no signed
 * envelope could reproduce). Protection therefore lives server-side: issuing records
 * HMAC-SHA256(secret, [principal subject, request digest, state]) in the `RequestStateStore` with an
 * expiry; a retry is accepted only if that exact key is taken from the store — once. A tampered state, a
 * different principal or request, a replay or an expired state all miss and are refused with -32602.
 */
import { createHash, createHmac, randomBytes } from 'node:crypto';
import { JsonRpcCode } from '../errors.js';
import { isObject } from '../json/json-rpc.js';
import type { JsonValue, RequestStateStore } from '../types/index.js';
import { StatelessRequestError } from './errors.js';

/** The message every refused `requestState` gets (tampered, foreign, replayed or expired alike). */
export const refusedStateMessage = 'Invalid params: requestState is invalid, expired or already used';

/** What a state is bound to, besides itself. */
export interface StateBinding {
  /** Principal subject, or '' when the request is unauthenticated. */
  subject: string;
  /** `requestDigest` of the originating request. */
  digest: string;
}

/** JSON with object keys sorted, so equal values always hash alike. */
function canonical(value: JsonValue | undefined): string {
  if (value === undefined) return 'null';
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (isObject(value)) {
    const keys = Object.keys(value).sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonical(value[k])}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/**
 * SHA-256 over method, target (tool/prompt name or resource uri) and arguments — never
 * `inputResponses`, `requestState` or `_meta`, which legitimately differ between rounds.
 */
export function requestDigest(method: string, target: string, args: JsonValue | undefined): string {
  return createHash('sha256')
    .update(canonical([method, target, args ?? null]))
    .digest('base64url');
}

/** Options of `RequestStateGuard`. */
export interface RequestStateGuardOptions {
  store: RequestStateStore;
  /** HMAC key; 32 random bytes when absent. */
  secret: string | undefined;
  ttlMs: number;
  clock: () => number;
}

/** Issues and redeems bound, single-use `requestState` values. */
export class RequestStateGuard {
  readonly #store: RequestStateStore;
  readonly #secret: Buffer;
  readonly #ttlMs: number;
  readonly #clock: () => number;

  constructor(options: RequestStateGuardOptions) {
    this.#store = options.store;
    // A per-process random secret keeps states valid only where they were issued (documented).
    this.#secret =
      options.secret === undefined || options.secret === ''
        ? randomBytes(32)
        : Buffer.from(options.secret, 'utf8');
    this.#ttlMs = options.ttlMs;
    this.#clock = options.clock;
  }

  #key(binding: StateBinding, state: string): string {
    return createHmac('sha256', this.#secret)
      .update(JSON.stringify([binding.subject, binding.digest, state]))
      .digest('base64url');
  }

  /** Records a state a handler is about to return. */
  async issue(binding: StateBinding, state: string): Promise<void> {
    await this.#store.put(this.#key(binding, state), this.#clock() + this.#ttlMs);
  }

  /** Redeems a state a retry echoed; throws -32602 (HTTP 400) unless it was issued for this binding and is unused. */
  async redeem(binding: StateBinding, state: string): Promise<void> {
    const ok = await this.#store.take(this.#key(binding, state), this.#clock());
    if (!ok) throw new StatelessRequestError(JsonRpcCode.InvalidParams, refusedStateMessage);
  }
}
