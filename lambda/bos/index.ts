/**
 * The BOS platform app (DESIGN §5): principals, the directory of contexts, the bos_* and direct
 * federated tools, and the `bos/source-results/v1` streaming extension.
 */
export {
  createDemoDirectory,
  createDocumentDirectory,
  createEnvCredentialResolver,
  createInMemoryDirectory,
  createItemsDirectory,
  createMemoryDirectoryItems,
  CredentialError,
  DEMO_DIRECTORY_DOCUMENT,
  DEMO_PEOPLE_CONTEXT_HANDLE,
  DEMO_SALES_CONTEXT_HANDLE,
  DEMO_COMPLETE_CONTEXT_HANDLE,
  DEMO_SOURCE_IDS,
  DEMO_SOURCE_TIMEOUT_MS,
  DEMO_ENTRA_CREDENTIAL_REF,
  DEMO_AD_CREDENTIAL_REF,
  DEMO_LDAP_CREDENTIAL_REF,
  DEMO_PROVIDER_TIMEOUT_MS,
  DEMO_SCIM_CREDENTIAL_REF,
  demoDirectoryWithProviders,
  demoProviderSources,
  DirectoryDataError,
  DirectoryDocumentError,
  documentToItems,
  parseDirectoryDocument,
  readSourceDefinitionEntries,
  readSourceDefinitions,
  sourceCacheMillis,
  sourceCredential,
} from './directory/index.js';
export type {
  ContextDefinition,
  DemoProviders,
  ContextGrant,
  CredentialResolver,
  Directory,
  DirectoryDocument,
  DirectoryItem,
  DirectoryItemsReader,
  InMemoryDirectoryOptions,
  ItemsDirectoryOptions,
  PublicContext,
  SourceCacheDefinition,
  SourceCredential,
  SourceDefinition,
  SourceDefinitionEntry,
} from './directory/index.js';
export { AuthError, BosConfigError } from './errors.js';
export type { AuthErrorCode } from './errors.js';
export {
  DEFAULT_CONTRACT_URI,
  MAX_CONCURRENT_SOURCES,
  negotiatesSourceResults,
  PAGE_SIZE,
  SOURCE_RESULT_METHOD,
  SOURCE_RESULTS_EXTENSION,
  sourceResultsCapability,
} from './extension/index.js';
export { OPERATIONS } from './operations/index.js';
export type { OperationDef, OperationEffect } from './operations/index.js';
export { createBosPlatform } from './platform.js';
export type { BosPlatform, BosPlatformOptions } from './platform.js';
export {
  assertDeployableIssuer,
  authenticate,
  BOS_READ_SCOPE,
  createJwtVerifier,
  isDevIssuerUrl,
  protectedResourceMetadata,
  resourceMetadataPaths,
  resourceMetadataUrl,
} from './principals/index.js';
export type {
  AuthenticateOptions,
  AuthOutcome,
  JwksSource,
  JwtVerifierOptions,
  KeySetFetch,
  ProtectedResourceMetadata,
  RemoteJwksOptions,
  TokenVerifier,
} from './principals/index.js';
export { IDENTITY_CONTRACT_VERSION } from './tools/index.js';
export type { OperationCompleteness, OperationReport, OperationTelemetry } from './tools/index.js';
