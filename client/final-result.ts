/**
 * Reads the authoritative final response (contract §5): records, metadata, completeness, source errors
 * and context, from either result path — direct federated tools or the `bos_execute` identity envelope.
 */
import type { ConfirmedOutcome, ObservedSummary, RequestId, SourceRef } from './source-results-types.js';

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** The fields of a confirmed outcome that come from the final response alone. */
export type FinalFields = Omit<ConfirmedOutcome, keyof ObservedSummary | 'confirmed'>;

/** True when `message` is a JSON-RPC response (result or error) — not a request or notification. */
export function isJsonRpcResponse(message: unknown): boolean {
  return (
    isObject(message) &&
    message.jsonrpc === '2.0' &&
    !('method' in message) &&
    'id' in message &&
    ('result' in message || 'error' in message)
  );
}

/**
 * Builds the final fields from a JSON-RPC response whose id already matched. The returned records are
 * exactly the final ones: provisional pages are never merged in (checklist item 6).
 */
export function readFinalResponse(id: RequestId, response: Record<string, unknown>): FinalFields {
  if (isObject(response.error)) {
    const { code, message, data } = response.error;
    const error: FinalFields['error'] = {
      code: typeof code === 'number' ? code : 0,
      message: typeof message === 'string' ? message : '',
    };
    if (data !== undefined) error.data = data;
    return { id, error, isError: true, path: 'other', sourceErrors: [] };
  }
  const result = isObject(response.result) ? response.result : {};
  const fields: FinalFields = {
    id,
    result,
    isError: result.isError === true,
    path: 'other',
    sourceErrors: [],
  };
  if (typeof result.resultType === 'string') fields.resultType = result.resultType;
  const structured = result.structuredContent;
  if (!isObject(structured)) return fields;

  let operation: Record<string, unknown> | undefined;
  if (Array.isArray(structured.result)) {
    // Direct federated tools: records at structuredContent.result, metadata beside them.
    fields.path = 'direct';
    operation = structured;
  } else if (isObject(structured.result) && Array.isArray(structured.result.result)) {
    // bos_execute: the identity envelope wraps the operation result one level down.
    fields.path = 'execute';
    operation = structured.result;
    const meta = isObject(result._meta) ? result._meta['bos/context'] : undefined;
    const context = isObject(structured.context) ? structured.context : isObject(meta) ? meta : undefined;
    if (context !== undefined) fields.context = context;
  }
  if (operation === undefined) return fields;

  fields.records = operation.result as unknown[];
  if (isObject(operation.metadata)) {
    const metadata = operation.metadata;
    fields.metadata = metadata;
    if (typeof metadata.completeness === 'string') fields.completeness = metadata.completeness;
    if (typeof metadata.result_count === 'number') fields.resultCount = metadata.result_count;
    if (Array.isArray(metadata.source_errors))
      fields.sourceErrors = metadata.source_errors.flatMap(toSourceError);
  }
  return fields;
}

function toSourceError(entry: unknown): { source: SourceRef; code: string }[] {
  if (!isObject(entry) || !isObject(entry.source) || !isObject(entry.error)) return [];
  const { source_type, source_identity } = entry.source;
  const code = entry.error.code;
  if (typeof source_type !== 'string' || typeof source_identity !== 'string' || typeof code !== 'string')
    return [];
  return [{ source: { source_type, source_identity }, code }];
}
