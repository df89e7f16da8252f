/**
 * The `ldap` adapter kind's options (snake_case, as a directory source definition writes them), checked
 * all at once. The bind password is the definition's `credential_ref`, never an option.
 *
 * ```json
 * { "source_id": "acme-ldap", "adapter": "ldap", "credential_ref": "ACME_LDAP_PASSWORD",
 *   "options": { "url": "ldaps://ldap.example.com", "base_dn": "ou=people,dc=example,dc=com",
 *                "bind_dn": "cn=reader,ou=system,dc=example,dc=com" } }
 * ```
 */
import { SourceConfigError } from '../registry/errors.js';
import type { SourceSpec } from '../registry/types.js';

/** The adapter kind this module builds. */
export const LDAP_ADAPTER = 'ldap';

/** Which entry attribute feeds each record field. */
export interface LdapAttributeMap {
  readonly external_id: string;
  readonly display_name: string;
  readonly email: string;
  readonly phone: string;
  /** Copied into `attributes` under their own (lower-cased) names when present. */
  readonly extra: readonly string[];
}

/** Validated options of one LDAP source. */
export interface LdapSourceOptions {
  readonly url: URL;
  readonly startTls: boolean;
  readonly baseDn: string;
  readonly bindDn: string;
  readonly objectClass: string;
  readonly pageSize: number;
  readonly attributes: LdapAttributeMap;
  readonly sourceType: string;
  readonly timeoutMs?: number;
}

export const DEFAULT_ATTRIBUTES: LdapAttributeMap = {
  external_id: 'entryUUID',
  display_name: 'cn',
  email: 'mail',
  phone: 'telephoneNumber',
  extra: ['uid', 'title', 'ou', 'employeeNumber'],
};

const KEYS = [
  'url',
  'start_tls',
  'base_dn',
  'bind_dn',
  'object_class',
  'page_size',
  'attributes',
  'source_type',
  'timeout_ms',
];
const ATTRIBUTE = /^[A-Za-z][A-Za-z0-9-]{0,63}$/;
const NAME = /^[A-Za-z0-9][A-Za-z0-9._@:-]{0,127}$/;
const isDn = (v: unknown): v is string =>
  typeof v === 'string' && v.length >= 3 && v.length <= 1024 && !v.includes('\u0000');

/** Reads an `ldap` definition's options; throws {@link SourceConfigError} listing every problem. */
export function ldapOptionsFromSpec(spec: SourceSpec): LdapSourceOptions {
  const o = spec.options;
  const problems: string[] = [];
  for (const key of Object.keys(o))
    if (!KEYS.includes(key)) problems.push(`options.${key} is not an ldap option`);
  let url: URL | undefined;
  try {
    url = new URL(String(o['url']));
    if (url.protocol !== 'ldaps:' && url.protocol !== 'ldap:') throw new Error('scheme');
    if (url.pathname !== '' && url.pathname !== '/') throw new Error('path');
  } catch {
    problems.push('options.url must be ldaps://host[:port] or ldap://host[:port] (with start_tls)');
  }
  const startTls = o['start_tls'] ?? false;
  if (typeof startTls !== 'boolean') problems.push('options.start_tls must be a boolean');
  for (const key of ['base_dn', 'bind_dn'])
    if (!isDn(o[key])) problems.push(`options.${key} must be a distinguished name`);
  const objectClass = o['object_class'] ?? 'inetOrgPerson';
  if (typeof objectClass !== 'string' || !ATTRIBUTE.test(objectClass))
    problems.push('options.object_class must be an object class name');
  const pageSize = o['page_size'] ?? 100;
  if (!(Number.isSafeInteger(pageSize) && (pageSize as number) >= 1 && (pageSize as number) <= 1000))
    problems.push('options.page_size must be an integer from 1 to 1000');
  const attributes = attributeMap(o['attributes'], problems);
  const sourceType = o['source_type'] ?? 'ldap';
  if (typeof sourceType !== 'string' || !NAME.test(sourceType))
    problems.push(`options.source_type must match ${NAME}`);
  const timeout = o['timeout_ms'];
  if (timeout !== undefined && !(Number.isSafeInteger(timeout) && (timeout as number) > 0))
    problems.push('options.timeout_ms must be a positive integer');
  if (spec.credential === undefined)
    problems.push('an ldap source needs a credential_ref (the bind password)');
  if (problems.length > 0 || url === undefined)
    throw new SourceConfigError(spec.source_id, 'invalid_options', problems);
  return {
    url,
    startTls: startTls === true,
    baseDn: o['base_dn'] as string,
    bindDn: o['bind_dn'] as string,
    objectClass: objectClass as string,
    pageSize: pageSize as number,
    attributes,
    sourceType: sourceType as string,
    ...(typeof timeout === 'number' ? { timeoutMs: timeout } : {}),
  };
}

function attributeMap(value: unknown, problems: string[]): LdapAttributeMap {
  if (value === undefined) return DEFAULT_ATTRIBUTES;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    problems.push('options.attributes must be an object');
    return DEFAULT_ATTRIBUTES;
  }
  const v = value as Record<string, unknown>;
  const out: Record<string, unknown> = { ...DEFAULT_ATTRIBUTES };
  for (const [key, given] of Object.entries(v)) {
    if (key === 'extra') {
      if (!Array.isArray(given) || !given.every((a) => typeof a === 'string' && ATTRIBUTE.test(a)))
        problems.push('options.attributes.extra must be a list of attribute names');
      else out[key] = given;
    } else if (key in DEFAULT_ATTRIBUTES) {
      if (typeof given !== 'string' || !ATTRIBUTE.test(given))
        problems.push(`options.attributes.${key} must be an attribute name`);
      else out[key] = given;
    } else problems.push(`options.attributes.${key} is not a mapped field`);
  }
  return out as unknown as LdapAttributeMap;
}
