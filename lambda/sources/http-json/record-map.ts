/**
 * One item of an `http-json` response as a federated raw record, by the definition's field mapping
 * (dotted JSON paths). An item without an external id is malformed: skipped and counted.
 */
import type { RawRecord, SourceRef } from '../../federation/index.js';
import { ProviderError } from '../kernel/index.js';
import type { ItemOutcome } from '../kernel/index.js';
import type { HttpJsonFields, HttpJsonOptions } from './definition.js';

const MALFORMED = { skip: 'malformed_record' } as const;
const CAPABILITIES: readonly string[] = Object.freeze(['read']);

/** The value at a dotted `path` of `value` ('' is the value itself). */
export function atPath(value: unknown, path: string): unknown {
  if (path === '') return value;
  let current = value;
  for (const key of path.split('.')) {
    if (typeof current !== 'object' || current === null || Array.isArray(current)) return undefined;
    current = Object.hasOwn(current, key) ? (current as Record<string, unknown>)[key] : undefined;
  }
  return current;
}

const text = (v: unknown): string | null =>
  typeof v === 'string' && v.trim() !== ''
    ? v
    : typeof v === 'number' && Number.isFinite(v)
      ? String(v)
      : null;

/** Maps items of one source. */
export function httpJsonMapper(
  source: SourceRef,
  fields: HttpJsonFields,
  readAt: string,
  identity?: HttpJsonOptions['identity'],
): (item: unknown) => ItemOutcome {
  return (item) => {
    const id = text(atPath(item, fields.externalId));
    if (id === null) return MALFORMED;
    if (identity !== undefined) {
      const claimed = atPath(item, identity.path);
      if (typeof claimed !== 'string' || !claimed.startsWith(identity.prefix))
        throw new ProviderError('source_identity_mismatch', 'identity_mismatch');
    }
    const read = (path: string | undefined) => (path === undefined ? null : text(atPath(item, path)));
    const observed = read(fields.observedAt);
    const attributes: Record<string, unknown> = {};
    for (const [name, path] of Object.entries(fields.attributes)) {
      const value = atPath(item, path);
      if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean')
        attributes[name] = value;
    }
    const record: RawRecord = {
      source_type: source.source_type,
      source_identity: source.source_identity,
      external_id: id,
      record_type: 'person',
      observed_at:
        observed !== null && !Number.isNaN(Date.parse(observed))
          ? new Date(Date.parse(observed)).toISOString()
          : readAt,
      capabilities: CAPABILITIES,
      version: null,
      display_name: read(fields.displayName),
      email: read(fields.email),
      phone: read(fields.phone),
      lifecycle: read(fields.lifecycle),
      attributes,
    };
    return record;
  };
}
