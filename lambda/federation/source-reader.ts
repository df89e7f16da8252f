/**
 * Reads one source: pulls provider pages, validates them, re-chunks them into delivery pages of at most
 * `pageSize` records, and hands each chunk to the engine (which federates and publishes it) as soon as it is
 * full or its provider page ends (§4 "Delivery pages may split provider pages"). Never awaits a hung adapter:
 * every wait races the source's abort signal. A layered read (a cached source) also says which layer each
 * page came from, and its delta retracts earlier records before its own are delivered.
 */
import { isSourceError } from './errors.js';
import type { PageOrigin } from './events.js';
import type { LayeredPage, RawRecord, SourceAdapter, SourceQuery } from './port.js';
import type { QueryPlan } from './query-plan.js';
import type { SourceErrorCode } from './types.js';
import { ValidatedPage } from './validate.js';

/** How a read ended: normally, with a source error code, or because its signal fired. */
export type ReadOutcome =
  | { readonly kind: 'complete' }
  | { readonly kind: 'error'; readonly code: SourceErrorCode }
  | { readonly kind: 'aborted' };

/** What the engine gives one read. */
export interface SourceReadContext {
  readonly adapter: SourceAdapter;
  readonly query: SourceQuery;
  readonly plan: QueryPlan;
  readonly pageSize: number;
  readonly deadline: number;
  readonly signal: AbortSignal;
  /**
   * Delivers records `start..end` of a validated provider page as one chunk (at most `pageSize` records); a
   * returned promise is backpressure.
   */
  readonly deliver: (
    page: ValidatedPage,
    start: number,
    end: number,
    origin: PageOrigin | undefined,
  ) => Promise<void> | undefined;
  /** A layered read answers from a baseline that was current at `asOf`. */
  readonly onBaseline: (asOf: string) => void;
  /** Applies a layered read's delta: drops the source's delivered records with these ids; returns how many. */
  readonly applyDelta: (retracted: readonly string[]) => number;
  /** Reports a failure without its message (provider text may carry credentials). */
  readonly logFailure: (detail: { reason: string; error_name?: string }) => void;
}

const ABORTED = Symbol('aborted');

function whenAborted(signal: AbortSignal): Promise<typeof ABORTED> {
  return new Promise((resolve) => {
    if (signal.aborted) resolve(ABORTED);
    else signal.addEventListener('abort', () => resolve(ABORTED), { once: true });
  });
}

/** Closes the provider iterator without awaiting it: a hung generator's `return()` may never settle. */
function closeQuietly(iterator: AsyncIterator<unknown> | undefined): void {
  if (iterator?.return === undefined) return;
  try {
    iterator.return().catch(() => undefined);
  } catch {
    // A throwing return() has nothing left for us to release.
  }
}

function errorName(error: unknown): string {
  return error instanceof Error ? error.name : typeof error;
}

interface Step {
  readonly records: unknown;
  readonly layer?: LayeredPage;
}

const ORIGINS: Readonly<Record<LayeredPage['layer'], PageOrigin | undefined>> = {
  baseline: 'cache_baseline',
  delta: 'source_delta',
  live: undefined,
};

/** A layered step as the reader needs it, or undefined when it is not one. */
function layeredStep(value: unknown): Step | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const layer = value as LayeredPage;
  if (!Object.hasOwn(ORIGINS, layer.layer)) return undefined;
  if (layer.layer === 'baseline' && typeof layer.as_of !== 'string') return undefined;
  if (layer.layer === 'delta' && !Array.isArray(layer.retracted)) return undefined;
  return { records: (layer as { records?: readonly RawRecord[] }).records, layer };
}

/** Runs one source to its outcome. Resolves promptly once `signal` fires, whatever the adapter does. */
export async function readSource(ctx: SourceReadContext): Promise<ReadOutcome> {
  const { adapter, signal, plan, pageSize } = ctx;
  const aborted = whenAborted(signal);
  let iterator: AsyncIterator<unknown> | undefined;
  let delivered = 0;
  const options = { signal, deadline: ctx.deadline };
  const layered = adapter.readLayers !== undefined;
  try {
    iterator = (adapter.readLayers?.(ctx.query, options) ?? adapter.read(ctx.query, options))[
      Symbol.asyncIterator
    ]();
    for (;;) {
      if (signal.aborted) break;
      const pending = iterator.next();
      pending.catch(() => undefined); // if we stop waiting, a late rejection must not become unhandled
      const step = await Promise.race([pending, aborted]);
      if (step === ABORTED) break;
      if (step.done === true) return { kind: 'complete' };
      const { records, layer } = layered
        ? (layeredStep(step.value) ?? { records: undefined })
        : { records: step.value };
      if (!Array.isArray(records)) {
        ctx.logFailure({ reason: 'provider_page_not_array' });
        closeQuietly(iterator);
        return { kind: 'error', code: 'source_unavailable' };
      }
      // Validate the whole provider page before publishing any of it: the offending page is never published.
      const page = new ValidatedPage();
      const rejection = page.addAll(records as unknown[], adapter.source);
      if (rejection !== undefined) {
        ctx.logFailure({ reason: rejection });
        closeQuietly(iterator);
        return { kind: 'error', code: rejection === 'invalid_record' ? 'source_unavailable' : rejection };
      }
      if (layer?.layer === 'baseline') ctx.onBaseline(layer.as_of);
      if (layer?.layer === 'delta') delivered -= ctx.applyDelta(layer.retracted);
      const origin = layer === undefined ? undefined : ORIGINS[layer.layer];
      page.truncate(Math.max(0, plan.perSourceLimit - delivered));
      for (let start = 0; start < page.length; start += pageSize) {
        const end = Math.min(start + pageSize, page.length);
        const sunk = ctx.deliver(page, start, end, origin);
        delivered += end - start;
        if (sunk !== undefined && (await Promise.race([sunk, aborted])) === ABORTED) break;
        if (signal.aborted) break;
      }
      // A layered read reaches its delta after the baseline filled the limit: it decides when to stop.
      if (!layered && delivered >= plan.perSourceLimit) {
        closeQuietly(iterator);
        return { kind: 'complete' };
      }
    }
  } catch (error) {
    closeQuietly(iterator);
    if (signal.aborted) return { kind: 'aborted' };
    if (isSourceError(error)) return { kind: 'error', code: error.code };
    ctx.logFailure({ reason: 'adapter_threw', error_name: errorName(error) });
    return { kind: 'error', code: 'source_unavailable' };
  }
  closeQuietly(iterator);
  return { kind: 'aborted' };
}
