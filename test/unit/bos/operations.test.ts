import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  createArgumentValidator,
  getPerson,
  listPeople,
  searchPeople,
} from '../../../lambda/bos/operations/index.js';
import { InvalidParamsError } from '../../../lambda/mcp/errors.js';

describe('operation arguments', () => {
  const validate = createArgumentValidator();

  it('accepts valid arguments and maps them to source queries', async () => {
    assert.deepEqual(
      searchPeople.toQuery(await validate(searchPeople.inputSchema, { query: 'ada', limit: 5 })),
      {
        operation: 'search_people',
        query: 'ada',
        limit: 5,
      },
    );
    assert.deepEqual(
      getPerson.toQuery(await validate(getPerson.inputSchema, { record_ref: 'bos:person:abc_-1' })),
      {
        operation: 'get_person',
        record_ref: 'bos:person:abc_-1',
      },
    );
    assert.deepEqual(listPeople.toQuery(await validate(listPeople.inputSchema, undefined)), {
      operation: 'list_people',
    });
    assert.deepEqual(
      listPeople.toQuery(
        await validate(listPeople.inputSchema, { updated_since: '2026-10-08T12:00:00+02:00' }),
      ),
      { operation: 'list_people', updated_since: '2026-10-08T12:00:00+02:00' },
    );
  });

  it('refuses invalid arguments with -32602 and a message naming the field, not the value', async () => {
    const cases: [object, unknown, RegExp][] = [
      [searchPeople.inputSchema, {}, /query/],
      [searchPeople.inputSchema, { query: 'x', limit: 0 }, /\/limit/],
      [searchPeople.inputSchema, { query: 'x', extra: 1 }, /additional/],
      [getPerson.inputSchema, { record_ref: 'person-secret-42' }, /\/record_ref/],
      [listPeople.inputSchema, { updated_since: 'yesterday' }, /\/updated_since/],
    ];
    for (const [schema, args, message] of cases) {
      await assert.rejects(validate(schema as never, args as never), (error: unknown) => {
        assert.ok(error instanceof InvalidParamsError);
        assert.equal(error.code, -32602);
        assert.match(error.message, message);
        assert.ok(!error.message.includes('secret'));
        return true;
      });
    }
  });

  it('marks every operation as a read that needs no approval', () => {
    for (const op of [searchPeople, getPerson, listPeople]) {
      assert.equal(op.effect, 'read');
      assert.equal(op.approvalRequired, false);
      assert.equal(op.federated, true);
    }
  });
});
