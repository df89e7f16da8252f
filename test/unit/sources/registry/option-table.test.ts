/** The shared declarative option reader every adapter kind declares its options with. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  boolean,
  integer,
  listOf,
  objectOf,
  oneOf,
  option,
  optionTable,
  readContext,
  variantOf,
} from '../../../../lambda/sources/registry/option-table.js';

const PAGING = variantOf({
  none: optionTable('paging', {}),
  offset: optionTable('paging', { page_size: option(integer(1, 10), { default: 5, meaning: 'page size' }) }),
});

const TABLE = optionTable(
  'demo',
  {
    size: option(integer(1, 10), { required: true, meaning: 'how many' }),
    mode: option(oneOf(['fast', 'slow']), { default: 'fast', meaning: 'how' }),
    strict: option(boolean, { meaning: 'whether to be strict' }),
    tags: option(listOf(oneOf(['a', 'b', 'c'])), { meaning: 'labels' }),
    nested: option(
      objectOf(optionTable('demo', { on: option(boolean, { required: true, meaning: 'on' }) })),
      {
        meaning: 'a nested object',
      },
    ),
    paging: option(PAGING, { default: { kind: 'none' }, meaning: 'paging' }),
  },
  {
    refine: ({ mode, strict }, at, problems) => {
      if (mode === 'slow' && strict === true) problems.push(`${at}.strict is only for mode "fast"`);
    },
  },
);

function problemsOf(value: unknown): string[] {
  const context = readContext('demo');
  TABLE.read(value, 'options', context);
  return context.problems;
}

describe('an option table', () => {
  it('reads a good object, filling defaults and converting nothing it was not asked to', () => {
    const context = readContext('demo');
    const values = TABLE.read({ size: 3, paging: { kind: 'offset' } }, 'options', context);
    assert.deepEqual(context.problems, []);
    assert.deepEqual(values, { size: 3, mode: 'fast', paging: { kind: 'offset', page_size: 5 } });
  });

  it('names every problem at once, each with its path', () => {
    assert.deepEqual(
      problemsOf({
        colour: 'red',
        mode: 'medium',
        strict: 'yes',
        tags: ['a', 'z'],
        nested: { on: 1, off: true },
        paging: { kind: 'cursor' },
      }),
      [
        'options.colour is not a demo option',
        'options.size is required',
        'options.mode must be "fast" or "slow"',
        'options.strict must be a boolean',
        'options.tags[1] must be one of "a", "b", "c"',
        'options.nested.off is not a demo option',
        'options.nested.on must be a boolean',
        'options.paging.kind must be "none" or "offset"',
      ],
    );
  });

  it('reads a variant by its kind, refusing keys of another kind', () => {
    assert.deepEqual(problemsOf({ size: 1, paging: { kind: 'none', page_size: 5 } }), [
      'options.paging.page_size is not a paging option',
    ]);
    assert.deepEqual(problemsOf({ size: 1, paging: { kind: 'offset', page_size: 50 } }), [
      'options.paging.page_size must be an integer from 1 to 10',
    ]);
  });

  it('checks the rules across options once every option reads well', () => {
    assert.deepEqual(problemsOf({ size: 1, mode: 'slow', strict: true }), [
      'options.strict is only for mode "fast"',
    ]);
    assert.deepEqual(problemsOf({ size: 0, mode: 'slow', strict: true }), [
      'options.size must be an integer from 1 to 10',
    ]);
  });

  it('refuses a value that is not an object', () => {
    assert.deepEqual(problemsOf(['size']), ['options must be an object']);
  });
});
