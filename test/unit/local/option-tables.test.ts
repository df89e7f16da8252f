/** The option tables in the docs are the adapter kinds' declarations (`npm run docs:options` writes them). */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import {
  cellsOf,
  OPTION_DOCS,
  optionRows,
  renderOptionTable,
  tableIn,
} from '../../../local/docs/option-tables.js';
import { fromRepo } from '../../../local/paths.js';

describe('the docs option tables', () => {
  for (const doc of OPTION_DOCS)
    it(`${doc.file} shows the ${doc.kind} options exactly as declared (run npm run docs:options)`, () => {
      const table = tableIn(readFileSync(fromRepo(doc.file), 'utf8'), doc.kind);
      assert.ok(table !== undefined, `${doc.file} has no table between the ${doc.kind} markers`);
      assert.deepEqual(cellsOf(table), optionRows(doc));
    });

  it('a table that differs from its declaration is caught (the check itself can fail)', () => {
    // Prepare: the scim table as written, with one default changed.
    const [doc] = OPTION_DOCS;
    assert.ok(doc !== undefined);
    const edited = renderOptionTable(doc).replace('| `100` |', '| `50` |');
    // Assess
    assert.notDeepEqual(cellsOf(edited), optionRows(doc));
    assert.deepEqual(cellsOf(renderOptionTable(doc)), optionRows(doc));
  });

  it('declares a meaning for every option of every kind', () => {
    for (const doc of OPTION_DOCS)
      for (const [option, , , , meaning] of optionRows(doc))
        assert.ok(meaning !== undefined && meaning.length > 10, `${doc.kind} ${option}`);
  });
});
