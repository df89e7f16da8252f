/**
 * Path handling for REST v1 proxy events: stage prefix, trailing-slash canonicalisation and path
 * parameters matched against the resource template (`/mcp/{actor}`, `/files/{path+}`).
 */

const MCP_ROUTE_ROOTS = ['/mcp', '/.well-known/oauth-protected-resource'] as const;

/** True for the MCP resources whose trailing slash is canonicalised (`/mcp…`, the RFC 9728 metadata). */
export function isMcpRoute(path: string): boolean {
  return MCP_ROUTE_ROOTS.some((root) => path === root || path.startsWith(`${root}/`));
}

/** True when a resource template ends in a greedy `{name+}` capture, whose value keeps every byte. */
function hasGreedyCapture(resource: string | undefined): boolean {
  return resource !== undefined && /\{[^}]+\+\}$/.test(resource);
}

/**
 * Removes `/{stage}` from the front of a path. `event.path` normally arrives without the stage, while
 * `requestContext.path` carries it, so the prefix is removed only when it is really there: when the
 * resource template is known, only if the unstripped path does not already match it (a route may itself
 * start with a segment named like the stage).
 */
export function stripStage(path: string, stage: string | undefined, resource: string | undefined): string {
  if (stage === undefined || stage === '' || stage === '$default') return path;
  const prefix = `/${stage}`;
  if (path !== prefix && !path.startsWith(`${prefix}/`)) return path;
  if (resource !== undefined && matchResource(resource, path) !== undefined) return path;
  const stripped = path.slice(prefix.length);
  return stripped === '' ? '/' : stripped;
}

/**
 * Canonicalises `/mcp/` to `/mcp` (and `/mcp/x/` to `/mcp/x`, the same for the well-known metadata) as
 * AppTheory THE-270 did; never touches a `{proxy+}` capture, whose terminal slash is part of the value.
 */
export function normaliseTrailingSlash(path: string, resource: string | undefined): string {
  if (hasGreedyCapture(resource) || !isMcpRoute(path)) return path;
  const trimmed = path.replace(/\/+$/, '');
  return trimmed === '' ? '/' : trimmed;
}

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/**
 * Matches a path against a resource template and returns its parameters (a null-prototype record), or
 * `undefined` when the path does not fit the template.
 */
export function matchResource(resource: string, path: string): Record<string, string> | undefined {
  const template = resource.split('/');
  const actual = path.split('/');
  const params = Object.create(null) as Record<string, string>;
  for (const [index, part] of template.entries()) {
    const greedy = /^\{([^}]+)\+\}$/.exec(part);
    if (greedy?.[1] !== undefined) {
      const rest = actual.slice(index);
      if (rest.length === 0 || rest.join('/') === '') return undefined;
      params[greedy[1]] = rest.map(decodeSegment).join('/');
      return params;
    }
    const segment = actual[index];
    if (segment === undefined) return undefined;
    const named = /^\{([^}]+)\}$/.exec(part);
    if (named?.[1] !== undefined) {
      if (segment === '') return undefined;
      params[named[1]] = decodeSegment(segment);
    } else if (part !== segment) return undefined;
  }
  return actual.length === template.length ? params : undefined;
}
