import type { GrantStore } from './grants.js';
import type { ClientRegistry } from './registration.js';

/** What the authorization and token endpoints share: the issuer's identity, stores and token minting. */
export interface IssuerContext {
  /** The issuer URL, no trailing slash (`iss` of tokens, RFC 9207 `iss` of authorization responses). */
  readonly issuer: string;
  /** The MCP endpoint: `aud` of every token and the only RFC 8707 `resource` accepted. */
  readonly audience: string;
  /** Scopes a client may ask for; every token carries all of them. */
  readonly scopes: readonly string[];
  /** Subjects `/authorize` may approve; the first is the default, others need `login_hint`. */
  readonly subjects: readonly string[];
  readonly clients: ClientRegistry;
  readonly grants: GrantStore;
  /** Mints an access token exactly as the dev tokens are minted. */
  mint(subject: string, claims: { scope: string }): Promise<string>;
  /** Access token lifetime, for `expires_in`. */
  readonly accessTtlSeconds: number;
}
