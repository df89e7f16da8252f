/** The engine's bookkeeping for one source of a run (shared by the engine and its keyed part). */
import type { KeyedReader, SourceAdapter } from './port.js';
import type { SourceErrorCode } from './types.js';

/** One source's part of a run. */
export interface SourceState {
  readonly adapter: SourceAdapter;
  pageIndex: number;
  started: boolean;
  /** Whether any of its records reached the final merge (even without a published page, for get_person). */
  contributed: boolean;
  /** A layered read's baseline instant (epoch ms), once it answered from one. */
  baselineAt?: number;
  /** Whether a layered read's delta was applied over its baseline. */
  deltaApplied: boolean;
  controller?: AbortController;
  timer?: ReturnType<typeof setTimeout>;
  keyed?: KeyedReader;
  terminal?: { readonly code: SourceErrorCode | undefined; readonly at: number };
}
