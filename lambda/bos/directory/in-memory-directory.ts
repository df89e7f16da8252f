import type { Principal } from '../../mcp/index.js';
import { contextGrantOf } from './document.js';
import type { DirectoryDocument } from './document.js';
import type { ContextGrant, Directory } from './types.js';

/** Data of an in-memory directory: the contexts, and which subjects hold which of them. */
export interface InMemoryDirectoryOptions {
  contexts: readonly ContextGrant[];
  /** subject (token `sub`) → handles granted to it. */
  grants: Readonly<Record<string, readonly string[]>>;
}

/** A {@link Directory} over fixed data (the embedded demo directory, tests). */
export function createInMemoryDirectory(options: InMemoryDirectoryOptions): Directory {
  const byHandle = new Map(options.contexts.map((grant) => [grant.context.context_handle, grant]));
  // A Map, not the options object, so a subject such as `__proto__` cannot reach prototype keys.
  const bySubject = new Map(Object.entries(options.grants));

  const granted = (principal: Principal): ContextGrant[] =>
    (bySubject.get(principal.subject) ?? []).flatMap((handle) => {
      const grant = byHandle.get(handle);
      return grant === undefined ? [] : [grant];
    });

  return {
    contextsFor(principal) {
      return Promise.resolve(granted(principal));
    },
    find(principal, contextHandle) {
      // One path for "unknown" and "not granted": both end as undefined (DESIGN §5).
      return Promise.resolve(granted(principal).find((g) => g.context.context_handle === contextHandle));
    },
  };
}

/** An in-memory {@link Directory} over a parsed `bos-directory/v1` document. */
export function createDocumentDirectory(document: DirectoryDocument): Directory {
  return createInMemoryDirectory({
    contexts: document.contexts.map(contextGrantOf),
    grants: Object.fromEntries(document.principals.map((p) => [p.subject, p.grants])),
  });
}
