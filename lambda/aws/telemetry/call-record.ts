/**
 * What one invocation learned about its call, gathered while it runs and published once when it ends
 * (`call-metrics.ts`, `call-telemetry.ts`): plain values only, no Powertools, so a record is cheap to fill
 * and easy to test. Every value is safe by construction: attributes come from closed sets, the session id
 * is kept only as a digest, source figures are counts and milliseconds.
 */
import { createHash } from 'node:crypto';
import type { CallAttributes } from '../../mcp/index.js';

/** A tool call's outcome: the BOS completeness of a federated read, else `complete` or `error`. */
export type CallCompleteness = 'complete' | 'partial' | 'error';

/** One source's figures within a call (summed when a call reads a source more than once). */
export interface SourceTally {
  /** Adapter kind (`fixture`, `scim`, `ldap`, `entra`, `okta`, `http-json`), `unknown` when not known. */
  readonly type: string;
  /** The source id a context names. */
  readonly id: string;
  firstPageMs?: number;
  pages: number;
  records: number;
  rateLimitWaitMs: number;
  /** Reads answered by local matching over a listing (the provider could not filter). */
  localMatches: number;
  deadlineHits: number;
  /** Contract error codes, one per failed read. */
  readonly errors: string[];
}

const rank: Record<CallCompleteness, number> = { complete: 0, partial: 1, error: 2 };

/** The first 16 hex digits of the id's SHA-256: enough to follow one session, useless to replay it. */
export function sessionDigest(sessionId: string): string {
  return createHash('sha256').update(sessionId).digest('hex').slice(0, 16);
}

/** The record of one invocation. */
export class CallRecord {
  readonly startedAt: number;
  attributes: CallAttributes = {};
  /** HTTP status of the answer, once the entry has it. */
  status?: number;
  /** {@link sessionDigest} of `Mcp-Session-Id` (request or response). */
  session?: string;
  /** Set by a tool's lifecycle, then refined by a federated read's own report. */
  completeness?: CallCompleteness;
  readonly sources = new Map<string, SourceTally>();
  /** The rate limit's bucket that refused the call, if one did. */
  rateLimited?: 'principal' | 'tenant';
  /** The rate limit's counters could not answer, and the call was admitted without them. */
  rateLimitStoreUnavailable = false;

  constructor(startedAt: number) {
    this.startedAt = startedAt;
  }

  /** Merges attributes the runtime reported (later values win, as a batch reports after its parts). */
  annotate(attributes: CallAttributes): void {
    this.attributes = { ...this.attributes, ...attributes };
  }

  /** Notes the session, from the request's header or the `initialize` answer's. */
  noteSession(sessionId: string | null | undefined): void {
    if (sessionId !== null && sessionId !== undefined && sessionId !== '' && this.session === undefined)
      this.session = sessionDigest(sessionId);
  }

  /** Keeps the worse of the outcome so far and `outcome`: a call that ran several operations (a batch) keeps its worst. */
  worsen(outcome: CallCompleteness): void {
    if (this.completeness === undefined || rank[outcome] > rank[this.completeness])
      this.completeness = outcome;
  }

  /** The tally of a source, created on first use. */
  source(id: string, type: string): SourceTally {
    let tally = this.sources.get(id);
    if (tally === undefined) {
      tally = {
        type,
        id,
        pages: 0,
        records: 0,
        rateLimitWaitMs: 0,
        localMatches: 0,
        deadlineHits: 0,
        errors: [],
      };
      this.sources.set(id, tally);
    }
    return tally;
  }
}
