/**
 * Source credentials from AWS Secrets Manager, by name. Matches the `CredentialResolver` port of
 * `lambda/bos/directory/credential-resolver.ts` structurally (`lambda/aws` cannot import `lambda/bos`,
 * DESIGN §2). A reference `ACME_HR_TOKEN` reads the secret `<prefix>ACME_HR_TOKEN`; the value is kept in
 * memory for a short time and never appears in an error or log line.
 *
 * The client library is imported on the first lookup: a function whose sources need no credential never
 * evaluates it, and none pays for it during a cold start's `initialize`.
 */
import type { SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { readSecretString, secretsManagerClient } from './secrets-manager.js';

/** Secret name prefix of source credentials (the CDK stack grants read on exactly these). */
export const DEFAULT_SOURCE_SECRET_PREFIX = 'bos/sources/';

/** A credential could not be read. The message names the reference only, never a value. */
export class CredentialUnavailableError extends Error {
  override readonly name = 'CredentialUnavailableError';
  readonly code: 'invalid_reference' | 'unknown_credential' | 'unavailable';

  constructor(
    code: 'invalid_reference' | 'unknown_credential' | 'unavailable',
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.code = code;
  }
}

/** Options for {@link SecretsManagerCredentialResolver}. */
export interface SecretsManagerCredentialResolverOptions {
  /** @default a client with 2 attempts and 1 s / 2 s connect / request timeouts */
  client?: SecretsManagerClient;
  /** Secret id = prefix + reference. @default 'bos/sources/' */
  prefix?: string;
  /**
   * How long a value is reused. AWS recommends caching secrets in Lambda rather than calling
   * GetSecretValue per request; a rotation is picked up after this long. @default 300000
   */
  cacheTtlMs?: number;
  /** @default 2000 */
  operationTimeoutMs?: number;
  /** @default Date.now */
  clock?: () => number;
}

// The same rule as `CREDENTIAL_REF_PATTERN` in lambda/bos/directory/document.ts.
const REFERENCE = /^[A-Z][A-Z0-9_]{0,63}$/;

/** `CredentialResolver` on Secrets Manager (`SecretString` only). */
export class SecretsManagerCredentialResolver {
  #client: SecretsManagerClient | undefined;
  readonly #prefix: string;
  readonly #ttl: number;
  readonly #timeoutMs: number;
  readonly #clock: () => number;
  readonly #cache = new Map<string, { value: string; at: number }>();

  constructor(options: SecretsManagerCredentialResolverOptions = {}) {
    this.#client = options.client;
    this.#prefix = options.prefix ?? DEFAULT_SOURCE_SECRET_PREFIX;
    this.#ttl = options.cacheTtlMs ?? 300_000;
    this.#timeoutMs = options.operationTimeoutMs ?? 2000;
    this.#clock = options.clock ?? Date.now;
  }

  async resolve(name: string): Promise<string> {
    if (!REFERENCE.test(name)) {
      throw new CredentialUnavailableError(
        'invalid_reference',
        `credential reference "${name}" is not a valid name`,
      );
    }
    const hit = this.#cache.get(name);
    if (hit !== undefined && this.#clock() - hit.at < this.#ttl) return hit.value;
    let secret: string | undefined;
    try {
      this.#client ??= await secretsManagerClient(2);
      secret = await readSecretString(this.#client, `${this.#prefix}${name}`, this.#timeoutMs);
    } catch (error) {
      const missing = error instanceof Error && error.name === 'ResourceNotFoundException';
      throw new CredentialUnavailableError(
        missing ? 'unknown_credential' : 'unavailable',
        missing ? `credential ${name} does not exist` : `credential ${name} could not be read`,
        { cause: error },
      );
    }
    if (secret === undefined || secret === '') {
      throw new CredentialUnavailableError('unknown_credential', `credential ${name} has no string value`);
    }
    this.#cache.set(name, { value: secret, at: this.#clock() });
    return secret;
  }
}
