import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ConfigError, loadConfig } from '../../../../lambda/aws/index.js';

/** A complete, valid deployed environment; override single variables. */
function deployedEnv(overrides: Record<string, string | undefined> = {}): Record<string, string | undefined> {
  return {
    AWS_EXECUTION_ENV: 'AWS_Lambda_nodejs20.x',
    AWS_REGION: 'eu-west-1',
    MCP_ENDPOINT: 'https://mcp.example.com/mcp/apps/bos/platform',
    MCP_SESSION_TABLE: 'bos-sessions',
    AUTH_ISSUER: 'https://issuer.example.com/',
    AUTH_AUDIENCE: 'https://mcp.example.com/mcp/apps/bos/platform',
    AUTH_JWKS_URL: 'https://issuer.example.com/.well-known/jwks.json',
    ...overrides,
  };
}

function problemsOf(env: Record<string, string | undefined>): readonly string[] {
  try {
    loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  return [];
}

describe('environment configuration', () => {
  it('applies the DESIGN §6 defaults locally with an empty environment', () => {
    // Act
    const config = loadConfig({});
    // Assess
    assert.equal(config.deployed, false);
    assert.deepEqual(config.sessions, { ttlMinutes: 60 });
    assert.deepEqual(config.streams, { ttlMinutes: 60 });
    assert.deepEqual(config.tasks, { ttlMinutes: 10 });
    assert.deepEqual(config.allowedOrigins, ['https://claude.ai', 'https://claude.com']);
    assert.equal(config.deadlineReserveMs, 1000);
    assert.equal(config.operationTimeoutMs, 30_000);
    assert.equal(config.maxStreamEventBytes, 10_485_760);
    assert.equal(config.auth, undefined);
  });

  it('turns the rate limits off unless configured, and reads them with their table and the tenant claim', () => {
    assert.deepEqual(loadConfig({}).rateLimits, {
      principal: 0,
      tenant: 0,
      windowSeconds: 60,
      timeoutMs: 1000,
    });

    const config = loadConfig(
      deployedEnv({
        MCP_RATE_LIMIT_TABLE: 'bos-rate-limits',
        MCP_RATE_LIMIT_PRINCIPAL: '300',
        MCP_RATE_LIMIT_TENANT: '1500',
        MCP_RATE_LIMIT_WINDOW_SECONDS: '10',
        MCP_RATE_LIMIT_TIMEOUT_MS: '250',
        AUTH_TENANT_CLAIM: 'https://example.com/claims/org',
      }),
    );

    assert.deepEqual(config.rateLimits, {
      tableName: 'bos-rate-limits',
      principal: 300,
      tenant: 1500,
      windowSeconds: 10,
      timeoutMs: 250,
    });
    assert.equal(config.auth?.tenantClaim, 'https://example.com/claims/org');
    assert.equal(loadConfig(deployedEnv()).auth?.tenantClaim, 'org_id');
  });

  it('refuses a deployed rate limit without its shared table, limits out of range and a claim name with spaces', () => {
    assert.deepEqual(problemsOf(deployedEnv({ MCP_RATE_LIMIT_PRINCIPAL: '10' })), [
      'MCP_RATE_LIMIT_TABLE is required when deployed with a rate limit',
    ]);
    assert.deepEqual(
      problemsOf(
        deployedEnv({
          MCP_RATE_LIMIT_TABLE: 'bos-rate-limits',
          MCP_RATE_LIMIT_TENANT: '-1',
          MCP_RATE_LIMIT_WINDOW_SECONDS: '0',
          AUTH_TENANT_CLAIM: 'org id',
        }),
      ),
      [
        'MCP_RATE_LIMIT_TENANT must be a whole number from 0 to 1000000, got "-1"',
        'MCP_RATE_LIMIT_WINDOW_SECONDS must be a whole number from 1 to 3600, got "0"',
        'AUTH_TENANT_CLAIM must be a claim name of visible ASCII, got "org id"',
      ],
    );
  });

  it('reads a full deployed environment', () => {
    // Act
    const config = loadConfig(
      deployedEnv({
        MCP_SESSION_TTL_MINUTES: '15',
        MCP_ALLOWED_ORIGINS: 'https://a.example, https://b.example',
      }),
    );
    // Assess
    assert.equal(config.deployed, true);
    assert.deepEqual(config.sessions, { tableName: 'bos-sessions', ttlMinutes: 15 });
    assert.deepEqual(config.allowedOrigins, ['https://a.example', 'https://b.example']);
    assert.equal(config.endpoint?.origin, 'https://mcp.example.com');
    assert.equal(config.auth?.jwksUrl.hostname, 'issuer.example.com');
    assert.equal(config.region, 'eu-west-1');
  });

  it('lists every problem at once, each naming its variable', () => {
    // Act
    const problems = problemsOf(
      deployedEnv({
        MCP_ENDPOINT: undefined,
        MCP_SESSION_TABLE: 'x',
        MCP_SESSION_TTL_MINUTES: 'sixty',
        MCP_TASK_TTL_MINUTES: '0',
        MCP_ALLOWED_ORIGINS: 'https://ok.example,https://bad.example/path',
        BOS_DEADLINE_RESERVE_MS: '-5',
        BOS_OPERATION_TIMEOUT_MS: '50',
        AUTH_JWKS_URL: 'http://issuer.example.com/jwks',
      }),
    );
    // Assess
    assert.deepEqual(problems, [
      'MCP_ENDPOINT is required when deployed',
      'MCP_SESSION_TABLE must be a DynamoDB table name (3-255 of A-Z a-z 0-9 _ . -), got "x"',
      'MCP_SESSION_TTL_MINUTES must be a whole number from 1 to 10080, got "sixty"',
      'MCP_TASK_TTL_MINUTES must be a whole number from 1 to 10080, got "0"',
      'MCP_ALLOWED_ORIGINS entries must be origins like https://claude.ai, got "https://bad.example/path"',
      'BOS_DEADLINE_RESERVE_MS must be a whole number from 0 to 60000, got "-5"',
      'BOS_OPERATION_TIMEOUT_MS must be a whole number from 100 to 900000, got "50"',
      'AUTH_JWKS_URL must use https, got "http://issuer.example.com/jwks"',
    ]);
  });

  it('requires the session table and token settings when deployed', () => {
    // Act
    const problems = problemsOf(
      deployedEnv({
        MCP_SESSION_TABLE: undefined,
        AUTH_ISSUER: undefined,
        AUTH_AUDIENCE: '',
        AUTH_JWKS_URL: undefined,
      }),
    );
    // Assess
    assert.deepEqual(problems, [
      'MCP_SESSION_TABLE is required when deployed',
      'AUTH_ISSUER is required when deployed',
      'AUTH_AUDIENCE is required when deployed',
      'AUTH_JWKS_URL is required when deployed',
    ]);
  });

  it('takes a shared requestState secret and refuses one too short for HMAC-SHA256', () => {
    const secret = 'x'.repeat(32);
    assert.equal(loadConfig({ MCP_REQUEST_STATE_SECRET: secret }).requestStateSecret, secret);
    assert.equal(loadConfig({}).requestStateSecret, undefined);
    assert.deepEqual(problemsOf({ MCP_REQUEST_STATE_SECRET: 'short' }), [
      'MCP_REQUEST_STATE_SECRET must be at least 32 characters',
    ]);
  });

  it('reads the advertised contractUri, https when deployed', () => {
    const uri = 'https://docs.example.com/bos/source-results-v1.html';
    assert.equal(loadConfig(deployedEnv({ BOS_CONTRACT_URI: uri })).contractUri, uri);
    assert.equal(loadConfig(deployedEnv()).contractUri, undefined);
    assert.deepEqual(problemsOf(deployedEnv({ BOS_CONTRACT_URI: 'http://docs.example.com/c' })), [
      'BOS_CONTRACT_URI must use https, got "http://docs.example.com/c"',
    ]);
  });

  it('opts in to the GET listener budget only with MCP_LISTENER_BUDGET_MS above 0', () => {
    assert.equal(loadConfig({}).listenerBudget, undefined);
    assert.equal(loadConfig({ MCP_LISTENER_BUDGET_MS: '0' }).listenerBudget, undefined);
    assert.deepEqual(loadConfig({ MCP_LISTENER_BUDGET_MS: '25000' }).listenerBudget, {
      maxDurationMs: 25_000,
      safetyBufferMs: 5_000,
    });
    assert.deepEqual(
      loadConfig({ MCP_LISTENER_BUDGET_MS: '25000', MCP_LISTENER_SAFETY_MS: '2000' }).listenerBudget,
      { maxDurationMs: 25_000, safetyBufferMs: 2_000 },
    );
    assert.deepEqual(problemsOf({ MCP_LISTENER_BUDGET_MS: '-1' }), [
      'MCP_LISTENER_BUDGET_MS must be a whole number from 0 to 900000, got "-1"',
    ]);
  });

  it('rejects half-configured token validation locally', () => {
    assert.deepEqual(problemsOf({ AUTH_ISSUER: 'https://issuer.example.com/' }), [
      'AUTH_AUDIENCE, AUTH_JWKS_URL must be set together with AUTH_ISSUER',
    ]);
  });

  it('puts the problem list in the error message and never writes to the environment it reads', () => {
    // Prepare: a frozen environment makes any write throw (modules run in strict mode).
    const env = Object.freeze({ MCP_STREAM_TTL_MINUTES: '1.5' });
    const before = { ...process.env };
    // Act
    const error = (() => {
      try {
        loadConfig(env);
      } catch (caught) {
        return caught;
      }
      return undefined;
    })();
    // Assess
    assert.ok(error instanceof ConfigError);
    assert.equal(error.name, 'ConfigError');
    assert.match(error.message, /MCP_STREAM_TTL_MINUTES must be a whole number/);
    assert.deepEqual({ ...process.env }, before);
  });
});
