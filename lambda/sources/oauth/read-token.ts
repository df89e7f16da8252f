/**
 * A broker token for one provider read: the request is bound to the read's signal and deadline, and a
 * deadline that fires while waiting for the token ends the read as `source_timeout`, as a slow provider
 * page would (kernel `ReadBudget`).
 */
import type { ReadBudget } from '../kernel/index.js';
import type { BrokerToken, ClientCredentialsBroker } from './broker.js';

/** The token, or the read's abort/deadline outcome, or the broker's `ProviderError`. */
export async function tokenForRead(
  broker: ClientCredentialsBroker,
  budget: ReadBudget,
): Promise<BrokerToken> {
  try {
    return await broker.token(budget.requestSignal());
  } catch (error) {
    throw budget.abortOutcome() ?? error;
  }
}
