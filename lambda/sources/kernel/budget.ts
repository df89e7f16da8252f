/**
 * The time a provider read may use: the engine's `ReadOptions` (abort signal + absolute deadline) as the
 * kernel needs them — a per-request signal that also fires at the deadline, waits that wake on abort, and
 * the remaining budget that decides whether a rate-limit wait or a retry still fits.
 */
import type { ReadOptions } from '../../federation/index.js';
import { ProviderError } from './errors.js';

/** One read's time budget. */
export class ReadBudget {
  readonly signal: AbortSignal;
  readonly deadline: number;
  readonly #clock: () => number;

  constructor(options: ReadOptions, clock: () => number = Date.now) {
    this.signal = options.signal;
    this.deadline = options.deadline;
    this.#clock = clock;
  }

  /** Milliseconds left before the deadline (never negative). */
  remaining(): number {
    return Math.max(0, this.deadline - this.#clock());
  }

  /** Whether a wait of `ms` still leaves `reserveMs` for the request that follows it. */
  fits(ms: number, reserveMs = 50): boolean {
    return ms + reserveMs <= this.remaining();
  }

  /**
   * A signal for one provider request: fires when the read is aborted or the deadline passes, so the
   * in-flight request is torn down rather than outliving the source. Throws when no time is left.
   */
  requestSignal(extra?: AbortSignal): AbortSignal {
    this.throwIfOver();
    if (extra?.aborted === true) throw extra.reason;
    const timeout = AbortSignal.timeout(Math.max(1, this.remaining()));
    return AbortSignal.any(extra === undefined ? [this.signal, timeout] : [this.signal, extra, timeout]);
  }

  /** Throws the read's abort reason, or `source_timeout` once the deadline has passed. */
  throwIfOver(): void {
    if (this.signal.aborted) throw this.signal.reason;
    if (this.remaining() <= 0) throw new ProviderError('source_timeout', 'deadline');
  }

  /**
   * What a failed request means when its signal fired: the read's own abort (rethrown as is), or the
   * deadline (`source_timeout`), or `extra`'s reason (the caller closed the request). Undefined when neither happened, so the caller maps the failure itself.
   */
  abortOutcome(extra?: AbortSignal): Error | undefined {
    if (extra?.aborted === true && !this.signal.aborted) return extra.reason as Error;
    if (this.signal.aborted)
      return (this.signal.reason as Error | undefined) ?? new ProviderError('source_timeout', 'deadline');
    if (this.remaining() <= 0) return new ProviderError('source_timeout', 'deadline');
    return undefined;
  }

  /** Waits `ms`, waking early (rejecting) when the read is aborted. */
  sleep(ms: number): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      if (this.signal.aborted) {
        reject(this.signal.reason as Error);
        return;
      }
      const onAbort = () => {
        clearTimeout(timer);
        reject(this.signal.reason as Error);
      };
      const timer = setTimeout(() => {
        this.signal.removeEventListener('abort', onAbort);
        resolve();
      }, ms);
      this.signal.addEventListener('abort', onAbort, { once: true });
    });
  }
}
