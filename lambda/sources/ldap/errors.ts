/**
 * LDAP outcomes onto the five contract codes (docs/sources.md): result 49 invalidCredentials and 50
 * insufficientAccessRights → `provider_authorization_required`; 51 busy → `rate_limited`; 52 unavailable
 * and a refused or dropped connection → `source_unavailable`, as is 10 referral (never followed to another
 * server); 3 timeLimitExceeded, a client timeout or our
 * deadline → `source_timeout`. The directory's diagnostic message is never kept.
 */
import type { ReadBudget } from '../kernel/index.js';
import { ProviderError } from '../kernel/index.js';

/** The ProviderError of an ldapts or socket failure (or the read's own abort, rethrown as is). */
export function ldapFailure(error: unknown, budget: ReadBudget): unknown {
  const aborted = budget.abortOutcome();
  if (aborted !== undefined) return aborted;
  if (error instanceof ProviderError) return error;
  const code = (error as { code?: unknown } | undefined)?.code;
  const name = error instanceof Error ? error.name : '';
  if (typeof code === 'number') {
    if (code === 49 || code === 50)
      return new ProviderError('provider_authorization_required', 'authorization', code);
    if (code === 51) return new ProviderError('rate_limited', 'busy', code);
    if (code === 3) return new ProviderError('source_timeout', 'deadline', code);
    if (code === 52) return new ProviderError('source_unavailable', 'unavailable', code);
    if (code === 10) return new ProviderError('source_unavailable', 'referral_not_followed', code);
    return new ProviderError('source_unavailable', 'invalid_response', code);
  }
  if (name === 'TimeoutError') return new ProviderError('source_timeout', 'deadline');
  if (code === 'ECONNREFUSED') return new ProviderError('source_unavailable', 'connection_refused');
  return new ProviderError('source_unavailable', 'connection_failed');
}
