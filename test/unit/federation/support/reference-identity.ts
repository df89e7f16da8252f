/**
 * The identity rules of DESIGN §4 written as plainly as possible, for property tests to hold `federate` and the
 * engine to: no union–find, no indexes, just the rules. Quadratic in the number of records, so only for the small
 * inputs property tests generate.
 */
import { singleKeyRecordRef } from '../../../../lambda/federation/index.js';
import type {
  FederatedRecord,
  MatchKind,
  NormalizedRecord,
  ProvenanceEntry,
} from '../../../../lambda/federation/index.js';

const compareText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
const entry = (r: NormalizedRecord): ProvenanceEntry => r.record.sources[0]!;

/** (source_type, source_identity, external_id) order. */
function byProvenance(a: NormalizedRecord, b: NormalizedRecord): number {
  const x = entry(a);
  const y = entry(b);
  return (
    compareText(x.source_type, y.source_type) ||
    compareText(x.source_identity, y.source_identity) ||
    compareText(x.external_id, y.external_id)
  );
}

/**
 * Of two versions of one provenance key, whether `a` replaces `b`: the later `observed_at`; on a tie, the
 * greater JSON of what a version carries (any fixed rule keeps the result independent of arrival order).
 */
function replaces(a: NormalizedRecord, b: NormalizedRecord): boolean {
  if (a.observedMs !== b.observedMs) return a.observedMs > b.observedMs;
  const carried = ({ record: r }: NormalizedRecord) =>
    JSON.stringify([r.sources[0], r.display_name, r.email, r.phone, r.lifecycle, r.attributes]);
  return carried(a) > carried(b);
}

const joined = (a: NormalizedRecord, b: NormalizedRecord) =>
  (a.emailKey !== null && a.emailKey === b.emailKey) || (a.phoneKey !== null && a.phoneKey === b.phoneKey);

/** Whether two members of `cluster` carry the same non-null key of one kind. */
function shareKey(
  cluster: readonly NormalizedRecord[],
  key: (r: NormalizedRecord) => string | null,
): boolean {
  return cluster.some((a, i) => key(a) !== null && cluster.some((b, j) => j !== i && key(b) === key(a)));
}

function merged(cluster: NormalizedRecord[]): FederatedRecord {
  const sorted = [...cluster].sort(byProvenance);
  const ranked = [...cluster].sort((a, b) => b.observedMs - a.observedMs || byProvenance(a, b));
  const first = (pick: (r: FederatedRecord) => string | null) =>
    ranked.map((r) => pick(r.record)).find((v) => v !== null) ?? null;
  const attributes: Record<string, unknown> = {};
  for (const { record } of ranked)
    for (const [key, value] of Object.entries(record.attributes))
      if (!Object.hasOwn(attributes, key))
        Object.defineProperty(attributes, key, {
          value,
          enumerable: true,
          writable: true,
          configurable: true,
        });
  const matched_on: MatchKind[] = [];
  if (shareKey(cluster, (r) => r.emailKey)) matched_on.push('email');
  if (shareKey(cluster, (r) => r.phoneKey)) matched_on.push('phone');
  return {
    record_ref: singleKeyRecordRef(entry(sorted[0]!)),
    display_name: first((r) => r.display_name),
    email: first((r) => r.email),
    phone: first((r) => r.phone),
    lifecycle: first((r) => r.lifecycle),
    sources: sorted.map(entry),
    identity_match: { matched_on, source_count: cluster.length },
    attributes,
  };
}

/** The federated records of `records` by the identity rules, in the result order. */
export function referenceFederate(records: readonly NormalizedRecord[]): FederatedRecord[] {
  // Rule 1: one version per provenance key.
  const versions: NormalizedRecord[] = [];
  for (const record of records) {
    const at = versions.findIndex((v) => byProvenance(v, record) === 0);
    if (at === -1) versions.push(record);
    else if (replaces(record, versions[at]!)) versions[at] = record;
  }
  // Rules 2 and 3: the connected parts of "shares an email or a phone", grown one record at a time.
  const clusters: NormalizedRecord[][] = [];
  const placed = new Set<NormalizedRecord>();
  for (const seed of versions) {
    if (placed.has(seed)) continue;
    const cluster = [seed];
    placed.add(seed);
    for (let i = 0; i < cluster.length; i++)
      for (const other of versions)
        if (!placed.has(other) && joined(cluster[i]!, other)) {
          placed.add(other);
          cluster.push(other);
        }
    clusters.push(cluster);
  }
  const out = clusters.map((c) => (c.length === 1 ? c[0]!.record : merged(c)));
  const name = (r: FederatedRecord) => r.display_name?.toLowerCase() ?? null;
  return out.sort((a, b) => {
    const x = name(a);
    const y = name(b);
    if (x !== y) return x === null ? 1 : y === null ? -1 : compareText(x, y);
    return compareText(a.record_ref, b.record_ref);
  });
}
