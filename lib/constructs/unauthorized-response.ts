import { ResponseType } from 'aws-cdk-lib/aws-apigateway';
import type { GatewayResponse, RestApi } from 'aws-cdk-lib/aws-apigateway';
import { JsonRpcCode } from '../../lambda/mcp/errors.js';

/** JSON-RPC error code of the gateway's 401 body: the same "unauthorized" code as the function's own 401. */
export const UNAUTHORIZED_JSON_RPC_CODE = JsonRpcCode.Unauthorized;

/**
 * The 401 API Gateway itself sends (type `UNAUTHORIZED`), carrying the RFC 9728 challenge
 * `WWW-Authenticate: Bearer resource_metadata="<metadata URL>"`.
 *
 * Why only this one: gateway responses apply to errors API Gateway generates, never to the function's own
 * responses, and `UNAUTHORIZED` is the 401 it generates (a rejected authorizer or a missing identity source).
 * `ACCESS_DENIED` is a 403 whose challenge would claim a missing token when the token was refused: MCP's
 * authorization spec sends 403 for insufficient scope, and the function owns that answer.
 *
 * A header set here reaches the client under its own name. A proxied integration's `WWW-Authenticate` does
 * not: API Gateway renames it `x-amzn-Remapped-WWW-Authenticate`, so the function's own 401 also names the
 * metadata URL in its JSON-RPC body and clients fall back to the well-known URIs (docs/deploy.md).
 */
export function unauthorizedGatewayResponse(api: RestApi, metadataUrl: string): GatewayResponse {
  const body = JSON.stringify({
    jsonrpc: '2.0',
    id: null,
    error: {
      code: UNAUTHORIZED_JSON_RPC_CODE,
      message:
        'Unauthorized: send a bearer token from the authorization server named in the resource metadata',
      data: { resource_metadata: metadataUrl },
    },
  });
  return api.addGatewayResponse('Unauthorized', {
    type: ResponseType.UNAUTHORIZED,
    statusCode: '401',
    responseHeaders: {
      // Gateway response header values are mapping expressions: a static value goes in single quotes.
      'WWW-Authenticate': `'Bearer resource_metadata="${metadataUrl}"'`,
      'Access-Control-Expose-Headers': "'WWW-Authenticate'",
    },
    templates: { 'application/json': body },
  });
}
