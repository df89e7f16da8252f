/**
 * The public surface of the platform API: paths and the headers MCP clients send and read.
 * The function and the local stack serve the same paths; these constants are what the CDK wires.
 */

/** The BOS platform MCP endpoint path (DESIGN §1). */
export const MCP_PATH = '/mcp/apps/bos/platform';

/** RFC 9728 §3.1: the metadata URI inserts `/.well-known/oauth-protected-resource` before the resource path. */
export const WELL_KNOWN_METADATA_ROOT = '/.well-known/oauth-protected-resource';

/** The path-specific RFC 9728 metadata route, tried first by MCP clients. */
export const WELL_KNOWN_METADATA_PATH = `${WELL_KNOWN_METADATA_ROOT}${MCP_PATH}`;

/** HTTP methods of the MCP endpoint (Streamable HTTP: POST messages, GET listener/resume, DELETE session). */
export const MCP_METHODS = ['POST', 'GET', 'DELETE'] as const;

/** Request headers a browser-based MCP client sends; the CORS preflight must allow each of them. */
export const MCP_REQUEST_HEADERS = [
  'Accept',
  'Authorization',
  'Content-Type',
  'Last-Event-ID',
  'Mcp-Method',
  'Mcp-Name',
  'Mcp-Protocol-Version',
  'Mcp-Session-Id',
] as const;

/**
 * Response headers a browser-based MCP client must be able to read. `x-amzn-Remapped-WWW-Authenticate`
 * is where API Gateway puts a proxied integration's `WWW-Authenticate` (see docs/deploy.md).
 */
export const MCP_EXPOSED_HEADERS = [
  'Mcp-Session-Id',
  'Mcp-Protocol-Version',
  'WWW-Authenticate',
  'x-amzn-Remapped-WWW-Authenticate',
] as const;

/**
 * The operator console: a browser MCP client served beside the endpoint (docs/console.md). Its page is this
 * path, its files one segment below it; the page finds the MCP endpoint relative to its own URL, so a stage
 * prefix or a custom domain changes nothing.
 */
export const CONSOLE_PATH = '/console';

/** The console's files next to its page, as `lib/bundling/console-bundler.ts` writes them. */
export const CONSOLE_FILES = ['app.js', 'app.css', 'icon.svg'] as const;

/**
 * Every console resource: the page and one resource per file, so each invoke permission names its exact path
 * (a `{file}` path parameter would make it a wildcard).
 */
export const CONSOLE_PATHS: readonly string[] = [
  CONSOLE_PATH,
  ...CONSOLE_FILES.map((file) => `${CONSOLE_PATH}/${file}`),
];
