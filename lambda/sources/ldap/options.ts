/**
 * The `ldap` adapter kind's options (snake_case, as a directory source definition writes them), checked
 * all at once. The bind password is the definition's `credential_ref`, never an option.
 *
 * ```json
 * { "source_id": "acme-ldap", "adapter": "ldap", "credential_ref": "ACME_LDAP_PASSWORD",
 *   "options": { "url": "ldaps://ldap.example.com", "base_dn": "ou=people,dc=example,dc=com",
 *                "bind_dn": "cn=reader,ou=system,dc=example,dc=com" } }
 * ```
 *
 * `profile` says what kind of directory it is (`attribute-maps.ts`, `profiles.ts`): `standard` (the default), `active-directory`,
 * or `auto` (the rootDSE decides). `attributes` overrides the profile's mapping field by field.
 */
import { SourceConfigError } from '../registry/errors.js';
import type { SourceSpec } from '../registry/types.js';
import { LDAP_PROFILE_NAMES, PROFILE_ATTRIBUTES } from './attribute-maps.js';
import type { LdapAttributeMap, LdapProfileName, LdapProfileOption } from './attribute-maps.js';

/** The adapter kind this module builds. */
export const LDAP_ADAPTER = 'ldap';

/** Validated options of one LDAP source. */
export interface LdapSourceOptions {
  readonly url: URL;
  readonly startTls: boolean;
  readonly baseDn: string;
  readonly bindDn: string;
  /** Undefined: the profile's own. */
  readonly objectClass?: string;
  readonly pageSize: number;
  readonly profile: LdapProfileOption;
  /** The definition's field-by-field overrides of the profile's mapping. */
  readonly attributeOverrides: Partial<LdapAttributeMap>;
  /** PEM certificates to trust for this directory (instead of the platform's CA list), if any. */
  readonly tlsCa?: string;
  /** The name the server's certificate must carry, when it differs from the URL's host. */
  readonly tlsServerName?: string;
  readonly sourceType: string;
  readonly timeoutMs?: number;
}

/** The `standard` profile's mapping. */
export const DEFAULT_ATTRIBUTES: LdapAttributeMap = PROFILE_ATTRIBUTES.standard;

/** The mapping a source reads with under `profile`: the profile's, with the definition's overrides. */
export function attributeMapFor(options: LdapSourceOptions, profile: LdapProfileName): LdapAttributeMap {
  return { ...PROFILE_ATTRIBUTES[profile], ...options.attributeOverrides };
}

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
  'profile',
  'tls_ca',
  'tls_server_name',
];
const PEM = /^-----BEGIN CERTIFICATE-----[\s\S]{1,65536}-----END CERTIFICATE-----\s*$/;
const HOST = /^[A-Za-z0-9]([A-Za-z0-9-]{0,62})(\.[A-Za-z0-9]([A-Za-z0-9-]{0,62}))*$/;
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
  const objectClass = o['object_class'];
  if (objectClass !== undefined && (typeof objectClass !== 'string' || !ATTRIBUTE.test(objectClass)))
    problems.push('options.object_class must be an object class name');
  const profile = o['profile'] ?? 'standard';
  if (!(LDAP_PROFILE_NAMES as readonly unknown[]).includes(profile))
    problems.push(`options.profile must be one of ${LDAP_PROFILE_NAMES.join(', ')}`);
  const tlsCa = o['tls_ca'];
  if (tlsCa !== undefined && (typeof tlsCa !== 'string' || !PEM.test(tlsCa.trim())))
    problems.push('options.tls_ca must be PEM certificates');
  const tlsServerName = o['tls_server_name'];
  if (tlsServerName !== undefined && (typeof tlsServerName !== 'string' || !HOST.test(tlsServerName)))
    problems.push('options.tls_server_name must be a host name');
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
    ...(typeof objectClass === 'string' ? { objectClass } : {}),
    pageSize: pageSize as number,
    profile: profile as LdapProfileOption,
    attributeOverrides: attributes,
    ...(typeof tlsCa === 'string' ? { tlsCa } : {}),
    ...(typeof tlsServerName === 'string' ? { tlsServerName } : {}),
    sourceType: sourceType as string,
    ...(typeof timeout === 'number' ? { timeoutMs: timeout } : {}),
  };
}

function attributeMap(value: unknown, problems: string[]): Partial<LdapAttributeMap> {
  if (value === undefined) return {};
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    problems.push('options.attributes must be an object');
    return {};
  }
  const v = value as Record<string, unknown>;
  const out: { -readonly [K in keyof LdapAttributeMap]?: LdapAttributeMap[K] } = {};
  for (const [key, given] of Object.entries(v)) {
    if (key === 'extra') {
      if (!Array.isArray(given) || !given.every((a) => typeof a === 'string' && ATTRIBUTE.test(a)))
        problems.push('options.attributes.extra must be a list of attribute names');
      else out.extra = given as string[];
    } else if (key in DEFAULT_ATTRIBUTES) {
      if (typeof given !== 'string' || !ATTRIBUTE.test(given))
        problems.push(`options.attributes.${key} must be an attribute name`);
      else out[key as Exclude<keyof LdapAttributeMap, 'extra'>] = given;
    } else problems.push(`options.attributes.${key} is not a mapped field`);
  }
  return out;
}
