import { createInMemoryDirectory } from './in-memory-directory.js';
import type { ContextGrant, Directory } from './types.js';

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

const peopleDirectory: ContextGrant = {
  context: {
    context_handle: DEMO_PEOPLE_CONTEXT_HANDLE,
    organization_name: 'Acme Corp',
    application_name: 'People Directory',
    installation_name: 'Production',
    role_label: 'Analyst',
    is_default: true,
  },
  operations: READ_OPERATIONS,
  sourceIds: DEMO_SOURCE_IDS,
  sourceTimeoutMs: DEMO_SOURCE_TIMEOUT_MS,
};

const salesSandbox: ContextGrant = {
  context: {
    context_handle: DEMO_SALES_CONTEXT_HANDLE,
    organization_name: 'Acme Corp',
    application_name: 'Sales',
    installation_name: 'Sandbox',
    role_label: 'Viewer',
    is_default: false,
  },
  operations: READ_OPERATIONS,
  sourceIds: ['acme-crm'],
  sourceTimeoutMs: DEMO_SOURCE_TIMEOUT_MS,
};

/**
 * The embedded demo directory `npm start` serves: `dev-user` holds both Acme contexts, `outsider`
 * holds none.
 */
export function createDemoDirectory(): Directory {
  return createInMemoryDirectory({
    contexts: [peopleDirectory, salesSandbox],
    grants: {
      'dev-user': [DEMO_PEOPLE_CONTEXT_HANDLE, DEMO_SALES_CONTEXT_HANDLE],
      outsider: [],
    },
  });
}
