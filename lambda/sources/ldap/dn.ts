/**
 * Distinguished-name containment for the identity check: an entry belongs to the configured source only
 * if its DN is the base DN or lies under it. Compared on a normal form (RFC 4514 attribute types and
 * values case-folded, spaces around separators dropped), which covers what directories actually vary.
 */

/** A DN's RDNs in comparable form: lower-cased, without the spaces around `,`, `=` and `+`. */
export function normalRdns(dn: string): string[] {
  return dn.split(/(?<!\\),/).map((rdn) =>
    rdn
      .split(/(?<!\\)\+/)
      .map((ava) => ava.trim().replace(/\s*(?<!\\)=\s*/, '='))
      .join('+')
      .toLowerCase(),
  );
}

/** A DN's comparable form (its normal RDNs joined by `,`). */
export function normalDn(dn: string): string {
  return normalRdns(dn).join(',');
}

/**
 * Whether `dn` is `base` or an entry under it, RDN by RDN (an escaped `\,` inside a value is not a
 * separator, so `cn=x\,ou=people,…` is not under `ou=people,…`).
 */
export function isUnderBase(dn: string, base: string): boolean {
  const entry = normalRdns(dn);
  const root = normalRdns(base);
  if (entry.length < root.length) return false;
  const offset = entry.length - root.length;
  return root.every((rdn, i) => entry[offset + i] === rdn);
}
