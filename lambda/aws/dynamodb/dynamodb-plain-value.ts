/**
 * Plain JSON values <-> DynamoDB attribute values, for stores that keep data-shaped items (the BOS
 * directory). Covers exactly what JSON has: strings, finite numbers, booleans, null, arrays (L), objects
 * (M). `@aws-sdk/util-dynamodb` is not a dependency; this is the small subset it would give.
 */
import type { AttributeValue } from '@aws-sdk/client-dynamodb';

/** A plain JSON object as a DynamoDB item. Throws `TypeError` on values JSON cannot hold. */
export function toAttributeMap(value: Readonly<Record<string, unknown>>): Record<string, AttributeValue> {
  // Null prototype: a key named `__proto__` is data, not the object's prototype.
  const out = Object.create(null) as Record<string, AttributeValue>;
  for (const [key, item] of Object.entries(value)) if (item !== undefined) out[key] = toAttribute(item);
  return out;
}

function toAttribute(value: unknown): AttributeValue {
  if (typeof value === 'string') return { S: value };
  if (typeof value === 'boolean') return { BOOL: value };
  if (value === null) return { NULL: true };
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new TypeError('non-finite number in a directory item');
    return { N: String(value) };
  }
  if (Array.isArray(value)) return { L: value.map(toAttribute) };
  if (typeof value === 'object') return { M: toAttributeMap(value as Record<string, unknown>) };
  throw new TypeError(`unsupported ${typeof value} in a directory item`);
}

/** A DynamoDB item as a plain JSON object; sets become arrays, binary values are refused. */
export function fromAttributeMap(item: Readonly<Record<string, AttributeValue>>): Record<string, unknown> {
  const out = Object.create(null) as Record<string, unknown>;
  for (const [key, value] of Object.entries(item)) out[key] = fromAttribute(value);
  return out;
}

function fromAttribute(value: AttributeValue): unknown {
  if (value.S !== undefined) return value.S;
  if (value.N !== undefined) return Number(value.N);
  if (value.BOOL !== undefined) return value.BOOL;
  if (value.NULL !== undefined) return null;
  if (value.L !== undefined) return value.L.map(fromAttribute);
  if (value.M !== undefined) return fromAttributeMap(value.M);
  if (value.SS !== undefined) return [...value.SS];
  if (value.NS !== undefined) return value.NS.map(Number);
  throw new TypeError('unsupported attribute type in a directory item');
}
