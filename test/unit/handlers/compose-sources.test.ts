/**
 * The local-only fixture knobs (`compose-sources.ts`): honoured off AWS and on the local stack, ignored
 * with a warning on a real deployment, refused when malformed.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ConfigError, loadConfig } from '../../../lambda/aws/index.js';
import type { Logger } from '../../../lambda/mcp/index.js';
import { composeSources, isLocalRun } from '../../../lambda/handlers/compose-sources.js';

const DEPLOYED = {
  AWS_EXECUTION_ENV: 'AWS_Lambda_nodejs22.x',
  MCP_SESSION_TABLE: 'sessions',
  AUTH_ISSUER: 'https://issuer.example.test',
  AUTH_AUDIENCE: 'https://api.example.test/mcp/apps/bos/platform',
  AUTH_JWKS_URL: 'https://issuer.example.test/jwks.json',
};

function recordingLogger(): Logger & { lines: string[] } {
  const lines: string[] = [];
  const log = (message: string) => void lines.push(message);
  return { lines, debug: log, info: log, warn: log, error: log };
}

describe('composeSources', () => {
  it('keys the five demo adapters by source id', () => {
    const { sources } = composeSources(loadConfig({}), {}, recordingLogger());
    assert.deepEqual(
      [...sources.keys()],
      ['acme-hr', 'acme-crm', 'acme-directory', 'acme-archive', 'acme-legacy'],
    );
  });

  it('treats the local stack (deployed runtime, loopback endpoint) as a local run, and a public endpoint as deployed', () => {
    const local = loadConfig({ ...DEPLOYED, MCP_ENDPOINT: 'http://127.0.0.1:3000/mcp/apps/bos/platform' });
    const deployed = loadConfig({
      ...DEPLOYED,
      MCP_ENDPOINT: 'https://api.example.test/mcp/apps/bos/platform',
    });
    assert.equal(isLocalRun(local), true);
    assert.equal(isLocalRun(deployed), false);
  });

  it('honours a preset locally: the hanging preset has sources with no timeout of their own', () => {
    const { sources } = composeSources(loadConfig({}), { BOS_FIXTURE_PRESET: 'hanging' }, recordingLogger());
    assert.ok((sources.get('acme-legacy')?.timeoutMs ?? 0) > 60_000);
  });

  it('ignores the knobs with a warning on a real deployment', () => {
    const logger = recordingLogger();
    const config = loadConfig({
      ...DEPLOYED,
      MCP_ENDPOINT: 'https://api.example.test/mcp/apps/bos/platform',
    });
    const { sources } = composeSources(config, { BOS_FIXTURE_PRESET: 'hanging' }, logger);
    assert.equal(sources.get('acme-legacy')?.timeoutMs, 1500, 'the demo preset, not hanging');
    assert.deepEqual(logger.lines, ['bos.fixture.knobs_ignored']);
  });

  it('refuses malformed knobs on a local run with every problem listed', () => {
    assert.throws(
      () =>
        composeSources(
          loadConfig({}),
          { BOS_FIXTURE_PRESET: 'nope', BOS_FIXTURE_LATENCY_SCALE: '-1', BOS_FIXTURE_TRACE: 'yes' },
          recordingLogger(),
        ),
      (error: unknown) => error instanceof ConfigError && error.problems.length === 3,
    );
  });
});
