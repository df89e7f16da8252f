/**
 * The console's pure parts: the CLI command it offers reproduces the call exactly (read back by a real shell
 * and the CLI's own argument parser), the JSON-RPC request carries the request-local opt-in, the error-code
 * table covers exactly the five codes, and an identity match is explained in words.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { describe, it } from 'node:test';
import { parseCliArgs, parseJsonArgs } from '../../../client/cli-args.js';
import { SOURCE_ERROR_CODES } from '../../../client/source-results-types.js';
import { cliCommand, jsonRpcRequest } from '../../../console/reproduce.js';
import type { ExecuteCall } from '../../../console/reproduce.js';
import { explainIdentityMatch } from '../../../console/result-view.js';
import { describeSourceError, SOURCE_ERROR_MEANINGS } from '../../../console/source-errors.js';

const call = (overrides: Partial<ExecuteCall> = {}): ExecuteCall => ({
  endpoint: 'https://api.example.test/dev/mcp/apps/bos/platform',
  contextHandle: 'ctx_9486485ee7b3ed88ea163fd2912ad0ef',
  toolName: 'search_people',
  arguments: { query: 'a' },
  id: 'console-1',
  ...overrides,
});

/** The words a POSIX shell makes of the command after `npm run client --`. */
function shellWords(command: string): string[] {
  const prefix = 'npm run client -- ';
  assert.ok(command.startsWith(prefix), command);
  const run = spawnSync('bash', ['-c', `set -- ${command.slice(prefix.length)}; printf '%s\\0' "$@"`], {
    encoding: 'utf8',
    env: { PATH: process.env['PATH'] ?? '', BOS_TOKEN: 'token-from-env' },
  });
  assert.equal(run.status, 0, run.stderr);
  return run.stdout.split('\0').slice(0, -1);
}

describe('console: reproducing a call', () => {
  it('offers a CLI command that the shell and the CLI read back as the same bos_execute call', () => {
    const tricky = { query: 'O\'Brien & "co" $HOME `x`', limit: 5 };
    const args = parseCliArgs(shellWords(cliCommand(call({ arguments: tricky }))));
    assert.equal(args.url, 'https://api.example.test/dev/mcp/apps/bos/platform');
    assert.equal(args.token, 'token-from-env');
    assert.equal(args.stream, true);
    assert.equal(args.command, 'execute');
    assert.deepEqual(args.positionals.slice(0, 2), ['ctx_9486485ee7b3ed88ea163fd2912ad0ef', 'search_people']);
    assert.deepEqual(parseJsonArgs(args.positionals[2], 'arguments'), tricky);
  });

  it('never prints a token: the command reads it from $BOS_TOKEN', () => {
    assert.match(cliCommand(call()), /--token "\$BOS_TOKEN"/);
  });

  it('shows the JSON-RPC request with the request-local bos/source-results/v1 opt-in object', () => {
    const request = JSON.parse(jsonRpcRequest(call())) as Record<string, unknown>;
    assert.deepEqual(request, {
      jsonrpc: '2.0',
      id: 'console-1',
      method: 'tools/call',
      params: {
        name: 'bos_execute',
        arguments: {
          context_handle: 'ctx_9486485ee7b3ed88ea163fd2912ad0ef',
          tool_name: 'search_people',
          arguments: { query: 'a' },
        },
        _meta: {
          'io.modelcontextprotocol/clientCapabilities': { experimental: { 'bos/source-results/v1': {} } },
        },
      },
    });
  });
});

describe('console: explaining outcomes', () => {
  it('has an operator-facing meaning for exactly the five source error codes', () => {
    assert.deepEqual(Object.keys(SOURCE_ERROR_MEANINGS).sort(), [...SOURCE_ERROR_CODES].sort());
    for (const code of SOURCE_ERROR_CODES) assert.ok(describeSourceError(code).length > 40, code);
    assert.equal(describeSourceError('toString'), 'An error code this console does not know.');
  });

  it('says why a record is one person: a single source, or the keys that joined its sources', () => {
    assert.equal(explainIdentityMatch(null), 'single source');
    assert.equal(
      explainIdentityMatch({ matched_on: ['email', 'phone'], source_count: 3 }),
      'merged on email, phone across 3 sources',
    );
  });
});
