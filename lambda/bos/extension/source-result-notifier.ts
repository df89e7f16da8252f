import type { FederationEvent, PageOrigin } from '../../federation/index.js';
import type { JsonObject, JsonRpcId, JsonRpcNotification, JsonValue } from '../../mcp/index.js';
import type { PublicContext } from '../directory/types.js';

/** The JSON-RPC method of a source notification (contract §3). */
export const SOURCE_RESULT_METHOD = 'notifications/bos/source_result';

/** One engine event as the notifier needs it. */
export interface SourceResultEvent {
  status: 'page' | 'complete' | 'error';
  source: { source_type: string; source_identity: string };
  pageIndex: number;
  /** Page records; ignored (sent as `[]`) for terminals, which carry none (contract §3, §5). */
  records?: readonly unknown[];
  /** One of the five codes, on `error` only. */
  code?: string;
  /** A page answered from a cached source's baseline or delta (absent when read live). */
  origin?: PageOrigin;
}

/**
 * Where a page's records came from, in the page's `_meta` (MCP reserves `_meta` on every params object for
 * such metadata): `cache_baseline` or `source_delta`. Live pages carry no `_meta`, exactly as before.
 */
export const PAGE_ORIGIN_META_KEY = 'bos/page_origin';

/** An engine event as the notifier takes it: records only on pages, the code only on errors. */
export function sourceResultEvent(event: FederationEvent): SourceResultEvent {
  return {
    status: event.type,
    source: event.source,
    pageIndex: event.pageIndex,
    records: event.type === 'page' ? event.records : undefined,
    code: event.type === 'error' ? event.code : undefined,
    origin: event.type === 'page' ? event.origin : undefined,
  };
}

/**
 * Builds `notifications/bos/source_result` messages for one invocation. `sequence` is global to the
 * invocation, starts at 1 and has no gaps (contract §4). Params keep the key order of the contract's
 * examples: requestId, sequence, pageIndex, source, records, status, error?, context, then `_meta` on a page
 * that did not come live from the provider.
 */
export function createSourceResultNotifier(
  requestId: JsonRpcId,
  context: PublicContext,
  send: (notification: JsonRpcNotification) => void,
): (event: SourceResultEvent) => void {
  let sequence = 0;
  const publicContext = contextObject(context);
  return (event) => {
    sequence += 1;
    const params: JsonObject = {
      requestId,
      sequence,
      pageIndex: event.pageIndex,
      source: { source_type: event.source.source_type, source_identity: event.source.source_identity },
      records: event.status === 'page' ? ((event.records ?? []) as JsonValue[]) : [],
      status: event.status,
    };
    if (event.status === 'error') params.error = { code: event.code ?? 'source_unavailable' };
    params.context = publicContext;
    if (event.status === 'page' && event.origin !== undefined)
      params._meta = { [PAGE_ORIGIN_META_KEY]: event.origin };
    send({ jsonrpc: '2.0', method: SOURCE_RESULT_METHOD, params });
  };
}

/** The public context in wire key order, with nothing else the server may know about it. */
export function contextObject(context: PublicContext): JsonObject {
  return {
    context_handle: context.context_handle,
    organization_name: context.organization_name,
    application_name: context.application_name,
    installation_name: context.installation_name,
    role_label: context.role_label,
    is_default: context.is_default,
  };
}
