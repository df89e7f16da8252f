/**
 * The API's resources, exactly as `lib/constructs/platform-api.ts` wires them: the MCP endpoint, the two
 * RFC 9728 metadata routes and the console go to the function; anything else gets API Gateway's own 403.
 */
import {
  CONSOLE_PATHS,
  MCP_METHODS,
  MCP_PATH,
  WELL_KNOWN_METADATA_PATH,
  WELL_KNOWN_METADATA_ROOT,
} from '../../lib/routes.js';

/** One REST API resource and the methods integrated with the function. */
export interface RestRoute {
  /** Resource path template (`event.resource`, `requestContext.resourcePath`). */
  resource: string;
  methods: readonly string[];
  /** Whether API Gateway answers an OPTIONS preflight here (CDK `addCorsPreflight`). @default true */
  cors?: boolean;
}

/** The deployed resources (OPTIONS is API Gateway's CORS preflight mock, not the function). */
export const PLATFORM_ROUTES: readonly RestRoute[] = [
  { resource: MCP_PATH, methods: MCP_METHODS },
  { resource: WELL_KNOWN_METADATA_PATH, methods: ['GET'] },
  { resource: WELL_KNOWN_METADATA_ROOT, methods: ['GET'] },
  // Same-origin page and files: no preflight is deployed for them.
  ...CONSOLE_PATHS.map((resource) => ({ resource, methods: ['GET'], cors: false })),
];

/** Result of matching a request against the routes. */
export type RouteMatch =
  { kind: 'function'; route: RestRoute } | { kind: 'preflight'; route: RestRoute } | { kind: 'none' };

/**
 * Finds the resource a path names. API Gateway ignores one trailing slash when it selects a resource (the
 * function still sees the path as sent, and canonicalises it itself). Resources and methods are
 * case-sensitive.
 */
export function matchRoute(routes: readonly RestRoute[], method: string, path: string): RouteMatch {
  const trimmed = path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
  const route = routes.find((candidate) => candidate.resource === trimmed);
  if (route === undefined) return { kind: 'none' };
  if (route.methods.includes(method)) return { kind: 'function', route };
  if (method === 'OPTIONS' && route.cors !== false) return { kind: 'preflight', route };
  return { kind: 'none' };
}
