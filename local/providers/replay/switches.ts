/**
 * What a replay server can be told to do besides answering well: throttle, fail, slow down. Tests flip
 * these on the running server; `npm start` leaves them off.
 */

/**
 * A scripted answer for the next request(s), consumed in order before the standing mode applies:
 * a throttle (without `retryAfterS`, one that names no wait), an outage (503, optionally saying when to
 * come back), a gateway timeout (504), a `200` whose page cannot be read as the vendor's list shape, or
 * `pass`: this request is answered normally (so a later page can be the one that fails).
 */
export type ScriptedFailure =
  | { readonly kind: 'pass' }
  | { readonly kind: 'throttle'; readonly retryAfterS?: number }
  | { readonly kind: 'unavailable'; readonly retryAfterS?: number }
  | { readonly kind: 'gateway_timeout' }
  | { readonly kind: 'unreadable' };

/** The switches of one replay server. */
export interface ReplaySwitches {
  /** Standing mode for every request: answer, throttle always, or an outage (503). */
  mode: 'ok' | 'throttle' | 'unavailable';
  /** Seconds announced with a standing throttle. */
  retryAfterS: number;
  /** One-shot failures, taken from the front before `mode` applies. */
  readonly script: ScriptedFailure[];
  /** Milliseconds before answering any list page. */
  delayMs: number;
  /** Milliseconds before answering every page after the first of a listing. */
  laterPageDelayMs: number;
  /** Serve records that claim another tenant/org (the identity mismatch case). */
  foreignIdentity: boolean;
  /** Put an empty page (still linking to the next) before every later page, as both vendors may. */
  emptyPages: boolean;
  /** When set, every page after the first of a listing waits for it (tests release it). */
  laterPageGate: Promise<void> | undefined;
}

/** Switches at rest. */
export function defaultSwitches(): ReplaySwitches {
  return {
    mode: 'ok',
    retryAfterS: 30,
    script: [],
    delayMs: 0,
    laterPageDelayMs: 0,
    foreignIdentity: false,
    emptyPages: false,
    laterPageGate: undefined,
  };
}

/** The failure to serve now, if any. */
export function nextFailure(
  switches: ReplaySwitches,
): Exclude<ScriptedFailure, { kind: 'pass' }> | undefined {
  const scripted = switches.script.shift();
  if (scripted !== undefined) return scripted.kind === 'pass' ? undefined : scripted;
  if (switches.mode === 'throttle') return { kind: 'throttle', retryAfterS: switches.retryAfterS };
  if (switches.mode === 'unavailable') return { kind: 'unavailable' };
  return undefined;
}

/** One request as the server saw it, for tests that assert what the adapter sent or abandoned. */
export interface SeenRequest {
  readonly url: string;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  /** Set when the client went away before the answer was sent. */
  aborted: boolean;
  /** Epoch ms the answer was written, when it was. */
  answeredAt?: number;
}
