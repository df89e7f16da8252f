/**
 * Reading one Graph collection page without losing records. Graph names the members `value` and
 * `@odata.nextLink` (OData JSON Format 4.0); OData 4.01 lets a service drop the `odata.` prefix
 * (`@nextLink`) and OData 3 wrote `odata.nextLink`, and a proxy may change a member's case. Each spelling is
 * read, so a next link is never overlooked, which would end the read `complete` with records missing. A
 * page that has no readable `value` array, two different next links, or a next link that is not a string,
 * cannot be trusted: the source fails (`source_unavailable`) instead.
 */
import { ProviderError } from '../kernel/index.js';

/** The records and the next link of one page. */
export interface GraphPage {
  readonly value: readonly unknown[];
  readonly nextLink: string | undefined;
}

// The next-link names as Graph (OData 4.0), OData 4.01 and OData 3 write them, compared lower-cased.
const NEXT_LINK = new Set(
  ['@odata.nextLink', '@nextLink', 'odata.nextLink'].map((name) => name.toLowerCase()),
);
const unreadable = (status: number) => new ProviderError('source_unavailable', 'invalid_response', status);

/** The members of `body` whose lower-cased names `names` holds. */
function membersNamed(body: Readonly<Record<string, unknown>>, names: ReadonlySet<string>): unknown[] {
  return Object.entries(body)
    .filter(([name]) => names.has(name.toLowerCase()))
    .map(([, value]) => value);
}

// The delta-link names, as NEXT_LINK.
const DELTA_LINK = new Set(
  ['@odata.deltaLink', '@deltaLink', 'odata.deltaLink'].map((name) => name.toLowerCase()),
);

/** A page of a delta round: its next link while the round goes on, its delta link on the last page. */
export interface GraphDeltaPage extends GraphPage {
  readonly deltaLink: string | undefined;
}

/**
 * Reads a `/users/delta` page as {@link readGraphPage} reads a list page. A page carries exactly one of the
 * two links (user-delta.md): one with both, or with neither, cannot be trusted.
 */
export function readGraphDeltaPage(body: unknown, status: number): GraphDeltaPage {
  const page = readGraphPage(body, status);
  const deltaLink = oneLink(body as Readonly<Record<string, unknown>>, DELTA_LINK, status);
  if ((page.nextLink === undefined) === (deltaLink === undefined)) throw unreadable(status);
  return { ...page, deltaLink };
}

/** Reads a Graph page body; throws `source_unavailable` (`invalid_response`) for one it cannot trust. */
export function readGraphPage(body: unknown, status: number): GraphPage {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw unreadable(status);
  const record = body as Readonly<Record<string, unknown>>;
  const values = membersNamed(record, new Set(['value']));
  const value = values.length === 1 ? values[0] : undefined;
  if (!Array.isArray(value)) throw unreadable(status);
  return { value, nextLink: oneLink(record, NEXT_LINK, status) };
}

/** The one link `body` names under any of `names`; two different ones, or one that is not a string: unreadable. */
function oneLink(
  body: Readonly<Record<string, unknown>>,
  names: ReadonlySet<string>,
  status: number,
): string | undefined {
  const links = new Set(
    membersNamed(body, names).filter((link) => link !== null && link !== undefined && link !== ''),
  );
  if (links.size > 1) throw unreadable(status);
  const [link] = links;
  if (link !== undefined && typeof link !== 'string') throw unreadable(status);
  return link;
}
