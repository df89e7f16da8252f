/**
 * Settings whose value lives in AWS Secrets Manager. The stack passes only the secret's ARN
 * (`<NAME>_ARN`); the value is read once during init and handed to `loadConfig` as `<NAME>`, in a copy of the
 * environment: it never becomes a plain environment value of the function, and `process.env` is not written.
 *
 * Today there is one such setting, `MCP_REQUEST_STATE_SECRET`: the HMAC key every execution environment must
 * share, or a 2026-07-28 multi-round retry that lands on another environment is refused.
 */
import type { SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { ConfigError } from '../config/errors.js';
import { readSecretString, secretsManagerClient } from './secrets-manager.js';

/** Setting name -> the variable holding its secret's ARN (or name). */
export const SECRET_BACKED_SETTINGS: Readonly<Record<string, string>> = {
  MCP_REQUEST_STATE_SECRET: 'MCP_REQUEST_STATE_SECRET_ARN',
};

type Env = Readonly<Record<string, string | undefined>>;

/** Options of {@link resolveSecretSettings}. */
export interface SecretSettingsOptions {
  /** @default a client with 3 attempts and 1 s / 2 s connect / request timeouts */
  client?: SecretsManagerClient;
  /** Bound on each read, retries included. @default 5000 */
  timeoutMs?: number;
}

// Secrets Manager accepts a full ARN or a name (1-512 of letters, digits and /_+=.@-).
const SECRET_ID = /^(arn:aws[a-z-]*:secretsmanager:[a-z0-9-]+:\d{12}:secret:)?[A-Za-z0-9/_+=.@-]{1,512}$/;

/** The secret-backed settings `env` asks for, as `[setting, arn variable, secret id]`. */
export function requestedSecretSettings(env: Env): Array<[string, string, string]> {
  return Object.entries(SECRET_BACKED_SETTINGS).flatMap(([setting, arnVariable]) => {
    const id = env[arnVariable]?.trim();
    return id === undefined || id === '' ? [] : [[setting, arnVariable, id] as [string, string, string]];
  });
}

/**
 * Returns `env` with each secret-backed setting filled in from its secret. Without any `<NAME>_ARN`
 * variable, `env` itself is returned and the Secrets Manager client is never loaded (the local stack).
 * Throws `ConfigError` naming the variable, never a value, when a secret cannot be read, is empty, or a
 * setting is given both ways.
 */
export async function resolveSecretSettings(env: Env, options: SecretSettingsOptions = {}): Promise<Env> {
  const wanted = requestedSecretSettings(env);
  if (wanted.length === 0) return env;
  const problems: string[] = [];
  for (const [setting, arnVariable, id] of wanted) {
    if (env[setting] !== undefined && env[setting] !== '')
      problems.push(`${setting} and ${arnVariable} are both set; set only ${arnVariable}`);
    if (!SECRET_ID.test(id)) problems.push(`${arnVariable} must be a Secrets Manager secret ARN or name`);
  }
  if (problems.length > 0) throw new ConfigError(problems);

  const client = options.client ?? (await secretsManagerClient(3));
  const resolved: Record<string, string | undefined> = { ...env };
  await Promise.all(
    wanted.map(async ([setting, arnVariable, id]) => {
      let value: string | undefined;
      try {
        value = await readSecretString(client, id, options.timeoutMs ?? 5000);
      } catch (error) {
        // The error's name (AccessDeniedException, ResourceNotFoundException …) says what to fix; its
        // message may quote the ARN and account, which the operator already has.
        const name = error instanceof Error ? error.name : 'unknown error';
        problems.push(`the secret ${arnVariable} names could not be read (${name})`);
        return;
      }
      if (value === undefined || value === '')
        problems.push(`the secret ${arnVariable} names has no string value`);
      else resolved[setting] = value;
    }),
  );
  if (problems.length > 0) throw new ConfigError(problems);
  return resolved;
}
