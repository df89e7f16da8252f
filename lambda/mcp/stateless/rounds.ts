/**
 * One round of a method that may answer `input_required` (tools/call, prompts/get, resources/read):
 * before the handler, the retry inputs are validated and an echoed `requestState` is redeemed (bound,
 * single use); after it, an `input_required` answer is checked against the client's capabilities
 * (-32021) and its state issued, and a complete answer is shaped (cache hints forced to 0/private on
 * retries).
 */
import type { Runtime, CacheSurface } from '../runtime.js';
import type { JsonObject, JsonValue, McpInvocationContext } from '../types/index.js';
import { requestDigest } from './request-state.js';
import type { StateBinding } from './request-state.js';
import { requiredCapabilities } from '../tools/input-requests.js';
import { completeResult, inputRequiredResult, missingCapabilityError, splitResult } from './results.js';
import { retryInputs } from './validate.js';

/** What a handler sees of the round, and what finishing it needs. */
export interface Round {
  inputResponses: JsonObject | undefined;
  requestState: string | undefined;
  /** The state binding, computed on first use: most calls neither echo nor issue a state. */
  binding: () => StateBinding;
  isRetry: boolean;
}

/** Validates the retry inputs and redeems the echoed state. Throws 400-class errors. */
export async function beginRound(
  rt: Runtime,
  invocation: McpInvocationContext,
  method: string,
  target: string,
  args: JsonValue | undefined,
  params: JsonObject | undefined,
): Promise<Round> {
  const { inputResponses, requestState } = retryInputs(params);
  let bound: StateBinding | undefined;
  const binding = (): StateBinding =>
    (bound ??= { subject: invocation.principal?.subject ?? '', digest: requestDigest(method, target, args) });
  if (requestState !== undefined) await rt.requestStates.redeem(binding(), requestState);
  return {
    inputResponses,
    requestState,
    binding,
    isRetry: inputResponses !== undefined || requestState !== undefined,
  };
}

/** Shapes a handler's answer as the wire `result` (may throw -32021 or a TypeError for handler bugs). */
export async function finishRound(
  rt: Runtime,
  round: Round,
  answer: unknown,
  clientCapabilities: JsonObject,
  surface?: CacheSurface,
): Promise<JsonObject> {
  const raw = splitResult(answer);
  if (raw.resultType === 'complete') return completeResult(rt, raw.fields, surface, round.isRetry);
  if (raw.inputRequests !== undefined) {
    const missing = requiredCapabilities(rt, raw.inputRequests, clientCapabilities);
    if (missing !== undefined) throw missingCapabilityError(missing);
  }
  if (raw.requestState !== undefined) await rt.requestStates.issue(round.binding(), raw.requestState);
  return inputRequiredResult(rt, raw, raw.fields._meta, raw.requestState);
}
