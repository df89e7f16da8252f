/**
 * Switches of the local SCIM server, changed at run time by tests and benchmarks: each one makes the real
 * server misbehave the way real SCIM providers do (cursor paging per RFC 9865, throttling, outages,
 * slowness, a response from the wrong host, a token that no longer works).
 */

import type { ScimProfile } from './profile.js';

/** What the server does besides answering normally. */
export interface ScimBehaviour {
  /** Advertise and serve RFC 9865 cursor paging instead of `startIndex`. @default false */
  cursorPaging: boolean;
  /** Answer `/Users` with `429` and this `Retry-After` (seconds), `times` times (undefined: always). */
  rateLimit?: { retryAfterSeconds: number; times?: number };
  /** Answer `/Users` with `503`, `times` times (undefined: always). */
  unavailable?: { times?: number };
  /** Wait this long before answering each `/Users` page. @default 0 */
  delayMs: number;
  /** Called before each `/Users` page with its 1-based page number; its promise holds the answer. */
  beforePage?: (page: number) => Promise<void> | void;
  /** Write `meta.location` on another host than the one the server is reached on. @default false */
  wrongLocationHost: boolean;
  /** The bearer token accepted (tests change it to make the configured one wrong). */
  token: string;
  /** A restricted-server profile (`profile.ts`). @default FULL_PROFILE */
  profile: ScimProfile;
}

/** One `/Users` request as the server saw it. */
export interface ScimRequestRecord {
  readonly query: Readonly<Record<string, string>>;
  /** Set when the client closed the connection before the answer was complete. */
  abortedByClient: boolean;
  /** Set once the answer was fully written. */
  answered: boolean;
  /** When it was (epoch ms, sub-millisecond: `performance.timeOrigin + performance.now()`). */
  answeredAt?: number;
}
