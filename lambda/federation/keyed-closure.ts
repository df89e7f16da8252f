/**
 * `get_person` over keyed sources: the requested person's cluster is the connected component of its anchor
 * (the record whose own ref is the requested one) under the identity rules' email and phone joins. Sources
 * read in full (live) are already in `pool`; keyed sources are asked only for the keys the component holds,
 * round after round, until a round finds no one new. The component found is the one a read of every source
 * would have found, without listing the keyed sources.
 */
import type { KeyedReader, PersonKeys, RawRecord } from './port.js';
import type { NormalizedRecord } from './validate.js';

/** What one closure round needs from the engine. */
export interface ClosureOptions {
  readonly recordRef: string;
  readonly readers: readonly KeyedReader[];
  /** Every record delivered so far (live sources in full, keyed finds as they arrive). */
  readonly pool: () => readonly NormalizedRecord[];
  /** Validates and delivers a keyed source's finds; resolves once they are in `pool`. False stops the closure. */
  readonly deliver: (reader: number, records: readonly RawRecord[]) => Promise<boolean>;
  readonly signal: AbortSignal;
}

interface Keys {
  readonly recordRefs: Set<string>;
  readonly emails: Set<string>;
  readonly phones: Set<string>;
}

const keysOf = (keys: Keys): PersonKeys => ({
  recordRefs: [...keys.recordRefs],
  emails: [...keys.emails],
  phones: [...keys.phones],
});

/** Grows `keys` over `pool` until no record joins; returns whether any key was added. */
function grow(keys: Keys, pool: readonly NormalizedRecord[]): boolean {
  let added = false;
  for (let changed = true; changed;) {
    changed = false;
    for (const member of pool) {
      const joins =
        keys.recordRefs.has(member.record.record_ref) ||
        (member.emailKey !== null && keys.emails.has(member.emailKey)) ||
        (member.phoneKey !== null && keys.phones.has(member.phoneKey));
      if (!joins) continue;
      if (member.emailKey !== null && !keys.emails.has(member.emailKey)) {
        keys.emails.add(member.emailKey);
        changed = added = true;
      }
      if (member.phoneKey !== null && !keys.phones.has(member.phoneKey)) {
        keys.phones.add(member.phoneKey);
        changed = added = true;
      }
    }
  }
  return added;
}

/** Only the keys not asked before, and marks them asked. */
function unasked(keys: Keys, asked: Keys): PersonKeys {
  const fresh: Keys = { recordRefs: new Set(), emails: new Set(), phones: new Set() };
  for (const kind of ['recordRefs', 'emails', 'phones'] as const)
    for (const key of keys[kind])
      if (!asked[kind].has(key)) {
        asked[kind].add(key);
        fresh[kind].add(key);
      }
  return keysOf(fresh);
}

const isEmpty = (keys: PersonKeys) =>
  keys.recordRefs.length === 0 && keys.emails.length === 0 && keys.phones.length === 0;

/** Asks the keyed readers round after round until the anchor's component is closed (or the signal fires). */
export async function closeCluster(options: ClosureOptions): Promise<void> {
  const keys: Keys = { recordRefs: new Set([options.recordRef]), emails: new Set(), phones: new Set() };
  const asked: Keys = { recordRefs: new Set(), emails: new Set(), phones: new Set() };
  for (;;) {
    grow(keys, options.pool());
    const round = unasked(keys, asked);
    if (isEmpty(round) || options.signal.aborted) return;
    const finds = await Promise.all(options.readers.map((reader) => reader.find(round)));
    for (let i = 0; i < finds.length; i++) {
      const found = finds[i] ?? [];
      if (found.length > 0 && !(await options.deliver(i, found))) return;
    }
  }
}
