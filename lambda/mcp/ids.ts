/**
 * Identifier sources. Session ids are the only bearer-like secret the runtime mints: 128 bits from the
 * CSPRNG, hex encoded so they are visible ASCII (MCP 2025-11-25 transports: "Session ID ... MUST only
 * contain visible ASCII characters").
 */
import { randomBytes } from 'node:crypto';

/** A fresh 128-bit random id, 32 lowercase hex characters. */
export function randomId(): string {
  return randomBytes(16).toString('hex');
}

/** Returns a counter-based id source (`prefix1`, `prefix2`, …) for ids that only need uniqueness. */
export function counterIds(prefix: string): () => string {
  let next = 0;
  return () => `${prefix}${++next}`;
}
