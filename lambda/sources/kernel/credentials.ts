/**
 * Credentials as provider requests carry them. The value comes from the source's credential resolver
 * inside the read (never at construction), and only ever goes into an `Authorization` header or an LDAP
 * bind: a failure to resolve it ends the source with `provider_authorization_required`, naming nothing.
 */
import { ProviderError } from './errors.js';

/** The part of a source's bound credential the kernel uses (the registry's `ProviderCredential`). */
export interface CredentialSource {
  readonly name: string;
  value(): Promise<string>;
}

/** The credential's value, or `provider_authorization_required` when it is absent, unresolvable or empty. */
export async function resolveCredential(credential: CredentialSource | undefined): Promise<string> {
  if (credential === undefined)
    throw new ProviderError('provider_authorization_required', 'credential_unavailable');
  let value: string;
  try {
    value = await credential.value();
  } catch {
    throw new ProviderError('provider_authorization_required', 'credential_unavailable');
  }
  if (value === '') throw new ProviderError('provider_authorization_required', 'credential_unavailable');
  return value;
}

/** `Authorization: Bearer <token>`. */
export function bearerAuthorization(token: string): string {
  return `Bearer ${token}`;
}

/**
 * `Authorization: Basic …` from a `user:password` credential value (RFC 7617: the user id may not contain
 * a colon, so the first colon splits them).
 */
export function basicAuthorization(userAndPassword: string): string {
  if (!userAndPassword.includes(':'))
    throw new ProviderError('provider_authorization_required', 'credential_unavailable');
  return `Basic ${Buffer.from(userAndPassword, 'utf8').toString('base64')}`;
}
