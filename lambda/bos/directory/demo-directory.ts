import { DIRECTORY_FORMAT } from './document.js';
import type { ContextDefinition, DirectoryDocument, SourceDefinition } from './document.js';
import { createDocumentDirectory } from './in-memory-directory.js';
import type { Directory } from './types.js';

/** The demo sources' ids, in the People Directory's read order. */
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
/** The context whose sources all complete: a read there is a success to any client (`isError: false`). */
export const DEMO_COMPLETE_CONTEXT_HANDLE = 'ctx_0e3909d4b9d16758e38a51a562fc83e8';

const READ_OPERATIONS = ['search_people', 'get_person', 'list_people'] as const;

/** `acme-legacy` hangs, and a 1,500 ms source timeout ends it with `source_timeout`. */
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
 * The People Directory without `acme-legacy`: every source completes, so its reads end `complete` with
 * `isError: false`. The timeout is generous because the point is a success even on a busy machine.
 */
const healthyDirectory: ContextDefinition = {
  context_handle: DEMO_COMPLETE_CONTEXT_HANDLE,
  organization_name: 'Acme Corp',
  application_name: 'People Directory',
  installation_name: 'Healthy sources',
  role_label: 'Analyst',
  is_default: false,
  operations: READ_OPERATIONS,
  source_ids: DEMO_SOURCE_IDS.filter((id) => id !== 'acme-legacy'),
  source_timeout_ms: 10_000,
};

/** The credential `acme-crm` names: `BOS_SECRET_ACME_CRM_TOKEN` locally (the local stack generates one). */
export const DEMO_CRM_CREDENTIAL_REF = 'ACME_CRM_TOKEN';

/**
 * The demo sources as `fixture` definitions (options: `lambda/sources/fixture/definition.ts`): fast, slow,
 * big-paged, empty and hanging providers. The numbers are those of the `demo` fixture preset
 * (`DEMO_SOURCE_OPTIONS`; a unit test keeps the two equal). `acme-crm` needs a credential, resolved by its
 * adapter at read time, so the demo exercises credential resolution end to end.
 */
const demoSources: readonly SourceDefinition[] = [
  // The system of record for employees: fast, 100-record provider pages.
  {
    source_id: 'acme-hr',
    adapter: 'fixture',
    options: { source_type: 'hr', record_count: 240, latency_ms: 40 },
  },
  // Sales contacts: 60 % are hr people sharing an email (some in odd case); a slow provider.
  {
    source_id: 'acme-crm',
    adapter: 'fixture',
    options: {
      source_type: 'crm',
      record_count: 180,
      latency_ms: 250,
      overlaps: [{ with: 'acme-hr', with_record_count: 240, by: 'email', share: 0.6 }],
      requires_credential: true,
    },
    credential_ref: DEMO_CRM_CREDENTIAL_REF,
  },
  // The corporate directory: big provider pages (split into delivery pages); 10 % share an hr phone.
  {
    source_id: 'acme-directory',
    adapter: 'fixture',
    options: {
      source_type: 'directory',
      record_count: 1200,
      provider_page_size: 500,
      latency_ms: 80,
      overlaps: [{ with: 'acme-hr', with_record_count: 240, by: 'phone', share: 0.1 }],
    },
  },
  // A retired system with nothing left: completes with pageIndex 0.
  { source_id: 'acme-archive', adapter: 'fixture', options: { source_type: 'archive', record_count: 0 } },
  // A legacy system that delivers one page and then hangs; its own timeout ends it with source_timeout.
  {
    source_id: 'acme-legacy',
    adapter: 'fixture',
    options: {
      source_type: 'legacy',
      record_count: 150,
      latency_ms: 100,
      timeout_ms: 1500,
      failure: { mode: 'hang', after_pages: 1 },
    },
  },
];

/**
 * The embedded demo directory as a `bos-directory/v1` document: what `createDemoDirectory` serves in
 * memory, what the platform builds its sources from when no `BOS_DIRECTORY_TABLE` is set, and what
 * `npm run seed:directory -- --demo` (and the local stack) loads into DynamoDB. `dev-user` holds the three Acme
 * contexts, `outsider` holds none.
 */
export const DEMO_DIRECTORY_DOCUMENT: DirectoryDocument = {
  format: DIRECTORY_FORMAT,
  principals: [
    {
      subject: 'dev-user',
      grants: [DEMO_PEOPLE_CONTEXT_HANDLE, DEMO_SALES_CONTEXT_HANDLE, DEMO_COMPLETE_CONTEXT_HANDLE],
    },
    { subject: 'outsider', grants: [] },
  ],
  contexts: [peopleDirectory, salesSandbox, healthyDirectory],
  sources: demoSources,
};

/** The embedded demo directory `npm start` serves (see {@link DEMO_DIRECTORY_DOCUMENT}). */
export function createDemoDirectory(): Directory {
  return createDocumentDirectory(DEMO_DIRECTORY_DOCUMENT);
}
