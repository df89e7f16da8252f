import { JsonRpcCode, type Principal } from '../../mcp/index.js';
import { AuthError } from '../errors.js';
import { BOS_READ_SCOPE } from './resource-metadata.js';
import type { TokenVerifier } from './token-verifier.js';

/** Result of {@link authenticate}: the caller, or the finished refusal to send. */
export type AuthOutcome =
  { ok: true; principal: Principal } | { ok: false; response: Response; error: AuthError };

/** Options of {@link authenticate}. */
export interface AuthenticateOptions {
  /** RFC 9728 metadata URL named in every challenge (see `resourceMetadataUrl`). */
  metadataUrl: string;
  /** Scope every caller must hold. @default 'bos.read' */
  requiredScope?: string;
}

/** JSON-RPC codes of the HTTP-level auth refusals (the runtime's one table of codes). */
export const UNAUTHORIZED_CODE = JsonRpcCode.Unauthorized;
export const FORBIDDEN_CODE = JsonRpcCode.Forbidden;
/** The issuer's keys could not be fetched (HTTP 503): the server's problem, not the token's. */
export const VERIFIER_UNAVAILABLE_CODE = JsonRpcCode.AuthUnavailable;

/**
 * Authenticates a request by its `Authorization: Bearer` header.
 *
 * - no token → 401 `WWW-Authenticate: Bearer resource_metadata="…"` (MCP authorization: discovery hint);
 * - bad token → 401 with `error="invalid_token"` (RFC 6750 §3.1);
 * - missing scope → 403 with `error="insufficient_scope", scope="bos.read"` (RFC 6750 §3.1);
 * - JWKS unreachable → 503 with `Retry-After` and no challenge, so the client keeps its token.
 *
 * The body is a JSON-RPC error with id null saying why, because API Gateway REST renames
 * `WWW-Authenticate` (mcp-2026-notes §3.2) and the body is then the only explanation a client sees.
 * The token is never logged, echoed or passed on.
 */
export async function authenticate(
  request: Pick<Request, 'headers'>,
  verifier: TokenVerifier,
  options: AuthenticateOptions,
): Promise<AuthOutcome> {
  const scope = options.requiredScope ?? BOS_READ_SCOPE;
  const refuse = (error: AuthError): AuthOutcome => ({
    ok: false,
    error,
    response: refusal(error, options.metadataUrl, scope),
  });
  const token = bearerToken(request.headers.get('authorization'));
  if (token === undefined) {
    return refuse(new AuthError('missing_token', 'Authentication required: send a bearer token.'));
  }
  let principal: Principal;
  try {
    principal = await verifier.verify(token);
  } catch (caught) {
    return refuse(
      caught instanceof AuthError
        ? caught
        : new AuthError('invalid_token', 'The token is invalid.', { cause: caught }),
    );
  }
  // Checked here as well as in the verifier, so a verifier configured without a scope still cannot
  // admit a caller who lacks it.
  if (!principal.scopes.includes(scope)) {
    return refuse(new AuthError('insufficient_scope', `The token lacks the ${scope} scope.`));
  }
  return { ok: true, principal };
}

/** `Bearer <token>`, scheme case-insensitive (RFC 7235 §2.1); anything else counts as no token. */
function bearerToken(header: string | null): string | undefined {
  const match = /^Bearer +([A-Za-z0-9\-._~+/]+=*) *$/i.exec(header ?? '');
  return match?.[1];
}

function refusal(error: AuthError, metadataUrl: string, scope: string): Response {
  const { status, code } = STATUS[error.code];
  const headers: Record<string, string> = {
    'content-type': 'application/json; charset=utf-8',
    'cache-control': 'no-store',
  };
  if (error.code === 'verifier_unavailable') {
    headers['retry-after'] = '1';
  } else {
    const params = [`resource_metadata="${metadataUrl}"`];
    if (error.code === 'invalid_token') params.unshift('error="invalid_token"');
    if (error.code === 'insufficient_scope') params.unshift('error="insufficient_scope"', `scope="${scope}"`);
    headers['www-authenticate'] = `Bearer ${params.join(', ')}`;
  }
  const body = {
    jsonrpc: '2.0',
    id: null,
    error: { code, message: error.message, data: { reason: error.code } },
  };
  return new Response(JSON.stringify(body), { status, headers });
}

const STATUS: Record<AuthError['code'], { status: number; code: number }> = {
  missing_token: { status: 401, code: UNAUTHORIZED_CODE },
  invalid_token: { status: 401, code: UNAUTHORIZED_CODE },
  insufficient_scope: { status: 403, code: FORBIDDEN_CODE },
  verifier_unavailable: { status: 503, code: VERIFIER_UNAVAILABLE_CODE },
};
