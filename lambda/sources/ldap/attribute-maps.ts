/**
 * The profile names and each profile's attribute mapping, apart from the rest of the profiles so that
 * reading a definition's options (at cold start) does not load the LDAP client (`profiles.ts` does).
 */

/** Which entry attribute feeds each record field. */
export interface LdapAttributeMap {
  readonly external_id: string;
  readonly display_name: string;
  readonly email: string;
  readonly phone: string;
  /** Copied into `attributes` under their own (lower-cased) names when present. */
  readonly extra: readonly string[];
}

/**
 * The account names an Active Directory search compares beside the display name and email (`profiles.ts`);
 * its default mapping copies them into a record's attributes under their lower-cased names.
 */
export const AD_ACCOUNT_NAMES = ['userPrincipalName', 'sAMAccountName'] as const;

/** The profile names an operator may write (`auto` reads the rootDSE once to choose). */
export const LDAP_PROFILE_NAMES = ['standard', 'active-directory', 'auto'] as const;
export type LdapProfileOption = (typeof LDAP_PROFILE_NAMES)[number];
export type LdapProfileName = Exclude<LdapProfileOption, 'auto'>;

/** Each profile's mapping, before a definition's overrides. */
export const PROFILE_ATTRIBUTES: Readonly<Record<LdapProfileName, LdapAttributeMap>> = {
  standard: {
    external_id: 'entryUUID',
    display_name: 'cn',
    email: 'mail',
    phone: 'telephoneNumber',
    extra: ['uid', 'title', 'ou', 'employeeNumber'],
  },
  'active-directory': {
    external_id: 'objectGUID',
    display_name: 'displayName',
    email: 'mail',
    phone: 'telephoneNumber',
    extra: ['userPrincipalName', 'sAMAccountName', 'mobile', 'title', 'department'],
  },
};
