/**
 * Per-frame rules of contract §4–§5: request id, global sequence, per-source pages, one terminal.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { SourceResultsTracker, type SourceResultsEvent, type ViolationKind } from '../../../client/index.js';
import { CONTRACT_MESSAGES, REQUEST_ID, sourceFrame } from './contract-example.js';

const OTHER = { source_type: 'example', source_identity: 'other-demo-source' };
// Same type, different identity prefix: the complete pair is the key, not either half.
const SIBLING = { source_type: 'example-demo', source_identity: 'source' };

/** Feeds frame params in order and returns every event plus the tracker. */
function run(frames: Record<string, unknown>[]): {
  events: SourceResultsEvent[];
  tracker: SourceResultsTracker;
} {
  const tracker = new SourceResultsTracker(REQUEST_ID);
  const events = frames.flatMap((f, i) => tracker.accept(sourceFrame(f).params, i));
  return { events, tracker };
}
const kinds = (events: SourceResultsEvent[]): ViolationKind[] =>
  events.flatMap((e) => (e.type === 'violation' ? [e.violation.kind] : []));

describe('SourceResultsTracker', () => {
  it('accepts the contract example frames without violations and reports page, complete and error', () => {
    const tracker = new SourceResultsTracker(REQUEST_ID);
    const events = CONTRACT_MESSAGES.slice(0, 3).flatMap((m, i) =>
      tracker.accept((m as { params: unknown }).params, i),
    );
    assert.deepEqual(
      events.map((e) => e.type),
      ['page', 'source_complete', 'source_error'],
    );
    assert.deepEqual(tracker.violations, []);
    const [, complete, error] = events;
    assert.equal(complete?.type === 'source_complete' && complete.terminal.records, 1);
    assert.equal(error?.type === 'source_error' && error.terminal.errorCode, 'source_timeout');
    assert.deepEqual(tracker.missingTerminals(), []);
  });

  it('accepts interleaved sources and an empty source completing with pageIndex 0', () => {
    const { tracker } = run([
      { sequence: 1, pageIndex: 1, records: [{}] },
      { sequence: 2, pageIndex: 1, source: OTHER, records: [{}, {}] },
      { sequence: 3, pageIndex: 2, records: [{}] },
      { sequence: 4, pageIndex: 0, source: SIBLING, status: 'complete' },
      { sequence: 5, pageIndex: 1, source: OTHER, status: 'complete' },
      { sequence: 6, pageIndex: 2, status: 'complete' },
    ]);
    assert.deepEqual(tracker.violations, []);
    assert.deepEqual(
      tracker.sources.map((s) => [s.source.source_identity, s.pages, s.records, s.terminal?.status]),
      [
        ['demo-source', 2, 2, 'complete'],
        ['other-demo-source', 1, 2, 'complete'],
        ['source', 0, 0, 'complete'],
      ],
    );
  });

  it('detects a requestId mismatch and does not present that frame as a page', () => {
    const { events, tracker } = run([{ requestId: 'search-2', records: [{}] }]);
    assert.deepEqual(kinds(events), ['request_id_mismatch']);
    assert.equal(tracker.observedPages.length, 0);
  });

  it('treats a numeric requestId as different from the same digits in a string', () => {
    const tracker = new SourceResultsTracker(7);
    const events = tracker.accept(sourceFrame({ requestId: '7' }).params, 0);
    assert.deepEqual(kinds(events), ['request_id_mismatch']);
  });

  it('detects a gap in the global sequence', () => {
    const { events } = run([{ sequence: 1 }, { sequence: 3, pageIndex: 2 }]);
    assert.deepEqual(kinds(events), ['sequence_gap']);
  });

  it('detects a duplicated sequence number', () => {
    const { events } = run([{ sequence: 1 }, { sequence: 1, source: OTHER }]);
    assert.deepEqual(kinds(events), ['sequence_duplicate']);
  });

  it('detects a sequence that does not start at 1', () => {
    const { events } = run([{ sequence: 2 }]);
    assert.deepEqual(kinds(events), ['sequence_gap']);
  });

  it('detects a per-source page gap but not pages of different sources sharing an index', () => {
    const { events } = run([
      { sequence: 1, pageIndex: 1 },
      { sequence: 2, pageIndex: 1, source: SIBLING },
      { sequence: 3, pageIndex: 3 },
    ]);
    assert.deepEqual(kinds(events), ['page_gap']);
  });

  it('detects a source that starts at pageIndex 2', () => {
    assert.deepEqual(kinds(run([{ pageIndex: 2 }]).events), ['page_gap']);
  });

  it('detects two terminals for one source', () => {
    const { events } = run([
      { sequence: 1, pageIndex: 0, status: 'complete' },
      { sequence: 2, pageIndex: 0, status: 'error', error: { code: 'rate_limited' } },
    ]);
    assert.deepEqual(kinds(events), ['second_terminal']);
    assert.equal(events.filter((e) => e.type === 'source_error').length, 0);
  });

  it('detects a page after the source terminal', () => {
    const { events } = run([
      { sequence: 1, pageIndex: 0, status: 'complete' },
      { sequence: 2, pageIndex: 1 },
    ]);
    assert.deepEqual(kinds(events), ['page_after_terminal']);
  });

  it('reports a missing terminal for a source that delivered pages only', () => {
    const { tracker } = run([
      { sequence: 1 },
      { sequence: 2, source: OTHER, pageIndex: 0, status: 'complete' },
    ]);
    const missing = tracker.missingTerminals();
    assert.deepEqual(
      missing.map((v) => [v.kind, v.source?.source_identity]),
      [['missing_terminal', 'demo-source']],
    );
  });

  it('detects an error frame with records or with a code outside the five contract codes', () => {
    const { events } = run([
      { sequence: 1, pageIndex: 0, status: 'error', error: { code: 'boom' } },
      {
        sequence: 2,
        pageIndex: 0,
        source: OTHER,
        status: 'error',
        records: [{}],
        error: { code: 'rate_limited' },
      },
    ]);
    assert.deepEqual(kinds(events), ['unknown_error_code', 'terminal_with_records']);
  });

  it('detects a terminal whose pageIndex is not the last page index', () => {
    const { events } = run([
      { sequence: 1, pageIndex: 1 },
      { sequence: 2, pageIndex: 0, status: 'complete' },
    ]);
    assert.deepEqual(kinds(events), ['terminal_page_index']);
  });

  it('reports malformed frames as invalid without throwing', () => {
    const tracker = new SourceResultsTracker(REQUEST_ID);
    assert.deepEqual(kinds(tracker.accept(undefined, 0)), ['invalid_frame']);
    assert.deepEqual(kinds(tracker.accept({ ...(sourceFrame({}).params as object), status: 'done' }, 0)), [
      'invalid_frame',
    ]);
    assert.deepEqual(kinds(tracker.accept({ ...(sourceFrame({}).params as object), sequence: 0 }, 0)), [
      'invalid_frame',
    ]);
  });

  it('reads a page’s origin from its _meta, and takes a page without one as live', () => {
    const { events } = run([
      { sequence: 1, pageIndex: 1, _meta: { 'bos/page_origin': 'cache_baseline' } },
      { sequence: 2, pageIndex: 2, _meta: { 'bos/page_origin': 'source_delta' } },
      { sequence: 3, pageIndex: 3 },
      { sequence: 4, pageIndex: 4, _meta: { 'bos/page_origin': 'something else' } },
    ]);
    assert.deepEqual(
      events.map((e) => (e.type === 'page' ? e.page.origin : e.type)),
      ['cache_baseline', 'source_delta', 'live_provider', 'live_provider'],
    );
  });
});
