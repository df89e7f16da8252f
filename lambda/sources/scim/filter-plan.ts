/**
 * Which filters a read sends, and what a server that refuses them gets next. Many SCIM servers accept
 * only part of RFC 7644's filter grammar while advertising `filter.supported`, so under the `auto` option
 * a refused filter (`400` with `scimType` `invalidFilter`/`invalidSyntax`, or `501`) degrades one step:
 *
 * | query | steps |
 * |---|---|
 * | `search_people` | `co` on display name, user name and emails → `eq` on user name, then on emails (a whole email only) → every user, matched here |
 * | `list_people` with `updated_since` | `meta.lastModified ge` → every user, compared here |
 *
 * What a server refused is remembered for the life of the warm function, keyed by its base URL (a source
 * rebuilt from a refreshed definition keeps it), so later reads start at the step that worked.
 */
import type { SourceQuery } from '../../federation/index.js';
import { exactFilters, isWholeEmail, scimFilterFor } from './filters.js';
import type { FilterOption } from './options.js';

/** The step a read runs: the listings it sends (each `filter`, undefined: every user) and who matches. */
export interface FilterStep {
  readonly kind: 'none' | 'contains' | 'exact' | 'updated_since' | 'local';
  /** One listing per entry; their users are united by id. */
  readonly filters: readonly (string | undefined)[];
  /** Whether the query is answered here, by the kernel's local matching. */
  readonly matchHere: boolean;
}

interface Learned {
  search: 'contains' | 'exact' | 'local';
  since: 'server' | 'local';
}

const learned = new Map<string, Learned>();
const noted = new Set<string>();

/** Forgets every server's refusals (a new warm function; tests). */
export function forgetLearnedFilters(): void {
  learned.clear();
  noted.clear();
}

/** True the first time `what` is noted for the server at `key` in this warm function. */
export function firstNote(key: string, what: string): boolean {
  const id = `${what} ${key}`;
  if (noted.has(id)) return false;
  noted.add(id);
  return true;
}

const NONE: FilterStep = { kind: 'none', filters: [undefined], matchHere: false };
const LOCAL: FilterStep = { kind: 'local', filters: [undefined], matchHere: true };

/** The step `query` starts at on the server at `key`. */
export function firstStep(
  key: string,
  query: SourceQuery,
  option: FilterOption,
  serverFilters: boolean,
): FilterStep {
  const wanted = wantedFilter(query);
  if (wanted === undefined) return NONE;
  if (option === 'local' || !serverFilters) return LOCAL;
  const known = option === 'server' ? undefined : learned.get(key);
  if (wanted.kind === 'updated_since')
    return known?.since === 'local'
      ? LOCAL
      : { kind: 'updated_since', filters: [wanted.filter], matchHere: false };
  switch (known?.search ?? 'contains') {
    case 'contains':
      return { kind: 'contains', filters: [wanted.filter], matchHere: false };
    case 'exact':
      return isWholeEmail(wanted.text)
        ? { kind: 'exact', filters: exactFilters(wanted.text), matchHere: false }
        : LOCAL;
    case 'local':
      return LOCAL;
  }
}

/**
 * Records that the server at `key` refused `step` and returns the step to try instead, or undefined when
 * there is none (the option is not `auto`, or nothing was filtered). `changed` says whether this
 * refusal taught something new (the one log line per server and warm function).
 */
export function afterRefusal(
  key: string,
  query: SourceQuery,
  option: FilterOption,
  step: FilterStep,
): { next: FilterStep; changed: boolean } | undefined {
  if (option !== 'auto' || step.kind === 'none' || step.kind === 'local') return undefined;
  const known = learned.get(key) ?? { search: 'contains', since: 'server' };
  const before = `${known.search}/${known.since}`;
  // Only ever forward: a read that started before another one's refusal cannot undo what it taught.
  if (step.kind === 'updated_since') known.since = 'local';
  else if (step.kind === 'exact' || known.search === 'contains')
    known.search = step.kind === 'exact' ? 'local' : 'exact';
  learned.set(key, known);
  return { next: firstStep(key, query, option, true), changed: before !== `${known.search}/${known.since}` };
}

function wantedFilter(
  query: SourceQuery,
): { kind: 'search'; text: string; filter: string } | { kind: 'updated_since'; filter: string } | undefined {
  const filter = scimFilterFor(query);
  if (filter === undefined) return undefined;
  return query.operation === 'search_people'
    ? { kind: 'search', text: query.query.trim(), filter }
    : { kind: 'updated_since', filter };
}
