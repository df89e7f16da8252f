/**
 * Test data typed from the synthetic example of the `bos/source-results/v1` contract (§3 and §5): one
 * record page and its completion from `example/demo-source`, a `source_timeout` from
 * `example/other-demo-source`, and the final `bos_execute` frame. Plus small factories for variants.
 */

export const REQUEST_ID = 'search-1';

export const CONTEXT = {
  context_handle: 'DISCOVERED_CONTEXT_HANDLE',
  organization_name: 'Example Organization',
  application_name: 'Example Application',
  installation_name: 'Example Installation',
  role_label: 'Example Role',
  is_default: true,
};

export const DEMO_RECORD = {
  record_ref: 'bos:person:demo-1',
  display_name: 'Example Person',
  email: null,
  phone: null,
  lifecycle: null,
  sources: [
    {
      source_type: 'example',
      source_identity: 'demo-source',
      external_id: 'demo-1',
      record_type: 'person',
      observed_at: '2026-10-08T12:00:00Z',
      capabilities: ['read'],
      version: null,
    },
  ],
  identity_match: null,
  attributes: {},
};

export const FINAL_METADATA = {
  retrieval_mode: 'live_provider',
  cache_baseline_applied: false,
  source_delta_applied: false,
  completeness: 'partial',
  result_count: 1,
  observed_at: '2026-10-08T12:00:00+00:00',
  provenance: [
    { source_type: 'example', source_identity: 'demo-source', observed_at: '2026-10-08T12:00:00+00:00' },
  ],
  source_errors: [
    {
      source: { source_type: 'example', source_identity: 'other-demo-source' },
      error: { code: 'source_timeout' },
    },
  ],
};

const ENVELOPE = {
  contract_version: 'bos-identity-mcp/v2',
  context: CONTEXT,
  result: { result: [DEMO_RECORD], metadata: FINAL_METADATA },
};

/** The three notification frames and the final frame, exactly as the contract shows them. */
export const CONTRACT_MESSAGES = [
  {
    jsonrpc: '2.0',
    method: 'notifications/bos/source_result',
    params: {
      requestId: 'search-1',
      sequence: 1,
      pageIndex: 1,
      source: { source_type: 'example', source_identity: 'demo-source' },
      records: [DEMO_RECORD],
      status: 'page',
      context: CONTEXT,
    },
  },
  {
    jsonrpc: '2.0',
    method: 'notifications/bos/source_result',
    params: {
      requestId: 'search-1',
      sequence: 2,
      pageIndex: 1,
      source: { source_type: 'example', source_identity: 'demo-source' },
      records: [],
      status: 'complete',
      context: CONTEXT,
    },
  },
  {
    jsonrpc: '2.0',
    method: 'notifications/bos/source_result',
    params: {
      requestId: 'search-1',
      sequence: 3,
      pageIndex: 0,
      source: { source_type: 'example', source_identity: 'other-demo-source' },
      records: [],
      status: 'error',
      error: { code: 'source_timeout' },
      context: CONTEXT,
    },
  },
  {
    jsonrpc: '2.0',
    id: 'search-1',
    result: {
      content: [{ type: 'text', text: JSON.stringify(ENVELOPE) }],
      structuredContent: ENVELOPE,
      isError: true,
      _meta: { 'bos/context': CONTEXT },
    },
  },
] as const;

/** One SSE `event: message` frame (contract §3: terminated by a blank line). */
export const frame = (message: unknown): string => `event: message\ndata: ${JSON.stringify(message)}\n\n`;

/** A source notification with overridable params (factory with overrides). */
export function sourceFrame(params: Record<string, unknown>): Record<string, unknown> {
  return {
    jsonrpc: '2.0',
    method: 'notifications/bos/source_result',
    params: {
      requestId: REQUEST_ID,
      sequence: 1,
      pageIndex: 1,
      source: { source_type: 'example', source_identity: 'demo-source' },
      records: [],
      status: 'page',
      context: CONTEXT,
      ...params,
    },
  };
}

/** A final response for a direct federated read tool (records at structuredContent.result). */
export function directFinal(
  records: unknown[],
  metadata: Record<string, unknown>,
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  const structuredContent = { result: records, metadata };
  return {
    jsonrpc: '2.0',
    id: REQUEST_ID,
    result: {
      content: [{ type: 'text', text: JSON.stringify(structuredContent) }],
      structuredContent,
      isError: metadata.completeness !== 'complete',
      ...extra,
    },
  };
}

/** The contract stream with the MCP priming event and keepalive comments the server may add. */
export const CONTRACT_STREAM =
  'id: prime-0\ndata:\n\n' +
  ': bos/source-results/v1\n\n' +
  frame(CONTRACT_MESSAGES[0]) +
  ': keepalive\n\n' +
  CONTRACT_MESSAGES.slice(1).map(frame).join('');

/** Bytes → a ReadableStream delivering the given chunks in order. */
export function streamOf(chunks: readonly Uint8Array[]): ReadableStream<Uint8Array> {
  let i = 0;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      const chunk = chunks[i++];
      if (chunk === undefined) controller.close();
      else controller.enqueue(chunk);
    },
  });
}

/** Splits bytes at the given offsets. */
export function splitAt(bytes: Uint8Array, offsets: readonly number[]): Uint8Array[] {
  const out: Uint8Array[] = [];
  let start = 0;
  for (const offset of [...offsets, bytes.length]) {
    out.push(bytes.subarray(start, offset));
    start = offset;
  }
  return out;
}
