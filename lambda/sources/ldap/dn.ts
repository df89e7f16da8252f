/**
 * Distinguished-name containment for the identity check: an entry belongs to the configured source only
 * if its DN is the base DN or lies under it. Compared on a normal form (RFC 4514 attribute types and
 * values case-folded, spaces around separators dropped), which covers what directories actually vary.
 */

/** A DN's comparable form: lower-cased RDNs without the spaces around `,`, `=` and `+`. */
export function normalDn(dn: string): string {
  return dn
    .split(/(?<!\\),/)
    .map((rdn) =>
      rdn
        .split(/(?<!\\)\+/)
        .map((ava) => ava.trim().replace(/\s*(?<!\\)=\s*/, '='))
        .join('+'),
    )
    .join(',')
    .toLowerCase();
}

/** Whether `dn` is `base` or an entry under it. */
export function isUnderBase(dn: string, base: string): boolean {
  const entry = normalDn(dn);
  const root = normalDn(base);
  return entry === root || entry.endsWith(`,${root}`);
}
