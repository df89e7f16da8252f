/**
 * The second invocation API Gateway's streaming integration sends after every streamed response: not a proxy
 * event but a small notice, `{"requestId": "…", "invokeCompletionStatus": "Success"}`, or `"Failure"` with
 * `"errorCode": "Unhandled"` when the function failed (docs/aws.md "Completion invocations"; the shape is the
 * one deployments observe, AWS does not document it). The front sends it the same way, so the function's
 * handling of it runs on every local streamed call.
 */
import type { Readable } from 'node:stream';
import { describeError, log } from '../log.js';
import { readPrelude } from './prelude.js';

/** The payload of one completion invocation. */
export interface CompletionNotice {
  requestId: string;
  invokeCompletionStatus: 'Success' | 'Failure';
  errorCode?: string;
}

/** What came of one completion invocation, for tests and the stack's hook. */
export interface CompletionRecord {
  notice: CompletionNotice;
  /** `answered`: the function returned without error; `failed`: it threw, timed out or was throttled. */
  outcome: 'answered' | 'failed';
  /** Status of the function's answer (its prelude), when it sent one. */
  statusCode?: number;
  /** The invocation error, for `failed`. */
  error?: string;
}

/** The part of the function invoker the notice needs. */
export interface CompletionInvoker {
  invoke(event: unknown, options: { signal: AbortSignal }): Promise<{ body: Readable }>;
}

/** The notice for a streamed response whose function stream `ended` normally or `failed`. */
export function completionNotice(requestId: string, functionEnd: 'ended' | 'failed'): CompletionNotice {
  return functionEnd === 'ended'
    ? { requestId, invokeCompletionStatus: 'Success' }
    : { requestId, invokeCompletionStatus: 'Failure', errorCode: 'Unhandled' };
}

/**
 * Invokes the function with `notice` and reads its whole answer. Never throws: a function that fails the
 * notice is logged (a warning: on AWS it would count as a Lambda error for every streamed call).
 */
export async function sendCompletion(
  invoker: CompletionInvoker,
  notice: CompletionNotice,
): Promise<CompletionRecord> {
  try {
    const { body } = await invoker.invoke(notice, { signal: new AbortController().signal });
    let statusCode: number | undefined;
    try {
      ({ statusCode } = await readPrelude(body));
    } catch {
      // A function may answer the notice with no HTTP prelude at all; API Gateway ignores the answer anyway.
    }
    for await (const chunk of body) void chunk;
    return { notice, outcome: 'answered', ...(statusCode === undefined ? {} : { statusCode }) };
  } catch (error) {
    // The stack shutting down is no failure of the function's.
    if ((error as { code?: unknown } | null)?.code !== 'closed')
      log('warn', 'the function failed a stream completion invocation', { error: describeError(error) });
    return { notice, outcome: 'failed', error: describeError(error) };
  }
}
