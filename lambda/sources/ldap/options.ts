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
import {
  boolean,
  integer,
  listOf,
  objectOf,
  oneOf,
  option,
  optionTable,
  readContext,
  sourceTypeOption,
  text,
  timeoutOption,
  valueOf,
} from '../registry/option-table.js';
import type { OptionType } from '../registry/option-table.js';
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

const PEM = /^\s*-----BEGIN CERTIFICATE-----[\s\S]{1,65536}-----END CERTIFICATE-----\s*$/;
const HOST = /^[A-Za-z0-9]([A-Za-z0-9-]{0,62})(\.[A-Za-z0-9]([A-Za-z0-9-]{0,62}))*$/;
const ATTRIBUTE = text(/^[A-Za-z][A-Za-z0-9-]{0,63}$/, 'an attribute name', 'attribute name');
const DN = valueOf(
  'distinguished name',
  'a distinguished name',
  (v): v is string => typeof v === 'string' && v.length >= 3 && v.length <= 1024 && !v.includes('\u0000'),
);

/** `ldaps://host[:port]` or `ldap://host[:port]`, nothing after the host. */
const LDAP_URL: OptionType<URL> = {
  type: 'ldaps:// or ldap:// URL',
  check: (value, at, { problems }) => {
    try {
      const url = new URL(String(value));
      if (
        (url.protocol === 'ldaps:' || url.protocol === 'ldap:') &&
        (url.pathname === '' || url.pathname === '/')
      )
        return url;
    } catch {
      // refused below
    }
    problems.push(`${at} must be ldaps://host[:port] or ldap://host[:port] (with start_tls)`);
    return undefined;
  },
};

const ATTRIBUTE_OVERRIDES = optionTable(
  'attributes',
  {
    external_id: option(ATTRIBUTE, { meaning: 'the attribute of the external id' }),
    display_name: option(ATTRIBUTE, { meaning: 'the attribute of the display name' }),
    email: option(ATTRIBUTE, { meaning: 'the attribute of the email' }),
    phone: option(ATTRIBUTE, { meaning: 'the attribute of the phone' }),
    extra: option(listOf(ATTRIBUTE), { meaning: 'attributes copied into `attributes`' }),
  },
  { unknown: 'a mapped field' },
);

/** The `ldap` kind's options. */
export const LDAP_OPTIONS = optionTable(LDAP_ADAPTER, {
  url: option(LDAP_URL, {
    required: true,
    meaning: '`ldaps://host[:port]`, or `ldap://host[:port]` with `start_tls: true`',
  }),
  start_tls: option(boolean, {
    default: false,
    meaning: 'upgrade an `ldap://` connection with StartTLS before binding',
  }),
  tls_ca: option(text(PEM, 'PEM certificates', 'PEM'), {
    defaultText: "the platform's CAs",
    meaning: "PEM certificates to trust for this directory (an internal CA), instead of the platform's list",
  }),
  tls_server_name: option(text(HOST, 'a host name', 'host name'), {
    defaultText: "the URL's host",
    meaning: "the name the server's certificate must carry, when the URL's host differs (an IP address)",
  }),
  base_dn: option(DN, {
    required: true,
    meaning: 'the subtree this source is authorized for; every entry read must lie under it',
  }),
  bind_dn: option(DN, {
    required: true,
    meaning: 'the read-only account of the simple bind (its password is the credential)',
  }),
  profile: option(oneOf(LDAP_PROFILE_NAMES), {
    default: 'standard',
    meaning:
      'the kind of directory: `standard`, `active-directory` (below), or `auto` (read the rootDSE once)',
  }),
  object_class: option(text(/^[A-Za-z][A-Za-z0-9-]{0,63}$/, 'an object class name', 'object class'), {
    defaultText: '`inetOrgPerson` (`user` with `active-directory`)',
    meaning: 'the object class searched for',
  }),
  page_size: option(integer(1, 1000), {
    default: 100,
    meaning: "RFC 2696 page size; keep it within the server's limit (slapd `size.pr`, AD `MaxPageSize`)",
  }),
  attributes: option(objectOf(ATTRIBUTE_OVERRIDES), {
    defaultText:
      "the profile's: `entryUUID`, `cn`, `mail`, `telephoneNumber`, extra `uid`, `title`, `ou`, `employeeNumber`",
    meaning:
      "`{ external_id, display_name, email, phone, extra: [...] }`: overrides the profile's mapping field by field",
  }),
  source_type: sourceTypeOption('ldap'),
  timeout_ms: timeoutOption,
});

/** Reads an `ldap` definition's options; throws {@link SourceConfigError} listing every problem. */
export function ldapOptionsFromSpec(spec: SourceSpec): LdapSourceOptions {
  const context = readContext(LDAP_ADAPTER);
  const o = LDAP_OPTIONS.read(spec.options, 'options', context);
  if (spec.credential === undefined)
    context.problems.push('an ldap source needs a credential_ref (the bind password)');
  if (o === undefined || context.problems.length > 0)
    throw new SourceConfigError(spec.source_id, 'invalid_options', context.problems);
  const overrides = Object.entries(o.attributes ?? {}).filter(([, v]) => v !== undefined);
  return {
    url: o.url,
    startTls: o.start_tls,
    baseDn: o.base_dn,
    bindDn: o.bind_dn,
    ...(o.object_class === undefined ? {} : { objectClass: o.object_class }),
    pageSize: o.page_size,
    profile: o.profile,
    attributeOverrides: Object.fromEntries(overrides),
    ...(o.tls_ca === undefined ? {} : { tlsCa: o.tls_ca }),
    ...(o.tls_server_name === undefined ? {} : { tlsServerName: o.tls_server_name }),
    sourceType: o.source_type,
    ...(o.timeout_ms === undefined ? {} : { timeoutMs: o.timeout_ms }),
  };
}
