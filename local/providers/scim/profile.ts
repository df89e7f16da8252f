/**
 * Restricted-server profiles of the local SCIM server: the ways production SCIM services speak the
 * protocol their own way while staying within (or close to) RFC 7643/7644, each one switchable at run time:
 *
 * - `eqOnly`: the filter grammar of many hosted services — `eq` on `userName`, `emails.value`,
 *   `externalId` and `id`, joined only with `and`; any other operator or attribute is a `400 invalidFilter`
 *   (it still advertises `filter.supported: true`).
 * - `noServiceProviderConfig`: `GET /ServiceProviderConfig` answers `404`.
 * - `otherCase`: attribute names and schema URNs in other cases (`resources`, `TotalResults`, `USERNAME`,
 *   `Meta.LASTMODIFIED` …), which RFC 7643 §2.1 makes equivalent.
 * - `contentType`: the media type of `/Users` answers (a proxy's `text/html` error page).
 */
import type { Filter } from 'scim2-parse-filter';

/** The switches of {@link ScimBehaviour.profile}. */
export interface ScimProfile {
  eqOnly: boolean;
  noServiceProviderConfig: boolean;
  otherCase: boolean;
  contentType?: string;
}

/** The full-featured server. */
export const FULL_PROFILE: Readonly<ScimProfile> = Object.freeze({
  eqOnly: false,
  noServiceProviderConfig: false,
  otherCase: false,
});

const EQ_ATTRIBUTES = new Set(['username', 'emails.value', 'externalid', 'id']);

/** Why an `eqOnly` server refuses `filter`, or undefined when it accepts it. */
export function eqOnlyRefusal(filter: Filter): string | undefined {
  if (filter.op === 'and') {
    for (const child of filter.filters) {
      const refusal = eqOnlyRefusal(child);
      if (refusal !== undefined) return refusal;
    }
    return undefined;
  }
  if (filter.op !== 'eq') return `filter operator ${filter.op} is not supported`;
  if (!EQ_ATTRIBUTES.has(filter.attrPath.toLowerCase()))
    return `attribute ${filter.attrPath} is not filterable`;
  return undefined;
}

/** How an `otherCase` server spells names (anything not listed keeps its case, then alternates). */
const SPELLING: Readonly<Record<string, string>> = {
  Resources: 'resources',
  totalResults: 'TotalResults',
  itemsPerPage: 'ItemsPerPage',
  startIndex: 'STARTINDEX',
  userName: 'USERNAME',
  displayName: 'displayname',
  emails: 'Emails',
  value: 'Value',
  meta: 'Meta',
  lastModified: 'LASTMODIFIED',
  location: 'Location',
  id: 'Id',
  active: 'Active',
  schemas: 'Schemas',
};

/** `body` with every object key respelled as an `otherCase` server does (schema URNs upper-cased). */
export function respelled(body: unknown): unknown {
  if (Array.isArray(body)) return body.map(respelled);
  if (typeof body !== 'object' || body === null) return body;
  return Object.fromEntries(
    Object.entries(body).map(([key, value]) => [
      SPELLING[key] ?? (key.startsWith('urn:') ? key.toUpperCase() : key),
      respelled(value),
    ]),
  );
}
