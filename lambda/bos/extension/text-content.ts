/**
 * The text block of a federated result: the JSON of `structuredContent` written the way the contract's
 * final-frame example shows it (§5): `", "` and `": "` separators and non-ASCII escaped as `\uXXXX`.
 * Parsing it gives exactly `structuredContent`.
 */
export function structuredText(value: unknown): string {
  // One pass over JSON.stringify's output: string literals are kept (with non-ASCII escaped), and the
  // structural `,` and `:` outside them gain a space. Cheaper than a hand-written serializer.
  return JSON.stringify(value).replace(STRING_OR_SEPARATOR, (match: string, literal?: string) =>
    literal === undefined ? `${match} ` : literal.replace(NON_ASCII, escapeUnit),
  );
}

const STRING_OR_SEPARATOR = /("(?:[^"\\]|\\.)*")|[,:]/g;
// eslint-disable-next-line no-control-regex
const NON_ASCII = /[^\x00-\x7f]/g;

function escapeUnit(char: string): string {
  return `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`;
}
