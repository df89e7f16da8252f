/**
 * What a method handler of the table (`table.ts`) gets from the protocol shape serving the request: the
 * request, the routed name, and the shape's way of running a handler (its request context, timeout,
 * deadline and cancellation).
 */
import type { Runtime } from '../runtime.js';
import type {
  JsonObject,
  JsonRpcRequest,
  McpInvocationContext,
  McpRequestContext,
  ProtocolShape,
  SessionRecord,
} from '../types/index.js';

/** The request-scoped facts shared by every message of one HTTP request. */
export interface RequestScope {
  invocation: McpInvocationContext;
  accepts: (mediaType: string) => boolean;
}

/** One call of a table method, as its shape prepared it. */
export interface MethodCall {
  rt: Runtime;
  shape: ProtocolShape;
  request: JsonRpcRequest;
  params: JsonObject | undefined;
  /** The value of the method's `nameParam`, already checked to be a non-empty string (else undefined). */
  name: string | undefined;
  /** The session the call belongs to (session-ful shape only). */
  session: SessionRecord | undefined;
  /** Runs the application's handler under the shape's request context, timeout, deadline and cancellation. */
  run<T>(fn: (ctx: McpRequestContext) => Promise<T>): Promise<T>;
}
