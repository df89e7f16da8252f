/**
 * The live timeline of one streamed call: a lane per source, a mark per page at its arrival time labelled
 * with its record count, the source's terminal state (an error with what it means to an operator), the
 * final frame's arrival and the whole call's elapsed time. Pages are provisional observations (contract §4);
 * the result view shows the authoritative records.
 */
import type { ProvisionalPage, SourceRef, SourceTerminal } from '../client/source-results-types.js';
import { h, replace } from './dom.js';
import { describeSourceError } from './source-errors.js';

interface Lane {
  source: SourceRef;
  marks: { pageIndex: number; records: number; atMs: number }[];
  terminal?: { status: 'complete' | 'error'; code?: string; atMs: number };
}

/** Renders the timeline into `container`, again after each event (a call has at most a few hundred pages). */
export class Timeline {
  readonly #container: HTMLElement;
  readonly #lanes = new Map<string, Lane>();
  #finalAtMs: number | undefined;
  #elapsedMs: number | undefined;

  constructor(container: HTMLElement) {
    this.#container = container;
    this.#render();
  }

  page(page: ProvisionalPage, atMs: number): void {
    this.#lane(page.source).marks.push({ pageIndex: page.pageIndex, records: page.records.length, atMs });
    this.#render();
  }

  terminal(terminal: SourceTerminal, atMs: number): void {
    this.#lane(terminal.source).terminal = {
      status: terminal.status,
      ...(terminal.errorCode === undefined ? {} : { code: terminal.errorCode }),
      atMs,
    };
    this.#render();
  }

  /** The final frame arrived at `finalAtMs`; the call (response read to its end) took `elapsedMs`. */
  finish(finalAtMs: number | undefined, elapsedMs: number): void {
    this.#finalAtMs = finalAtMs;
    this.#elapsedMs = elapsedMs;
    this.#render();
  }

  #lane(source: SourceRef): Lane {
    const key = `${source.source_type}/${source.source_identity}`;
    let lane = this.#lanes.get(key);
    if (lane === undefined) {
      lane = { source, marks: [] };
      this.#lanes.set(key, lane);
    }
    return lane;
  }

  /** The time the axis spans: the latest thing seen, so every mark fits. */
  #spanMs(): number {
    let span = Math.max(this.#finalAtMs ?? 0, this.#elapsedMs ?? 0, 1);
    for (const lane of this.#lanes.values()) {
      for (const mark of lane.marks) span = Math.max(span, mark.atMs);
      span = Math.max(span, lane.terminal?.atMs ?? 0);
    }
    return span;
  }

  #render(): void {
    const span = this.#spanMs();
    const at = (ms: number): string => `${((ms / span) * 100).toFixed(2)}%`;
    const lanes = [...this.#lanes.values()].map((lane) => this.#renderLane(lane, span, at));
    const summary =
      this.#elapsedMs === undefined
        ? h(
            'p',
            { class: 'timeline-summary' },
            `${this.#lanes.size} sources so far; waiting for the final result…`,
          )
        : h(
            'p',
            { class: 'timeline-summary', id: 'timeline-summary' },
            this.#finalAtMs === undefined
              ? 'No final frame arrived: the call has no confirmed result. '
              : `Final frame at ${Math.round(this.#finalAtMs)} ms. `,
            `Whole call: ${Math.round(this.#elapsedMs)} ms.`,
          );
    replace(
      this.#container,
      summary,
      h('ol', { class: 'lanes', id: 'timeline-lanes' }, ...lanes),
      h('p', { class: 'axis', 'aria-hidden': 'true' }, '0 ms', h('span', {}, `${Math.round(span)} ms`)),
      h(
        'p',
        { class: 'legend' },
        'Each blue mark is a page at its arrival time, labelled with its record count; the green or red bar is ' +
          'the source’s completion or error; the black line is the final frame.',
      ),
    );
  }

  #renderLane(lane: Lane, span: number, at: (ms: number) => string): HTMLElement {
    const name = `${lane.source.source_type}/${lane.source.source_identity}`;
    // Labels that would overlap go to the next row: the first row whose last label is far enough left.
    const rows: number[] = [];
    const marks = lane.marks.map((mark) => {
      const x = (mark.atMs / span) * 100;
      let row = rows.findIndex((last) => x - last >= MIN_LABEL_GAP_PERCENT);
      if (row < 0) row = rows.push(x) - 1;
      else rows[row] = x;
      const text = `page ${mark.pageIndex}: ${mark.records} records at ${Math.round(mark.atMs)} ms`;
      const element = h(
        'li',
        { class: 'mark', 'data-page': mark.pageIndex, 'data-at-ms': Math.round(mark.atMs), title: text },
        h('span', { 'aria-hidden': 'true' }, mark.records),
        h('span', { class: 'visually-hidden' }, text),
      );
      element.style.left = at(mark.atMs);
      element.style.top = `${row * ROW_REM + 0.15}rem`;
      return element;
    });
    const height = `${Math.max(rows.length, 1) * ROW_REM + 0.3}rem`;
    const bar = (className: string, ms: number): HTMLElement => {
      const element = h('li', { class: className, 'aria-hidden': 'true' });
      element.style.left = at(ms);
      element.style.height = height;
      return element;
    };
    const terminal = lane.terminal;
    const records = lane.marks.reduce((sum, mark) => sum + mark.records, 0);
    const counts = `${lane.marks.length} ${lane.marks.length === 1 ? 'page' : 'pages'}, ${records} records`;
    const state =
      terminal === undefined
        ? h('span', { class: 'state state-running' }, 'reading…')
        : terminal.status === 'complete'
          ? h('span', { class: 'state state-complete' }, `complete at ${Math.round(terminal.atMs)} ms`)
          : h(
              'span',
              { class: 'state state-error' },
              `${terminal.code ?? 'error'} at ${Math.round(terminal.atMs)} ms`,
            );
    const track = h(
      'ol',
      { class: 'track', 'aria-label': `pages of ${name}` },
      ...marks,
      terminal === undefined ? undefined : bar(`end end-${terminal.status}`, terminal.atMs),
      this.#finalAtMs === undefined ? undefined : bar('final-line', this.#finalAtMs),
    );
    track.style.height = height;
    return h(
      'li',
      { class: 'lane', 'data-source': name, 'data-state': terminal?.status ?? 'running' },
      h(
        'div',
        { class: 'lane-head' },
        h('span', { class: 'lane-name' }, name),
        state,
        h('span', { class: 'counts' }, counts),
      ),
      track,
      terminal?.status === 'error'
        ? h('p', { class: 'lane-error' }, describeSourceError(terminal.code ?? ''))
        : undefined,
    );
  }
}

/** Height of one row of page labels on a track. */
const ROW_REM = 1.6;

/** Labels closer than this share no row (a three-digit count is about this wide on a narrow screen). */
const MIN_LABEL_GAP_PERCENT = 5;
