/**
 * `npm run docs:options`: writes every adapter kind's option table into its doc from the declaration, then
 * formats the docs it changed with Prettier (the formatter CI checks).
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { fromRepo } from '../paths.js';
import { OPTION_DOCS, withTable } from './option-tables.js';

const files = [...new Set(OPTION_DOCS.map((doc) => doc.file))];
for (const file of files) {
  const path = fromRepo(file);
  const before = readFileSync(path, 'utf8');
  const after = OPTION_DOCS.filter((doc) => doc.file === file).reduce(withTable, before);
  writeFileSync(path, after);
}
execFileSync(fromRepo('node_modules/.bin/prettier'), ['--write', ...files.map((f) => fromRepo(f))], {
  stdio: 'inherit',
});
