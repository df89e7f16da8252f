/**
 * Secrets Manager reads, shared by the secret-backed settings (`secret-settings.ts`) and the source credentials
 * (`secrets-manager-credentials.ts`). The client library is imported on first use, so a function that reads no
 * secret never evaluates it; the client has short timeouts and each read is bounded as a whole.
 */
import type { SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { SdkWarningLogger } from '../telemetry/sdk-logger.js';

const loadSdk = () => import('@aws-sdk/client-secrets-manager');

/** A client with `maxAttempts` attempts and 1 s / 2 s connect / request timeouts. */
export async function secretsManagerClient(maxAttempts: number): Promise<SecretsManagerClient> {
  const { SecretsManagerClient: Client } = await loadSdk();
  return new Client({
    maxAttempts,
    logger: new SdkWarningLogger(),
    requestHandler: { connectionTimeout: 1000, requestTimeout: 2000, throwOnRequestTimeout: true },
  });
}

/**
 * The secret's `SecretString` (undefined for a binary secret), read within `timeoutMs`, retries included.
 * Throws the SDK's error: its name says what to fix, its message may quote the ARN and must not be shown.
 */
export async function readSecretString(
  client: SecretsManagerClient,
  secretId: string,
  timeoutMs: number,
): Promise<string | undefined> {
  const { GetSecretValueCommand } = await loadSdk();
  const output = await client.send(new GetSecretValueCommand({ SecretId: secretId }), {
    abortSignal: AbortSignal.timeout(timeoutMs),
  });
  return output.SecretString;
}
