/**
 * Client authentication at the token endpoint (RFC 6749 §2.3.1, RFC 7523 §2.2). The secret or private key
 * arrives here already resolved and leaves only inside the request: no function of this file returns,
 * logs or throws it.
 */
import { randomUUID } from 'node:crypto';
import { importJWK, importPKCS8, SignJWT } from 'jose';
import type { JWK } from 'jose';
import type { AssertionAlgorithm, ClientCredentialsOptions } from './options.js';

/** The headers and form fields that authenticate the client on one token request. */
export interface ClientAuthentication {
  readonly headers: Readonly<Record<string, string>>;
  readonly fields: Readonly<Record<string, string>>;
}

/** Lifetime of a `private_key_jwt` assertion: short, so a captured one is soon worthless (RFC 7523 §3). */
export const ASSERTION_LIFETIME_S = 60;

const JWT_BEARER = 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer';

/** A local failure to use the configured key or secret; its message never contains the value. */
export class ClientCredentialError extends Error {
  override readonly name = 'ClientCredentialError';
}

/**
 * The authentication for `options.authMethod` with `secret` (a client secret, or for `private_key_jwt` a
 * PKCS #8 PEM or a private JWK as JSON). Each assertion has a fresh random `jti`, so the authorization
 * server can refuse a replay.
 */
export async function authenticateClient(
  options: ClientCredentialsOptions,
  secret: string,
  nowMs: number,
): Promise<ClientAuthentication> {
  switch (options.authMethod) {
    case 'client_secret_basic':
      // RFC 6749 §2.3.1: both parts are form-urlencoded before the Basic encoding.
      return {
        headers: {
          authorization: `Basic ${Buffer.from(`${formEncode(options.clientId)}:${formEncode(secret)}`).toString('base64')}`,
        },
        fields: {},
      };
    case 'client_secret_post':
      return { headers: {}, fields: { client_id: options.clientId, client_secret: secret } };
    case 'private_key_jwt':
      return {
        headers: {},
        fields: {
          client_id: options.clientId,
          client_assertion_type: JWT_BEARER,
          client_assertion: await signAssertion(options, secret, nowMs),
        },
      };
  }
}

function formEncode(value: string): string {
  return new URLSearchParams({ v: value }).toString().slice(2);
}

async function signAssertion(
  options: ClientCredentialsOptions,
  secret: string,
  nowMs: number,
): Promise<string> {
  const { key, alg, kid } = await privateKey(secret, options.assertionAlgorithm, options.keyId);
  const now = Math.floor(nowMs / 1000);
  return new SignJWT({})
    .setProtectedHeader({ alg, typ: 'JWT', ...(kid === undefined ? {} : { kid }) })
    .setIssuer(options.clientId)
    .setSubject(options.clientId)
    .setAudience(options.assertionAudience ?? options.tokenUrl.href)
    .setJti(randomUUID())
    .setIssuedAt(now)
    .setNotBefore(now)
    .setExpirationTime(now + ASSERTION_LIFETIME_S)
    .sign(key);
}

interface SigningKey {
  readonly key: CryptoKey | Uint8Array;
  readonly alg: string;
  readonly kid: string | undefined;
}

async function privateKey(
  secret: string,
  configuredAlg: AssertionAlgorithm | undefined,
  configuredKid: string | undefined,
): Promise<SigningKey> {
  const text = secret.trim();
  try {
    if (text.startsWith('{')) {
      const jwk = JSON.parse(text) as JWK;
      if (typeof jwk.d !== 'string') throw new ClientCredentialError('the JWK is not a private key');
      const alg = configuredAlg ?? jwk.alg ?? 'RS256';
      return { key: await importJWK(jwk, alg), alg, kid: configuredKid ?? jwk.kid };
    }
    const alg = configuredAlg ?? 'RS256';
    return { key: await importPKCS8(text, alg), alg, kid: configuredKid };
  } catch (error) {
    if (error instanceof ClientCredentialError) throw error;
    // No `cause`: JSON.parse quotes the start of its input in its message, which here is the key itself.
    throw new ClientCredentialError('the private key credential is not a usable PKCS #8 PEM or private JWK');
  }
}
