import type { Principal } from '../../mcp/index.js';

/**
 * The public face of a BOS context, exactly as clients see it (contract §3 `context` object; key order
 * is the wire order).
 */
export interface PublicContext {
  /** Opaque and unguessable; grants nothing by itself (DESIGN §5). */
  context_handle: string;
  organization_name: string;
  application_name: string;
  installation_name: string;
  role_label: string;
  is_default: boolean;
}

/** A context as the server knows it: the public object plus what it permits. */
export interface ContextGrant {
  context: PublicContext;
  /** Names of the operations the context permits (see `operations/`). */
  operations: readonly string[];
  /** Ids of the sources the context may read, in read order. */
  sourceIds: readonly string[];
  /** Per-source read timeout in this context. @default the platform's (see `createBosPlatform`) */
  sourceTimeoutMs?: number;
}

/**
 * Port: principal → granted contexts. Every tool call asks again, so revoking a grant takes effect on
 * the next call. `find` answers `undefined` both for a handle that does not exist and for one that is
 * not granted to this principal, so callers cannot tell the two apart.
 */
export interface Directory {
  contextsFor(principal: Principal): Promise<readonly ContextGrant[]>;
  find(principal: Principal, contextHandle: string): Promise<ContextGrant | undefined>;
}
