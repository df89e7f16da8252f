/**
 * Reads one source: pulls provider pages, validates them, re-chunks them into delivery pages of at most
 * `pageSize` records, and hands each chunk to the engine (which federates and publishes it) as soon as it is
 * full or its provider page ends (§4 "Delivery pages may split provider pages"). Never awaits a hung adapter:
 * every wait races the source's abort signal.
 */
import { isSourceError } from './errors.js';
import type { SourceAdapter, SourceQuery } from './port.js';
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
  readonly deliver: (page: ValidatedPage, start: number, end: number) => Promise<void> | undefined;
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

/** Runs one source to its outcome. Resolves promptly once `signal` fires, whatever the adapter does. */
export async function readSource(ctx: SourceReadContext): Promise<ReadOutcome> {
  const { adapter, signal, plan, pageSize } = ctx;
  const aborted = whenAborted(signal);
  let iterator: AsyncIterator<readonly unknown[]> | undefined;
  let delivered = 0;
  try {
    iterator = adapter.read(ctx.query, { signal, deadline: ctx.deadline })[Symbol.asyncIterator]();
    for (;;) {
      if (signal.aborted) break;
      const pending = iterator.next();
      pending.catch(() => undefined); // if we stop waiting, a late rejection must not become unhandled
      const step = await Promise.race([pending, aborted]);
      if (step === ABORTED) break;
      if (step.done === true) return { kind: 'complete' };
      if (!Array.isArray(step.value)) {
        ctx.logFailure({ reason: 'provider_page_not_array' });
        closeQuietly(iterator);
        return { kind: 'error', code: 'source_unavailable' };
      }
      // Validate the whole provider page before publishing any of it: the offending page is never published.
      const page = new ValidatedPage();
      const rejection = page.addAll(step.value as unknown[], adapter.source);
      if (rejection !== undefined) {
        ctx.logFailure({ reason: rejection });
        closeQuietly(iterator);
        return { kind: 'error', code: rejection === 'invalid_record' ? 'source_unavailable' : rejection };
      }
      page.truncate(plan.perSourceLimit - delivered);
      for (let start = 0; start < page.length; start += pageSize) {
        const end = Math.min(start + pageSize, page.length);
        const sunk = ctx.deliver(page, start, end);
        delivered += end - start;
        if (sunk !== undefined && (await Promise.race([sunk, aborted])) === ABORTED) break;
        if (signal.aborted) break;
      }
      if (delivered >= plan.perSourceLimit) {
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
