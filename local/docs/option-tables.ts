/**
 * The option tables of the docs, rendered from each adapter kind's declaration
 * (`lambda/sources/registry/option-table.ts`). `npm run docs:options` writes them between their markers
 * (`<!-- options:scim -->` … `<!-- /options:scim -->`); `test/unit/local/option-tables.test.ts` fails when a
 * doc's table differs from its declaration.
 */
import { ENTRA_OPTIONS } from '../../lambda/sources/entra/options.js';
import { FIXTURE_OPTIONS } from '../../lambda/sources/fixture/definition.js';
import { HTTP_JSON_OPTIONS } from '../../lambda/sources/http-json/definition.js';
import { LDAP_OPTIONS } from '../../lambda/sources/ldap/options.js';
import { OKTA_OPTIONS } from '../../lambda/sources/okta/options.js';
import type { OptionField } from '../../lambda/sources/registry/option-table.js';
import { SCIM_OPTIONS } from '../../lambda/sources/scim/options.js';

/** A declaration and the doc that shows it. */
export interface OptionDoc {
  readonly kind: string;
  /** Repository-relative Markdown file. */
  readonly file: string;
  readonly fields: Readonly<Record<string, OptionField<unknown>>>;
}

/** Every kind's table and where it is shown. */
export const OPTION_DOCS: readonly OptionDoc[] = [
  { kind: 'scim', file: 'docs/adapters.md', fields: SCIM_OPTIONS.fields },
  { kind: 'ldap', file: 'docs/adapters.md', fields: LDAP_OPTIONS.fields },
  { kind: 'entra', file: 'docs/adapters.md', fields: ENTRA_OPTIONS.fields },
  { kind: 'okta', file: 'docs/adapters.md', fields: OKTA_OPTIONS.fields },
  { kind: 'http-json', file: 'docs/adapter-http-json.md', fields: HTTP_JSON_OPTIONS.fields },
  { kind: 'fixture', file: 'docs/directory.md', fields: FIXTURE_OPTIONS.fields },
];

/** The columns of every option table. */
export const OPTION_COLUMNS = ['option', 'type', 'default', 'required', 'meaning'] as const;

/** How a default reads in the docs. */
function defaultCell(field: OptionField<unknown>): string {
  if (field.defaultText !== undefined) return field.defaultText;
  const value = field.default;
  if (value === undefined) return '—';
  if (value instanceof URL) return `\`${value.href}\``;
  if (typeof value === 'string') return value === '' ? '`""`' : `\`${value}\``;
  return `\`${JSON.stringify(value)}\``;
}

/** One row of cells per option, in declaration order. */
export function optionRows(doc: OptionDoc): string[][] {
  return Object.entries(doc.fields).map(([name, field]) => [
    `\`${name}\``,
    field.type,
    defaultCell(field),
    field.required === true ? 'yes' : 'no',
    field.meaning,
  ]);
}

/** The Markdown table (unpadded; the formatter pads it). */
export function renderOptionTable(doc: OptionDoc): string {
  const line = (cells: readonly string[]) => `| ${cells.join(' | ')} |`;
  return [line(OPTION_COLUMNS), line(OPTION_COLUMNS.map(() => '---')), ...optionRows(doc).map(line)].join(
    '\n',
  );
}

export const startMarker = (kind: string) => `<!-- options:${kind} -->`;
export const endMarker = (kind: string) => `<!-- /options:${kind} -->`;

/** The table between `kind`'s markers in `markdown`, or undefined when the markers are missing. */
export function tableIn(markdown: string, kind: string): string | undefined {
  const start = markdown.indexOf(startMarker(kind));
  const end = markdown.indexOf(endMarker(kind));
  if (start < 0 || end < start) return undefined;
  return markdown.slice(start + startMarker(kind).length, end).trim();
}

/** `markdown` with `doc`'s table written between its markers (which must exist). */
export function withTable(markdown: string, doc: OptionDoc): string {
  const start = markdown.indexOf(startMarker(doc.kind));
  const end = markdown.indexOf(endMarker(doc.kind));
  if (start < 0 || end < start)
    throw new Error(`${doc.file} has no ${startMarker(doc.kind)} … ${endMarker(doc.kind)}`);
  return `${markdown.slice(0, start + startMarker(doc.kind).length)}\n\n${renderOptionTable(doc)}\n\n${markdown.slice(end)}`;
}

/** A Markdown table's rows as trimmed cells, header and separator left out. */
export function cellsOf(table: string): string[][] {
  return table
    .split('\n')
    .filter((line) => line.startsWith('|'))
    .slice(2)
    .map((line) =>
      line
        .slice(1, -1)
        .split(/(?<!\\)\|/)
        .map((cell) => cell.trim()),
    );
}
