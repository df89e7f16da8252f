/**
 * The dev issuer over HTTP on 127.0.0.1, so the function verifies its tokens through `AUTH_JWKS_URL`
 * exactly as it would a deployed issuer's, and MCP clients reach its OAuth endpoints.
 */
import { serveNode } from '../node-http.js';
import { createDevAuth } from './issuer.js';
import type { DevAuth, DevAuthOptions } from './issuer.js';

/** A running local issuer; `close()` stops its server. */
export interface RunningDevIssuer extends DevAuth {
  close(): Promise<void>;
}

/** Starts a dev issuer on 127.0.0.1 (port 0 = a free port unless given). */
export async function startDevIssuer(
  options: Omit<DevAuthOptions, 'issuer'> & { port?: number },
): Promise<RunningDevIssuer> {
  // Filled in once the port is known (the issuer URL, and so the tokens' `iss`, depends on it).
  const state: { auth?: DevAuth } = {};
  const { port, ...authOptions } = options;
  const server = await serveNode(
    (request) =>
      state.auth === undefined
        ? Promise.resolve(new Response(null, { status: 503 }))
        : state.auth.handle(request),
    { port: port ?? 0, host: '127.0.0.1' },
  );
  try {
    state.auth = await createDevAuth({ ...authOptions, issuer: server.url });
  } catch (error) {
    await server.close();
    throw error;
  }
  return { ...state.auth, close: () => server.close() };
}
