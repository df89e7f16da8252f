/**
 * The platform's one matching semantics, used wherever a query is answered here rather than by the
 * provider (a fixture, a provider that cannot filter, an operation a definition has no URL for):
 *
 * - `search_people` finds a person when the query text is contained in the display name, the user name /
 *   login, or any of the emails; an empty query finds everyone.
 * - Text is compared after {@link foldForMatch}: Unicode compatibility normalisation (NFKC) and caseless
 *   matching, so `renée` typed composed finds a stored decomposed `Renée`, `ﬁ` finds `fi` and `STRASSE`
 *   finds `Straße`.
 * - `list_people` with `updated_since` keeps what changed at or after it; `get_person` keeps everyone (a
 *   record_ref digests a cross-source cluster's key, docs/federation.md).
 */
import type { RawRecord, SourceQuery } from '../../federation/index.js';

/** A selector of mapped records: whether one answers a query. */
export type RecordMatch = (record: RawRecord) => boolean;

/**
 * NFKC, then caseless: JavaScript has no Unicode case folding (`toLowerCase` keeps `ß`, `ς`, `ſ` apart from
 * `ss`, `σ`, `s`), and lower → upper → lower reaches the full case-folded form for every letter whose
 * folding is a case mapping (`ß`/`ẞ` → `ss`, `ς` → `σ`, `ſ` → `s`, `ﬁ` → `fi`). It differs from the
 * Unicode CaseFolding table only where that table is not a case mapping (Cherokee folds to upper case
 * there, here both cases meet in lower case) and for dotless `ı`, which meets `i` here. The final NFKC
 * recomposes what case mapping decomposed (`ΐ`). Locale-independent: `toLocaleLowerCase('und')` would be
 * the same root-locale mapping.
 */
export function foldForMatch(text: string): string {
  return text.normalize('NFKC').toLowerCase().toUpperCase().toLowerCase().normalize('NFKC');
}

/** Whether the (already folded) `needle` is contained in any of `values`. */
export function anyContains(needle: string, values: Iterable<string | null | undefined>): boolean {
  for (const value of values)
    if (typeof value === 'string' && foldForMatch(value).includes(needle)) return true;
  return false;
}

/**
 * The text a federated record is searched by: its display name, its email, and the user name / login and
 * further emails an adapter keeps in `attributes` (`user_name`, `login`, `emails`).
 */
export function recordSearchText(record: RawRecord): (string | null | undefined)[] {
  const attributes = record.attributes ?? {};
  const more = attributes['emails'];
  return [
    record.display_name,
    record.email,
    attributes['user_name'] as string | undefined,
    attributes['login'] as string | undefined,
    ...(Array.isArray(more) ? (more as unknown[]).filter((v): v is string => typeof v === 'string') : []),
  ];
}

/**
 * A predicate answering `query` for one item (a record, or a provider's raw item through `textOf`), or
 * undefined when the query keeps every item.
 */
export function localMatcher<T>(
  query: SourceQuery,
  textOf: (item: T) => Iterable<string | null | undefined>,
  changedAt: (item: T) => string | undefined,
): ((item: T) => boolean) | undefined {
  switch (query.operation) {
    case 'search_people': {
      const needle = foldForMatch(query.query.trim());
      return needle === '' ? undefined : (item) => anyContains(needle, textOf(item));
    }
    case 'get_person':
      return undefined;
    case 'list_people': {
      const since = query.updated_since === undefined ? Number.NaN : Date.parse(query.updated_since);
      if (Number.isNaN(since)) return undefined;
      return (item) => {
        const at = changedAt(item);
        // Without a readable change time the item may have changed: kept (never dropped silently).
        const parsed = at === undefined ? Number.NaN : Date.parse(at);
        return Number.isNaN(parsed) || parsed >= since;
      };
    }
  }
}

/** The records of `all` that answer `query`, in order, cut at a search's `limit`. */
export function matchRecords(all: readonly RawRecord[], query: SourceQuery): RawRecord[] {
  const keep = localMatcher<RawRecord>(query, recordSearchText, (r) => r.observed_at);
  const hits = keep === undefined ? [...all] : all.filter(keep);
  return query.operation === 'search_people' && query.limit !== undefined ? hits.slice(0, query.limit) : hits;
}
