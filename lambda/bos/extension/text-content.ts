/**
 * The text block of a BOS result: the JSON of `structuredContent` written the way the contract's
 * final-frame example shows it (§5): `", "` and `": "` separators and non-ASCII escaped as `\uXXXX`.
 * Parsing it gives exactly `structuredContent`.
 *
 * A direct serializer rather than post-processing `JSON.stringify` output with a regular expression:
 * a callback per string literal and separator cost over 100× more on large results.
 */
export function structuredText(value: unknown): string {
  return write(value) ?? 'null';
}

/** JSON.stringify's rules (undefined/functions skipped in objects, `null` in arrays, `toJSON`). */
function write(value: unknown): string | undefined {
  switch (typeof value) {
    case 'string':
      return quote(value);
    case 'number':
      return Number.isFinite(value) ? String(value) : 'null';
    case 'boolean':
      return value ? 'true' : 'false';
    case 'object':
      return value === null ? 'null' : writeObject(value);
    default:
      return undefined;
  }
}

function writeObject(value: object): string {
  if (typeof (value as { toJSON?: unknown }).toJSON === 'function') {
    return write((value as { toJSON: () => unknown }).toJSON()) ?? 'null';
  }
  if (Array.isArray(value)) {
    let out = '[';
    for (let i = 0; i < value.length; i++) out += (i === 0 ? '' : ', ') + (write(value[i]) ?? 'null');
    return `${out}]`;
  }
  let out = '{';
  let first = true;
  for (const key of Object.keys(value)) {
    const item = write((value as Record<string, unknown>)[key]);
    if (item === undefined) continue;
    out += `${first ? '' : ', '}${quote(key)}: ${item}`;
    first = false;
  }
  return `${out}}`;
}

// eslint-disable-next-line no-control-regex
const NON_ASCII = /[^\x00-\x7f]/g;
// eslint-disable-next-line no-control-regex
const ALL_ASCII = /^[\x00-\x7f]*$/;

function quote(text: string): string {
  const json = JSON.stringify(text);
  return ALL_ASCII.test(text) ? json : json.replace(NON_ASCII, escapeUnit);
}

function escapeUnit(char: string): string {
  return `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`;
}
