/**
 * The fan-out engine (DESIGN §4): bounded concurrency in a stable order, per-source timeouts, one operation
 * budget, exactly one terminal per source, and the authoritative final merge.
 */
import { FederationError } from './errors.js';
import { federate } from './identity.js';
import type { FederationErrorCode } from './errors.js';
import type { FederationEvent, PageOrigin } from './events.js';
import { validateOptions } from './options.js';
import type { FederationOptions } from './options.js';
import { planFor } from './query-plan.js';
import type { QueryPlan } from './query-plan.js';
import { KeyedRun } from './keyed-run.js';
import type { SourceState } from './source-state.js';
import { readSource } from './source-reader.js';
import type { ReadOutcome } from './source-reader.js';
import { formatObservedAt } from './timestamps.js';
import type {
  FederationMetadata,
  FederationResult,
  RetrievalMode,
  SourceErrorCode,
  SourceRef,
} from './types.js';
import { entryOf } from './validate.js';
import type { NormalizedRecord, ValidatedPage } from './validate.js';

const compareSources = (a: SourceRef, b: SourceRef) =>
  a.source_type < b.source_type
    ? -1
    : a.source_type > b.source_type
      ? 1
      : a.source_identity < b.source_identity
        ? -1
        : a.source_identity > b.source_identity
          ? 1
          : 0;

const timeoutReason = () => new DOMException('source time ran out', 'TimeoutError');

class FederationRun {
  readonly #options: FederationOptions;
  readonly #plan: QueryPlan;
  readonly #states: SourceState[];
  readonly #pageSize: number;
  readonly #maxConcurrent: number;
  readonly #clock: () => number;
  readonly #startedAt: number;
  /** Every delivered record, for the final merge. */
  readonly #delivered: NormalizedRecord[] = [];
  readonly #sinkPending = new Set<Promise<void>>();
  /** Sources waiting for a read slot, in start order (a keyed source that cannot answer by keys joins late). */
  readonly #queue: SourceState[];
  #next = 0;
  readonly #keyed: KeyedRun | undefined;
  #running = 0;
  #settled = 0;
  #deadlinePassed = false;
  #over = false;
  #deadlineTimer?: ReturnType<typeof setTimeout>;
  #resolve!: (result: FederationResult) => void;
  #reject!: (error: FederationError) => void;
  readonly #onOuterAbort = () =>
    this.#fail('operation_aborted', 'the operation was aborted', this.#options.signal?.reason);

  constructor(options: FederationOptions) {
    this.#options = options;
    this.#plan = planFor(options.query);
    this.#states = options.sources.map((adapter) => ({
      adapter,
      pageIndex: 0,
      started: false,
      contributed: false,
      deltaApplied: false,
    }));
    const recordRef = options.query.operation === 'get_person' ? options.query.record_ref : undefined;
    const keyed = this.#states.filter((s) => recordRef !== undefined && s.adapter.openKeyed !== undefined);
    this.#queue = this.#states.filter((s) => !keyed.includes(s));
    this.#keyed =
      recordRef === undefined || keyed.length === 0
        ? undefined
        : new KeyedRun(recordRef, keyed, {
            deliver: (state, page) => this.#deliverAll(state, page),
            fallBack: (state) => {
              if (this.#deadlinePassed) this.#terminal(state, 'source_timeout');
              else this.#queue.push(state);
              this.#startMore();
              this.#maybeFinish();
            },
            othersDone: () => this.#queue.every((s) => s.terminal !== undefined),
            pool: () => this.#delivered,
            end: (state, code) => {
              if (state.terminal !== undefined || this.#over) return;
              clearTimeout(state.timer);
              this.#terminal(state, code);
              this.#maybeFinish();
            },
          });
    this.#pageSize = options.pageSize ?? 100;
    this.#maxConcurrent = options.maxConcurrentSources ?? 8;
    this.#clock = options.clock ?? Date.now;
    this.#startedAt = this.#clock();
  }

  run(): Promise<FederationResult> {
    const done = new Promise<FederationResult>((resolve, reject) => {
      this.#resolve = resolve;
      this.#reject = reject;
    });
    const { signal } = this.#options;
    if (signal?.aborted === true) {
      this.#onOuterAbort();
      return done;
    }
    signal?.addEventListener('abort', this.#onOuterAbort, { once: true });
    const budget = this.#options.deadline - Date.now();
    // A budget already spent starts no read at all: every source ends with source_timeout at pageIndex 0.
    if (budget <= 0) this.#onDeadline();
    else this.#deadlineTimer = setTimeout(() => this.#onDeadline(), budget);
    this.#keyed?.open(this.#options.deadline);
    this.#startMore();
    this.#maybeFinish();
    return done;
  }

  #startMore(): void {
    while (!this.#deadlinePassed && !this.#over && this.#running < this.#maxConcurrent) {
      const state = this.#queue[this.#next];
      if (state === undefined) return;
      this.#next++;
      this.#start(state);
    }
  }

  #start(state: SourceState): void {
    const { adapter } = state;
    this.#running++;
    state.started = true;
    const controller = new AbortController();
    state.controller = controller;
    const timeoutMs = adapter.timeoutMs ?? this.#options.sourceTimeoutMs;
    const ownDeadline = timeoutMs === undefined ? Infinity : Date.now() + timeoutMs;
    const deadline = Math.min(this.#options.deadline, ownDeadline);
    // The operation deadline has its own timer; a per-source timer is only needed when it is earlier.
    if (ownDeadline < this.#options.deadline)
      state.timer = setTimeout(
        () => controller.abort(timeoutReason()),
        Math.max(0, ownDeadline - Date.now()),
      );
    readSource({
      adapter,
      query: this.#options.query,
      plan: this.#plan,
      pageSize: this.#pageSize,
      deadline,
      signal: controller.signal,
      deliver: (page, start, end, origin) => this.#deliver(state, page, start, end, origin),
      onBaseline: (asOf) => {
        const at = Date.parse(asOf);
        state.baselineAt = Number.isNaN(at) ? this.#startedAt : at;
      },
      applyDelta: (retracted) => this.#applyDelta(state, retracted),
      logFailure: (detail) =>
        this.#options.onLog?.({ level: 'warn', event: 'source_failed', source: adapter.source, ...detail }),
    }).then(
      (outcome) => this.#settle(state, outcome),
      () => this.#settle(state, { kind: 'error', code: 'source_unavailable' }),
    );
  }

  #deliver(
    state: SourceState,
    validated: ValidatedPage,
    start: number,
    end: number,
    origin: PageOrigin | undefined,
  ): Promise<void> | undefined {
    if (this.#over || state.controller?.signal.aborted === true) return undefined;
    if (end > start) state.contributed = true;
    const members = validated.members.slice(start, end);
    for (const member of members) this.#delivered.push(member);
    // Source-local federation (§4): the identity rules applied to this chunk's records only.
    const page = this.#plan.publishable(
      members.map((m) => m.record),
      federate(members),
    );
    if (page.length === 0) return undefined;
    state.pageIndex++;
    const { source } = state.adapter;
    return this.#emit(
      origin === undefined
        ? { type: 'page', source, pageIndex: state.pageIndex, records: page }
        : { type: 'page', source, pageIndex: state.pageIndex, records: page, origin },
    );
  }

  /**
   * A delta over a baseline: the source's delivered records it retracts leave the final merge (their pages
   * were provisional, §4), so a deleted or changed person never appears stale in the final result.
   */
  #applyDelta(state: SourceState, retracted: readonly string[]): number {
    if (this.#over) return 0;
    state.deltaApplied = true;
    if (retracted.length === 0) return 0;
    const gone = new Set(retracted);
    const { source_type, source_identity } = state.adapter.source;
    const before = this.#delivered.length;
    let kept = 0;
    for (const member of this.#delivered) {
      const entry = entryOf(member);
      const retract =
        entry.source_identity === source_identity &&
        entry.source_type === source_type &&
        gone.has(entry.external_id);
      if (!retract) this.#delivered[kept++] = member;
    }
    this.#delivered.length = kept;
    return before - kept;
  }

  /** Calls the sink in event order; its promise (never rejecting) is the caller's backpressure. */
  #emit(event: FederationEvent): Promise<void> | undefined {
    if (this.#over || this.#options.onEvent === undefined) return undefined;
    let returned: unknown;
    try {
      returned = this.#options.onEvent(event);
    } catch (error) {
      this.#fail('sink_failed', 'the event sink threw', error);
      return undefined;
    }
    if (typeof (returned as PromiseLike<void> | undefined)?.then !== 'function') return undefined;
    const settled = Promise.resolve(returned).then(
      () => undefined,
      (error: unknown) => this.#fail('sink_failed', 'the event sink rejected', error),
    );
    this.#sinkPending.add(settled);
    void settled.finally(() => this.#sinkPending.delete(settled));
    return settled;
  }

  #settle(state: SourceState, outcome: ReadOutcome): void {
    if (state.terminal !== undefined) return;
    clearTimeout(state.timer);
    this.#running--;
    if (this.#over) return;
    // `aborted` without a failed run means this source's time ran out (own timeout or operation deadline).
    this.#terminal(
      state,
      outcome.kind === 'complete' ? undefined : outcome.kind === 'error' ? outcome.code : 'source_timeout',
    );
    this.#startMore();
    this.#keyed?.maybeClose();
    this.#maybeFinish();
  }

  /** Delivers a validated page in chunks of `pageSize`, waiting on the sink; false once the run is over. */
  async #deliverAll(state: SourceState, page: ValidatedPage): Promise<boolean> {
    for (let start = 0; start < page.length; start += this.#pageSize) {
      const end = Math.min(start + this.#pageSize, page.length);
      await this.#deliver(state, page, start, end, 'cache_baseline');
    }
    return !this.#over;
  }

  #terminal(state: SourceState, code: SourceErrorCode | undefined): void {
    state.terminal = { code, at: this.#clock() };
    this.#settled++;
    const { source } = state.adapter;
    const { pageIndex } = state;
    void this.#emit(
      code === undefined
        ? { type: 'complete', source, pageIndex }
        : { type: 'error', source, pageIndex, code },
    );
  }

  #onDeadline(): void {
    if (this.#over) return;
    this.#deadlinePassed = true;
    this.#keyed?.abort();
    for (const state of this.#states) {
      if (state.started) state.controller?.abort(timeoutReason());
      else this.#terminal(state, 'source_timeout'); // never started: no read to abort (§5 "Operation deadlines remain in force")
    }
    this.#maybeFinish();
  }

  #maybeFinish(): void {
    if (this.#over || this.#settled < this.#states.length) return;
    const result = this.#result();
    this.#finish();
    // Let the sink take the terminals first, but never past the deadline (a stalled client cannot hold us).
    const wait = Math.max(0, this.#options.deadline - Date.now());
    if (this.#sinkPending.size === 0 || wait === 0) {
      this.#resolve(result);
      return;
    }
    let timer: ReturnType<typeof setTimeout> | undefined;
    const budget = new Promise<void>((resolve) => (timer = setTimeout(resolve, wait)));
    void Promise.race([Promise.all(this.#sinkPending), budget]).then(() => {
      clearTimeout(timer);
      this.#resolve(result);
    });
  }

  #result(): FederationResult {
    const records = this.#plan.finalize(this.#delivered);
    const observed = this.#states.filter((s) => s.terminal?.code === undefined || s.contributed);
    const failed = this.#states.filter((s) => s.terminal?.code !== undefined);
    const ordered = (list: SourceState[]) =>
      [...list].sort((a, b) => compareSources(a.adapter.source, b.adapter.source));
    const cached = this.#states.filter((s) => s.baselineAt !== undefined);
    const metadata: FederationMetadata = {
      retrieval_mode: retrievalMode(cached),
      cache_baseline_applied: cached.length > 0,
      source_delta_applied: cached.some((s) => s.deltaApplied),
      completeness: failed.length === 0 ? 'complete' : 'partial',
      result_count: records.length,
      observed_at: formatObservedAt(this.#startedAt),
      provenance: ordered(observed).map((state) => ({
        source_type: state.adapter.source.source_type,
        source_identity: state.adapter.source.source_identity,
        observed_at: formatObservedAt(observedAt(state, this.#startedAt)),
      })),
      source_errors: ordered(failed).map(({ adapter: { source }, terminal }) => ({
        source: { source_type: source.source_type, source_identity: source.source_identity },
        error: { code: terminal?.code ?? 'source_unavailable' },
      })),
    };
    return { records, metadata };
  }

  /** Stops everything: timers cleared, every read aborted, the outer listener removed. */
  #finish(reason?: unknown): void {
    this.#over = true;
    clearTimeout(this.#deadlineTimer);
    this.#keyed?.abort();
    this.#options.signal?.removeEventListener('abort', this.#onOuterAbort);
    for (const state of this.#states) {
      clearTimeout(state.timer);
      if (state.terminal === undefined) state.controller?.abort(reason);
    }
  }

  #fail(code: FederationErrorCode, message: string, cause: unknown): void {
    if (this.#over) return;
    this.#finish(cause ?? new DOMException(message, 'AbortError'));
    this.#reject(new FederationError(code, message, { cause }));
  }
}

/** The final metadata's `retrieval_mode` from the sources that answered from a baseline (docs/bos.md). */
function retrievalMode(cached: readonly SourceState[]): RetrievalMode {
  if (cached.length === 0) return 'live_provider';
  return cached.every((s) => s.deltaApplied) ? 'cache_baseline_with_delta' : 'cache_baseline';
}

/**
 * When a source was observed: a baseline without its delta is only as current as the baseline; anything
 * else (live, or baseline plus delta) as current as its terminal.
 */
function observedAt(state: SourceState, startedAt: number): number {
  if (state.baselineAt !== undefined && !state.deltaApplied) return state.baselineAt;
  return state.terminal?.at ?? startedAt;
}

/**
 * Runs one federated read across `sources`, emitting pages and terminals through `onEvent`, and resolves
 * with the authoritative final result by `deadline`. Rejects with {@link FederationError} only when the run
 * itself fails: invalid options, the caller's signal (client disconnect), or a failing sink.
 */
export function runFederation(options: FederationOptions): Promise<FederationResult> {
  try {
    validateOptions(options);
  } catch (error) {
    return Promise.reject(
      error instanceof Error ? error : new FederationError('invalid_options', 'invalid options'),
    );
  }
  return new FederationRun(options).run();
}
