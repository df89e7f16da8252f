/**
 * What each source error code means to an operator, and what to do about it (docs/sources.md, "Error
 * codes"). One table: the timeline and the result view both read it, and a unit test keeps its codes equal
 * to the client's list of the five codes.
 */
export const SOURCE_ERROR_MEANINGS: Readonly<Record<string, { meaning: string; action: string }>> = {
  source_timeout: {
    meaning: "The source's timeout or the operation's deadline passed; pages delivered before are kept.",
    action: 'Raise timeout_ms or reduce page_size; check provider latency.',
  },
  source_identity_mismatch: {
    meaning: 'A record was not this source’s (another host or tenant, or outside the configured base).',
    action: 'The URL points at the wrong tenant or a proxy serves the wrong backend: fix the definition.',
  },
  provider_authorization_required: {
    meaning: 'The provider refused the credentials (HTTP 401/403, LDAP 49/50) or they could not be resolved.',
    action: "Rotate or fix the secret; check the account's permissions or its grant in the provider.",
  },
  rate_limited: {
    meaning: 'The provider asked to wait longer than the time left for this read.',
    action: 'Lower the load (fewer concurrent reads, larger pages) or ask the provider for more quota.',
  },
  source_unavailable: {
    meaning: 'The provider could not be read (5xx after a retry, connection failure, redirect, bad body).',
    action: "Check the provider's health and the URL.",
  },
};

/** The operator-facing sentence for a code (an unknown code says so). */
export function describeSourceError(code: string): string {
  const entry = Object.hasOwn(SOURCE_ERROR_MEANINGS, code) ? SOURCE_ERROR_MEANINGS[code] : undefined;
  return entry === undefined
    ? 'An error code this console does not know.'
    : `${entry.meaning} ${entry.action}`;
}
