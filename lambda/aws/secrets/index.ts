/**
 * Secrets Manager: secret-backed settings read during init and the source credential resolver. The client
 * library is imported on first use.
 */
export {
  CredentialUnavailableError,
  DEFAULT_SOURCE_SECRET_PREFIX,
  SecretsManagerCredentialResolver,
} from './secrets-manager-credentials.js';
export type { SecretsManagerCredentialResolverOptions } from './secrets-manager-credentials.js';
export { requestedSecretSettings, resolveSecretSettings, SECRET_BACKED_SETTINGS } from './secret-settings.js';
export type { SecretSettingsOptions } from './secret-settings.js';
