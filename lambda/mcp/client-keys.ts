/**
 * The one rule for keys a client chooses and the server looks up: each kind has a bound and a form, and a
 * key that fails them is answered exactly like an unknown key (404 for a session or an event, -32602 for a
 * task) before any store sees it. Stores have limits of their own (DynamoDB refuses a partition key over
 * 2,048 bytes and a sort key over 1,024 with a client-fault `ValidationException`); a key checked here
 * never reaches them, so a client's bad key is never mistaken for a store outage.
 *
 * Keys that other layers validate by their own exact form follow the same rule there: a context handle
 * (`CONTEXT_HANDLE_PATTERN`, lambda/bos), the id of a server-to-client request (`isServerRequestId`),
 * a stored `requestState` (HMAC-verified before its digest is looked up).
 */

/** How one kind of key is bounded. */
export interface ClientKeyRule {
  /** Longest accepted key, in characters (every accepted character is one byte). */
  readonly maxLength: number;
  /** The form of an accepted key (checked after the length, so no pattern ever sees a long input). */
  readonly pattern: RegExp;
}

// Visible ASCII, as MCP 2025-11-25 transports require of session ids; ours are 32 hex characters.
const VISIBLE_ASCII = /^[\x21-\x7e]+$/;
// URL-safe tokens; ours are 32 hex characters. The same form a task worker event must carry.
const TOKEN = /^[A-Za-z0-9_-]+$/;

/** Every kind of client-supplied key the runtime looks up, with its rule. */
export const clientKeyRules = {
  /** `Mcp-Session-Id`. */
  sessionId: { maxLength: 128, pattern: VISIBLE_ASCII },
  /** `params.taskId` of every task method, and the `tasks/list` cursor (the last task id of a page). */
  taskId: { maxLength: 128, pattern: TOKEN },
  /** `Last-Event-ID`; the stream store then checks its own id format. */
  eventId: { maxLength: 128, pattern: VISIBLE_ASCII },
} as const satisfies Record<string, ClientKeyRule>;

export type ClientKeyKind = keyof typeof clientKeyRules;

/** Whether `value` is an acceptable key of `kind`: a non-empty string within the bound and of the form. */
export function isClientKey(kind: ClientKeyKind, value: unknown): value is string {
  const rule: ClientKeyRule = clientKeyRules[kind];
  return (
    typeof value === 'string' &&
    value.length > 0 &&
    value.length <= rule.maxLength &&
    rule.pattern.test(value)
  );
}
