/**
 * The authoritative final result (contract §5): the merged people in a table, each with the sources that
 * contributed and why they were joined (`identity_match`), and the result's metadata and source errors.
 */
import type { ConfirmedOutcome, SourceResultsOutcome } from '../client/source-results-types.js';
import { h, replace } from './dom.js';
import { describeSourceError } from './source-errors.js';

interface Provenance {
  source_type?: unknown;
  source_identity?: unknown;
  external_id?: unknown;
}

interface PersonRecord {
  record_ref?: unknown;
  display_name?: unknown;
  email?: unknown;
  phone?: unknown;
  lifecycle?: unknown;
  sources?: unknown;
  identity_match?: unknown;
}

/** A scalar as text; nested values as JSON (records are data, never markup). */
function text(value: unknown): string {
  if (value === null || value === undefined) return '—';
  if (typeof value === 'string') return value;
  return typeof value === 'number' || typeof value === 'boolean' ? String(value) : JSON.stringify(value);
}

/** Why a record is one person: `null` for one provenance entry, else the keys that joined the entries. */
export function explainIdentityMatch(match: unknown): string {
  if (match === null || match === undefined) return 'single source';
  const { matched_on: on, source_count: count } = match as { matched_on?: unknown; source_count?: unknown };
  const keys = Array.isArray(on) ? on.map(String).join(', ') : 'unknown keys';
  return `merged on ${keys} across ${text(count)} sources`;
}

function sourcesCell(sources: unknown): HTMLElement {
  const entries = Array.isArray(sources) ? (sources as Provenance[]) : [];
  return h(
    'ul',
    { class: 'provenance' },
    ...entries.map((entry) =>
      h(
        'li',
        {},
        `${text(entry.source_type)}/${text(entry.source_identity)}`,
        h('span', { class: 'external-id' }, ` (${text(entry.external_id)})`),
      ),
    ),
  );
}

function metadataList(outcome: ConfirmedOutcome): HTMLElement {
  const metadata = outcome.metadata ?? {};
  const rows: [string, unknown][] = [
    ['completeness', outcome.completeness],
    ['isError', outcome.isError],
    ['result_count', outcome.resultCount],
    ['retrieval_mode', metadata['retrieval_mode']],
    ['cache_baseline_applied', metadata['cache_baseline_applied']],
    ['source_delta_applied', metadata['source_delta_applied']],
    ['observed_at', metadata['observed_at']],
  ];
  return h(
    'dl',
    { class: 'metadata', id: 'result-metadata' },
    ...rows.flatMap(([name, value]) => [h('dt', {}, name), h('dd', { 'data-field': name }, text(value))]),
  );
}

/** Renders the outcome of a call into `container`. */
export function renderResult(container: HTMLElement, outcome: SourceResultsOutcome): void {
  if (!outcome.confirmed) {
    replace(
      container,
      h(
        'p',
        { class: 'notice notice-error', role: 'alert' },
        `No confirmed result (${outcome.cause}): the stream ended before the final response. Retry the call.`,
      ),
    );
    return;
  }
  if (outcome.error !== undefined) {
    replace(
      container,
      h(
        'p',
        { class: 'notice notice-error', role: 'alert' },
        `JSON-RPC error ${outcome.error.code}: ${outcome.error.message}`,
      ),
    );
    return;
  }
  if (outcome.records === undefined) {
    replace(container, h('pre', { class: 'raw' }, JSON.stringify(outcome.result ?? {}, null, 2)));
    return;
  }
  const records = outcome.records as PersonRecord[];
  const errors = outcome.sourceErrors.map((error) =>
    h(
      'li',
      {},
      h('strong', {}, `${error.source.source_type}/${error.source.source_identity}: ${error.code}`),
      ` — ${describeSourceError(error.code)}`,
    ),
  );
  replace(
    container,
    metadataList(outcome),
    errors.length === 0
      ? h('p', { class: 'notice' }, 'No source errors.')
      : h(
          'section',
          { 'aria-labelledby': 'source-errors-heading' },
          h('h3', { id: 'source-errors-heading' }, 'Source errors'),
          h('ul', { class: 'source-errors' }, ...errors),
        ),
    h(
      'div',
      { class: 'table-frame', tabindex: 0, role: 'region', 'aria-labelledby': 'result-caption' },
      h(
        'table',
        { id: 'result-table' },
        h('caption', { id: 'result-caption' }, `${records.length} people in the final result`),
        h(
          'thead',
          {},
          h(
            'tr',
            {},
            ...['Person', 'Email', 'Phone', 'Lifecycle', 'Sources', 'Identity match'].map((name) =>
              h('th', { scope: 'col' }, name),
            ),
          ),
        ),
        h(
          'tbody',
          {},
          ...records.map((record) =>
            h(
              'tr',
              { 'data-record-ref': text(record.record_ref) },
              h('th', { scope: 'row' }, text(record.display_name)),
              h('td', {}, text(record.email)),
              h('td', {}, text(record.phone)),
              h('td', {}, text(record.lifecycle)),
              h('td', {}, sourcesCell(record.sources)),
              h('td', {}, explainIdentityMatch(record.identity_match)),
            ),
          ),
        ),
      ),
    ),
  );
}
