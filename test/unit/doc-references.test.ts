/**
 * Every code comment that sends a reader to a section of our docs (`docs/x.md "Heading"` or `docs/x.md §…`)
 * names a section that exists: a heading of that file that starts with the quoted text, or whose number is
 * the one after `§`. A renamed or removed section fails here instead of leaving a dead pointer.
 */
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const sourceFolders = ['lambda', 'local', 'client', 'lib', 'bin'];

function listTs(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === 'node_modules' ? [] : listTs(path);
    return /\.(ts|mts|js|mjs)$/.test(name) ? [path] : [];
  });
}

/** A reference found in a source file: the doc, and the quoted heading or the § number. */
export interface DocReference {
  readonly doc: string;
  readonly heading?: string;
  readonly section?: string;
}

/**
 * The doc references of `source`. A quoted heading may wrap onto the next comment line, so comment
 * continuations (`\n * `, `\n // `) are read as one space first.
 */
export function docReferences(source: string): DocReference[] {
  const text = source.replace(/\s*\n\s*(?:\*(?!\/)|\/\/)\s*/g, ' ');
  const found: DocReference[] = [];
  for (const match of text.matchAll(/docs\/([\w-]+\.md),?\s*(?:"([^"\n]+)"|§\s*(\d+(?:\.\d+)*))/g)) {
    const doc = `docs/${match[1] ?? ''}`;
    if (match[2] !== undefined) found.push({ doc, heading: match[2] });
    else found.push({ doc, section: match[3] ?? '' });
  }
  return found;
}

/**
 * The section titles of a markdown document: its headings, and the bold run-in heads that open a paragraph
 * (`**Multi-round input.** …`), which our docs use for sections within a heading.
 */
export function headingsOf(markdown: string): string[] {
  const headings: string[] = [];
  let fenced = false;
  for (const line of markdown.split('\n')) {
    if (line.startsWith('```')) fenced = !fenced;
    else if (!fenced && /^#{1,6}\s/.test(line)) headings.push(line.replace(/^#+\s*/, '').trim());
    else if (!fenced) {
      const runIn = /^(?:[-*]\s+)?\*\*([^*]+?)\.?\*\*/.exec(line);
      if (runIn?.[1] !== undefined) headings.push(runIn[1].trim());
    }
  }
  return headings;
}

/** Whether `reference` names a heading among `headings`. */
export function resolves(reference: DocReference, headings: readonly string[]): boolean {
  const plain = (text: string): string => text.replace(/`/g, '').toLowerCase();
  if (reference.heading !== undefined) {
    const wanted = plain(reference.heading);
    return headings.some((heading) => plain(heading).startsWith(wanted));
  }
  const number = reference.section ?? '';
  return headings.some((heading) =>
    new RegExp(`^(?:§\\s*)?${number.replace(/\./g, '\\.')}\\.?\\s`).test(heading),
  );
}

describe('doc references in code comments', () => {
  it('every docs/x.md "Heading" or docs/x.md § reference in lambda/, local/, client/, lib/ and bin/ exists', () => {
    const broken: string[] = [];
    let count = 0;
    for (const file of sourceFolders.flatMap((folder) => listTs(join(root, folder)))) {
      for (const reference of docReferences(readFileSync(file, 'utf8'))) {
        count += 1;
        const docPath = join(root, reference.doc);
        const headings = existsSync(docPath) ? headingsOf(readFileSync(docPath, 'utf8')) : [];
        if (!resolves(reference, headings))
          broken.push(
            `${relative(root, file)}: ${reference.doc} ${reference.heading ?? `§${reference.section ?? ''}`}`,
          );
      }
    }
    assert.ok(count > 10, `only ${count} references found: the scan itself is broken`);
    assert.deepEqual(broken, []);
  });

  it('reads a reference that wraps onto the next comment line, and refuses a heading that is not there (the check can fail)', () => {
    const source = [
      '/**',
      ' * as API Gateway does (docs/aws.md "AWS facts and the local',
      ' * front"), and docs/x.md §2.1.',
      ' */',
    ].join('\n');
    assert.deepEqual(docReferences(source), [
      { doc: 'docs/aws.md', heading: 'AWS facts and the local front' },
      { doc: 'docs/x.md', section: '2.1' },
    ]);
    const headings = headingsOf(
      '# T\n\n## AWS facts and the local front\n\n```\n## Fenced\n```\n\n### 2.1 Paging\n',
    );
    assert.equal(resolves({ doc: 'docs/aws.md', heading: 'AWS facts' }, headings), true);
    assert.equal(resolves({ doc: 'docs/aws.md', heading: 'Fenced' }, headings), false);
    assert.equal(resolves({ doc: 'docs/aws.md', heading: 'Limits' }, headings), false);
    assert.equal(resolves({ doc: 'docs/x.md', section: '2.1' }, headings), true);
    assert.equal(resolves({ doc: 'docs/x.md', section: '2' }, headings), false);
  });
});
