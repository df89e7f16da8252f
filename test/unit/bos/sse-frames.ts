/**
 * A strict reader of a finished SSE body for tests: every frame must be a comment block or an
 * `event: message` frame with an optional `id:` and exactly one `data:` line of JSON (contract §3).
 */
import assert from 'node:assert/strict';

import { parseSseBody } from '../../helpers/sse.js';

export type Frame =
  | { kind: 'comment'; text: string }
  | { kind: 'priming'; id: string }
  | { kind: 'message'; id?: string; data: string };

export function parseSse(body: string): Frame[] {
  assert.ok(body.endsWith('\n\n'), 'the stream ends on a frame boundary');
  const { items, problems } = parseSseBody(body);
  assert.deepEqual(problems, [], 'every frame line has the SSE field grammar');
  return items.map((item): Frame => {
    if (item.kind === 'comment') return { kind: 'comment', text: item.text };
    // The runtime's replay priming event: an id and an empty data field, no JSON payload.
    if (item.event === undefined && item.id !== undefined && item.data === '')
      return { kind: 'priming', id: item.id };
    assert.equal(item.event, 'message', 'every payload frame is event: message');
    return { kind: 'message', ...(item.id !== undefined && { id: item.id }), data: item.data };
  });
}

/** A JSON-RPC message as tests read it. */
export interface Message {
  jsonrpc: string;
  id?: unknown;
  method?: string;
  params?: SourceResultParams;
  result?: FinalResult;
  error?: { code: number; message: string };
}

export interface SourceRefJson {
  source_type: string;
  source_identity: string;
}

export interface RecordJson {
  record_ref: string;
  display_name?: string | null;
  sources: (SourceRefJson & { external_id: string })[];
}

export interface SourceResultParams {
  requestId: unknown;
  sequence: number;
  pageIndex: number;
  source: SourceRefJson;
  records: RecordJson[];
  status: 'page' | 'complete' | 'error';
  error?: { code: string };
  context: Record<string, unknown>;
}

export interface MetadataJson {
  retrieval_mode?: string;
  cache_baseline_applied?: boolean;
  source_delta_applied?: boolean;
  completeness: string;
  result_count: number;
  provenance: SourceRefJson[];
  source_errors: { source: SourceRefJson; error: { code: string } }[];
}

export interface FinalResult {
  content: { type: string; text: string }[];
  structuredContent: Record<string, unknown> & {
    result: RecordJson[] | { result: RecordJson[]; metadata: MetadataJson };
    metadata?: MetadataJson;
    context?: Record<string, unknown>;
  };
  isError: boolean;
  _meta?: Record<string, unknown>;
}

/** JSON messages of the stream in order, skipping comments and the priming event. */
export function messagesOf(frames: Frame[]): Message[] {
  return frames
    .filter((f): f is Extract<Frame, { kind: 'message' }> => f.kind === 'message')
    .map((f) => JSON.parse(f.data) as Message);
}

/** Records and metadata of a final result, from either the direct or the `bos_execute` shape. */
export function operationResultOf(result: FinalResult): { records: RecordJson[]; metadata: MetadataJson } {
  const structured = result.structuredContent;
  if (Array.isArray(structured.result)) {
    return { records: structured.result, metadata: structured.metadata as MetadataJson };
  }
  return { records: structured.result.result, metadata: structured.result.metadata };
}

/** `type/identity`, the complete source pair as one key. */
export const pairKey = (source: SourceRefJson): string => `${source.source_type}/${source.source_identity}`;
