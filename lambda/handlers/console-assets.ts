/**
 * The operator console's files (docs/console.md), served by the platform function beside the MCP endpoint.
 * The files are data: esbuild builds them into the function's task root (`console/`, `lib/bundling/console-bundler.ts`)
 * and nothing here imports the console's source. The page is a plain MCP client: it gets no token, grant or
 * data from this handler, only its own code, under a Content-Security-Policy that allows nothing inline.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The console's page path; the same constant the CDK routes (`lib/routes.ts`). */
export const CONSOLE_PATH = '/console';

/** The files the build writes, by the name under `/console/`; the page itself is `''`. */
const CONSOLE_FILES: Readonly<Record<string, { file: string; type: string }>> = {
  '': { file: 'index.html', type: 'text/html; charset=utf-8' },
  'app.js': { file: 'app.js', type: 'text/javascript; charset=utf-8' },
  'app.css': { file: 'app.css', type: 'text/css; charset=utf-8' },
  'icon.svg': { file: 'icon.svg', type: 'image/svg+xml' },
};

/** Options of {@link createConsoleAssets}. */
export interface ConsoleAssetsOptions {
  /**
   * Folder holding the built files.
   * @default `console/` beside the bundled entry (the function's task root)
   */
  root?: string;
  /**
   * Origin of the authorization server (`AUTH_ISSUER`'s): the page fetches its metadata and exchanges the
   * authorization code there, so `connect-src` names it beside `'self'`.
   */
  authOrigin: string;
}

/** Serves the console's files for the paths {@link servesConsolePath} accepts. */
export interface ConsoleAssets {
  handle(request: Request, path: string): Promise<Response>;
}

/** True for the console's page and its files (stage-less paths, as the entry sees them). */
export function servesConsolePath(path: string): boolean {
  return path === CONSOLE_PATH || path.startsWith(`${CONSOLE_PATH}/`);
}

/**
 * The page's policy: scripts, styles and images from this origin only, no inline code of any kind, fetches to
 * this origin (the MCP endpoint) and the authorization server only, no framing, no forms, no `<base>`.
 */
export function consoleContentSecurityPolicy(authOrigin: string): string {
  const connect = authOrigin === '' ? "'self'" : `'self' ${authOrigin}`;
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self'",
    `connect-src ${connect}`,
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/** The console's files (text, all of them), read from disk on first use and kept for the life of the environment. */
export function createConsoleAssets(options: ConsoleAssetsOptions): ConsoleAssets {
  const root = options.root ?? fileURLToPath(new URL('./console/', import.meta.url));
  const headers = {
    'content-security-policy': consoleContentSecurityPolicy(options.authOrigin),
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
    'x-frame-options': 'DENY',
    'cross-origin-opener-policy': 'same-origin',
    // The files change with every deployment; a browser revalidates instead of running stale code.
    'cache-control': 'no-cache',
  };
  const cache = new Map<string, Promise<string>>();
  const read = (file: string): Promise<string> => {
    let pending = cache.get(file);
    if (pending === undefined) {
      pending = readFile(join(root, file), 'utf8');
      // A missing file is not remembered: a later request reads the disk again.
      pending.catch(() => cache.delete(file));
      cache.set(file, pending);
    }
    return pending;
  };
  return {
    async handle(request, path) {
      if (request.method !== 'GET' && request.method !== 'HEAD') {
        return plain(405, 'Method Not Allowed', { ...headers, allow: 'GET, HEAD' });
      }
      // `/console/` would resolve the page's relative links one folder too deep: send it to `/console`.
      if (path === `${CONSOLE_PATH}/`) {
        return new Response(null, { status: 308, headers: { ...headers, location: '../console' } });
      }
      const name = path === CONSOLE_PATH ? '' : path.slice(CONSOLE_PATH.length + 1);
      const entry = Object.hasOwn(CONSOLE_FILES, name) ? CONSOLE_FILES[name] : undefined;
      if (entry === undefined) return plain(404, 'Not Found', headers);
      let body: string;
      try {
        body = await read(entry.file);
      } catch {
        // The bundle was built without the console (`buildLambda` without `console`).
        return plain(404, 'Not Found', headers);
      }
      return new Response(request.method === 'HEAD' ? null : body, {
        status: 200,
        headers: { ...headers, 'content-type': entry.type },
      });
    },
  };
}

function plain(status: number, text: string, headers: Record<string, string>): Response {
  return new Response(`${text}\n`, {
    status,
    headers: { ...headers, 'content-type': 'text/plain; charset=utf-8' },
  });
}
