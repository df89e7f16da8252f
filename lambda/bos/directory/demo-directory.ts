import { DIRECTORY_FORMAT } from './document.js';
import type { ContextDefinition, DirectoryDocument } from './document.js';
import { createDocumentDirectory } from './in-memory-directory.js';
import type { Directory } from './types.js';

/** The demo sources, as ids the composition root maps to fixture adapters. */
export const DEMO_SOURCE_IDS = [
  'acme-hr',
  'acme-crm',
  'acme-directory',
  'acme-archive',
  'acme-legacy',
] as const;

/** Fixed but random-looking handles (128-bit), so the demo behaves the same on every start. */
export const DEMO_PEOPLE_CONTEXT_HANDLE = 'ctx_9486485ee7b3ed88ea163fd2912ad0ef';
export const DEMO_SALES_CONTEXT_HANDLE = 'ctx_af28a0acbec9713b15809a50cc6a21b0';

const READ_OPERATIONS = ['search_people', 'get_person', 'list_people'] as const;

/** Issue 4: `acme-legacy` hangs, and a 1,500 ms source timeout ends it with `source_timeout`. */
export const DEMO_SOURCE_TIMEOUT_MS = 1_500;

const peopleDirectory: ContextDefinition = {
  context_handle: DEMO_PEOPLE_CONTEXT_HANDLE,
  organization_name: 'Acme Corp',
  application_name: 'People Directory',
  installation_name: 'Production',
  role_label: 'Analyst',
  is_default: true,
  operations: READ_OPERATIONS,
  source_ids: DEMO_SOURCE_IDS,
  source_timeout_ms: DEMO_SOURCE_TIMEOUT_MS,
};

const salesSandbox: ContextDefinition = {
  context_handle: DEMO_SALES_CONTEXT_HANDLE,
  organization_name: 'Acme Corp',
  application_name: 'Sales',
  installation_name: 'Sandbox',
  role_label: 'Viewer',
  is_default: false,
  operations: READ_OPERATIONS,
  source_ids: ['acme-crm'],
  source_timeout_ms: DEMO_SOURCE_TIMEOUT_MS,
};

/**
 * The embedded demo directory as a `bos-directory/v1` document: what `createDemoDirectory` serves in
 * memory and what `npm run seed:directory` (no `--file`) loads into DynamoDB. `dev-user` holds both Acme
 * contexts, `outsider` holds none. The sources are the fixture adapters of `lambda/sources` (preset
 * `demo`); none needs a credential.
 */
export const DEMO_DIRECTORY_DOCUMENT: DirectoryDocument = {
  format: DIRECTORY_FORMAT,
  principals: [
    { subject: 'dev-user', grants: [DEMO_PEOPLE_CONTEXT_HANDLE, DEMO_SALES_CONTEXT_HANDLE] },
    { subject: 'outsider', grants: [] },
  ],
  contexts: [peopleDirectory, salesSandbox],
  sources: DEMO_SOURCE_IDS.map((id) => ({ source_id: id, adapter: 'fixture', options: { preset: 'demo' } })),
};

/** The embedded demo directory `npm start` serves (see {@link DEMO_DIRECTORY_DOCUMENT}). */
export function createDemoDirectory(): Directory {
  return createDocumentDirectory(DEMO_DIRECTORY_DOCUMENT);
}
