export { createEnvCredentialResolver, sourceCredential } from './credential-resolver.js';
export type { CredentialResolver, SourceCredential } from './credential-resolver.js';
export {
  createDemoDirectory,
  DEMO_CRM_CREDENTIAL_REF,
  DEMO_DIRECTORY_DOCUMENT,
  DEMO_PEOPLE_CONTEXT_HANDLE,
  DEMO_SALES_CONTEXT_HANDLE,
  DEMO_COMPLETE_CONTEXT_HANDLE,
  DEMO_SOURCE_IDS,
  DEMO_SOURCE_TIMEOUT_MS,
} from './demo-directory.js';
export {
  DEMO_ENTRA_CREDENTIAL_REF,
  DEMO_AD_CREDENTIAL_REF,
  DEMO_LDAP_CREDENTIAL_REF,
  DEMO_PROVIDER_TIMEOUT_MS,
  DEMO_SCIM_CREDENTIAL_REF,
  demoDirectoryWithProviders,
  demoProviderSources,
} from './demo-providers.js';
export type { DemoProviders } from './demo-providers.js';
export {
  CONTEXT_HANDLE_PATTERN,
  contextGrantOf,
  CREDENTIAL_REF_PATTERN,
  DIRECTORY_FORMAT,
  parseDirectoryDocument,
} from './document.js';
export type {
  ContextDefinition,
  DirectoryDocument,
  PrincipalDefinition,
  SourceDefinition,
} from './document.js';
export { CredentialError, DirectoryDataError, DirectoryDocumentError } from './errors.js';
export { createDocumentDirectory, createInMemoryDirectory } from './in-memory-directory.js';
export type { InMemoryDirectoryOptions } from './in-memory-directory.js';
export { createItemsDirectory } from './items-directory.js';
export type { ItemsDirectoryOptions } from './items-directory.js';
export {
  createMemoryDirectoryItems,
  documentToItems,
  itemToContextGrant,
  itemToSourceDefinition,
  readSourceDefinitionEntries,
  readSourceDefinitions,
} from './items.js';
export type { DirectoryItem, DirectoryItemsReader, SourceDefinitionEntry } from './items.js';
export {
  DEFAULT_CACHE_MAX_STALENESS,
  DEFAULT_CACHE_REFRESH,
  parseIsoDuration,
  sourceCacheMillis,
} from './source-cache.js';
export type { SourceCacheDefinition, SourceCacheMillis } from './source-cache.js';
export type { ContextGrant, Directory, PublicContext } from './types.js';
