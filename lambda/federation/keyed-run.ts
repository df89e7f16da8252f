/**
 * The keyed part of one `get_person` run: sources that can answer by identity keys (a cached source's
 * baseline plus delta) are opened at once, wait until every other source has ended (those are read in
 * full, so their records can join the cluster), then answer the closure's rounds (`keyed-closure.ts`). A
 * source that cannot answer by keys now (no fresh baseline) falls back to an ordinary read.
 */
import type { SourceState } from './source-state.js';
import { closeCluster } from './keyed-closure.js';
import type { SourceErrorCode } from './types.js';
import { ValidatedPage } from './validate.js';
import type { NormalizedRecord } from './validate.js';

/** What the keyed part needs from the engine. */
export interface KeyedRunHooks {
  /** Publishes a validated page of the source's finds; false once the run is over. */
  deliver(state: SourceState, page: ValidatedPage): Promise<boolean>;
  /** The source cannot answer by keys: read it as any other. */
  fallBack(state: SourceState): void;
  /** Whether every source read in full has ended. */
  othersDone(): boolean;
  pool(): readonly NormalizedRecord[];
  /** Ends the source: complete (undefined) or with a code. */
  end(state: SourceState, code: SourceErrorCode | undefined): void;
}

const ABORTED = Symbol('aborted');

/** The keyed sources of one run. */
export class KeyedRun {
  readonly #abort = new AbortController();
  readonly #aborted: Promise<typeof ABORTED>;
  readonly #ready: SourceState[] = [];
  readonly #codes = new Map<SourceState, SourceErrorCode>();
  #opening = 0;
  #closing = false;

  constructor(
    readonly recordRef: string,
    readonly states: readonly SourceState[],
    readonly hooks: KeyedRunHooks,
  ) {
    this.#aborted = new Promise((resolve) =>
      this.#abort.signal.addEventListener('abort', () => resolve(ABORTED), { once: true }),
    );
  }

  /** Opens every keyed source (they take no read slot: a keyed lookup is a few store reads). */
  open(deadline: number): void {
    for (const state of this.states) {
      state.started = true;
      this.#opening++;
      const opened = state.adapter.openKeyed!({ signal: this.#abort.signal, deadline });
      Promise.race([opened, this.#aborted]).then(
        (reader) => {
          this.#opening--;
          if (reader === ABORTED) this.hooks.end(state, 'source_timeout');
          else if (reader === undefined) this.hooks.fallBack(state);
          else {
            state.keyed = reader;
            const at = Date.parse(reader.as_of);
            state.baselineAt = Number.isNaN(at) ? Date.now() : at;
            state.deltaApplied = reader.deltaApplied;
            this.#ready.push(state);
          }
          this.maybeClose();
        },
        () => {
          this.#opening--;
          this.hooks.end(state, 'source_unavailable');
          this.maybeClose();
        },
      );
    }
  }

  /** Starts the closure once every keyed source is open and every other source has ended. */
  maybeClose(): void {
    if (this.#closing || this.#opening > 0 || !this.hooks.othersDone()) return;
    this.#closing = true;
    void this.#close();
  }

  abort(): void {
    this.#abort.abort();
  }

  async #close(): Promise<void> {
    const states = this.#ready;
    let failed = false;
    try {
      await Promise.race([
        closeCluster({
          recordRef: this.recordRef,
          readers: states.map((s) => s.keyed!),
          pool: () => this.hooks.pool(),
          deliver: (i, records) => this.#deliver(states[i]!, records),
          signal: this.#abort.signal,
        }),
        this.#aborted,
      ]);
    } catch {
      failed = true;
    }
    for (const state of states) {
      const code = this.#abort.signal.aborted
        ? 'source_timeout'
        : failed
          ? 'source_unavailable'
          : (this.#codes.get(state) ?? state.keyed?.error);
      this.hooks.end(state, code);
    }
  }

  /** Validates a source's finds against it (as any read's pages) before anything is published. */
  #deliver(state: SourceState, records: readonly unknown[]): Promise<boolean> {
    if (this.#codes.has(state)) return Promise.resolve(true);
    const page = new ValidatedPage();
    const rejection = page.addAll(records, state.adapter.source);
    if (rejection !== undefined) {
      this.#codes.set(state, rejection === 'invalid_record' ? 'source_unavailable' : rejection);
      return Promise.resolve(true);
    }
    return this.hooks.deliver(state, page);
  }
}
