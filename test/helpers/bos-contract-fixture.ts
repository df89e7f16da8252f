/**
 * Shared facts of the `bos-contract*` suites: the demo People context and its sources, the five error codes
 * (contract §5), and the `bos_execute` arguments envelope (contract §2 template).
 */
import { DEMO_PEOPLE_CONTEXT_HANDLE } from '../../lambda/bos/index.js';

export const CODES = [
  'source_timeout',
  'source_identity_mismatch',
  'provider_authorization_required',
  'rate_limited',
  'source_unavailable',
];
export const PEOPLE_CONTEXT = {
  context_handle: DEMO_PEOPLE_CONTEXT_HANDLE,
  organization_name: 'Acme Corp',
  application_name: 'People Directory',
  installation_name: 'Production',
  role_label: 'Analyst',
  is_default: true,
};
export const PEOPLE_SOURCES = [
  'archive/acme-archive',
  'crm/acme-crm',
  'directory/acme-directory',
  'hr/acme-hr',
  'legacy/acme-legacy',
];
export const executeArgs = (handle: string, tool: string, args: Record<string, unknown>) => ({
  context_handle: handle,
  tool_name: tool,
  arguments: args,
});
