/**
 * The function's environment against the code that reads it. The variables are found by running the real
 * init path (`requestedSecretSettings`, then `composePlatform`) on a recording environment built from the
 * synthesized template, as Lambda would start it; no list of names is kept here. Each one must be set by the
 * stack, set by Lambda itself, or documented in docs/deploy.md "Function environment" with its default.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { requestedSecretSettings, SECRET_BACKED_SETTINGS } from '../../lambda/aws/index.js';
import { composePlatform } from '../../lambda/handlers/compose-platform.js';
import { REQUEST_STATE_SECRET_LENGTH, stackPropsFromContext } from '../../lib/index.js';
import { onlyResource, synthStack, TEST_AUTH } from './stack-fixture.js';

const { template } = synthStack({ stage: 'dev' });
const [, fn] = onlyResource(template, 'AWS::Lambda::Function');
const stackEnv = (fn.Properties?.Environment as { Variables: Record<string, unknown> }).Variables;

/**
 * Variables the Lambda service sets in every execution environment (Lambda developer guide, "Defined runtime
 * environment variables"); the function may read them without the stack setting them.
 */
const SET_BY_LAMBDA = new Set([
  'AWS_EXECUTION_ENV',
  'AWS_REGION',
  'AWS_DEFAULT_REGION',
  'AWS_LAMBDA_FUNCTION_NAME',
  'AWS_LAMBDA_FUNCTION_MEMORY_SIZE',
  'AWS_LAMBDA_FUNCTION_VERSION',
  'AWS_LAMBDA_LOG_GROUP_NAME',
  'AWS_LAMBDA_LOG_STREAM_NAME',
  'AWS_LAMBDA_RUNTIME_API',
  'AWS_LAMBDA_INITIALIZATION_TYPE',
  'LAMBDA_TASK_ROOT',
  'LAMBDA_RUNTIME_DIR',
  '_HANDLER',
  'TZ',
]);

/** A value of the right shape for each template value: the deploy-time value CloudFormation would put there. */
function deployedValue(name: string, value: unknown): string {
  if (typeof value === 'string') return value;
  if (name.endsWith('_TABLE')) return `BosMcp-dev-${name.toLowerCase().replaceAll('_', '-')}`;
  if (name.endsWith('_ARN')) return 'arn:aws:secretsmanager:eu-west-1:111122223333:secret:x-AbCdEf';
  // The configured origins joined with the API's own origin (the console's), which the stack computes.
  if (name === 'MCP_ALLOWED_ORIGINS')
    return 'https://claude.ai,https://abc123.execute-api.eu-west-1.amazonaws.com';
  return 'https://abc123.execute-api.eu-west-1.amazonaws.com/dev/mcp/apps/bos/platform';
}

/** Runs the function's init on the stack's environment and returns every variable name it read. */
function variablesReadAtInit(stackEnv: Record<string, unknown>): Set<string> {
  const base: Record<string, string> = {
    AWS_EXECUTION_ENV: 'AWS_Lambda_nodejs22.x',
    AWS_REGION: 'eu-west-1',
    AWS_LAMBDA_FUNCTION_NAME: 'BosMcp-dev-Platform',
  };
  for (const [name, value] of Object.entries(stackEnv)) base[name] = deployedValue(name, value);
  const read = new Set<string>();
  const recording = new Proxy(base, {
    get(target, key) {
      if (typeof key === 'string') read.add(key);
      return Reflect.get(target, key) as unknown;
    },
    has(target, key) {
      if (typeof key === 'string') read.add(key);
      return Reflect.has(target, key);
    },
  });
  // What resolveSecretSettings does during init: find the ARN variables, then add each setting's value.
  const resolved = Object.fromEntries(
    requestedSecretSettings(recording).map(([setting]) => [setting, 'r'.repeat(REQUEST_STATE_SECRET_LENGTH)]),
  );
  const afterInit = new Proxy(recording, {
    get: (target, key): unknown =>
      typeof key === 'string' && key in resolved ? resolved[key] : Reflect.get(target, key),
  });
  const silent = { debug() {}, info() {}, warn() {}, error() {} };
  composePlatform(afterInit, silent);
  return read;
}

/** `| \`NAME\` | default | meaning |` rows of docs/deploy.md's "Function environment" table. */
function documentedOptional(): Map<string, string> {
  const docs = readFileSync(new URL('../../docs/deploy.md', import.meta.url), 'utf8');
  const section = docs.split(/^## /m).find((part) => part.startsWith('Function environment'));
  assert.ok(section, 'docs/deploy.md has no "Function environment" section');
  const rows = new Map<string, string>();
  for (const line of section.split('\n')) {
    const cells = line.split('|').map((cell) => cell.trim());
    const name = /^`([A-Z0-9_]+)`$/.exec(cells[1] ?? '')?.[1];
    if (name !== undefined) rows.set(name, cells[2] ?? '');
  }
  return rows;
}

describe('function environment', () => {
  const read = variablesReadAtInit(stackEnv);
  const setByStack = new Set(Object.keys(stackEnv));
  // A secret-backed setting counts as set when the stack sets the variable naming its secret.
  for (const [setting, arnVariable] of Object.entries(SECRET_BACKED_SETTINGS))
    if (setByStack.has(arnVariable)) setByStack.add(setting);

  it('finds the variables by running the init path (the recording sees the config reader at work)', () => {
    for (const name of ['MCP_ENDPOINT', 'MCP_SESSION_TABLE', 'AUTH_JWKS_URL', 'MCP_REQUEST_STATE_SECRET_ARN'])
      assert.ok(read.has(name), `${name} was not read`);
  });

  it('reads no variable that is neither set by the stack, set by Lambda, nor documented with a default', () => {
    const documented = documentedOptional();
    const unaccounted = [...read]
      .filter((name) => !setByStack.has(name) && !SET_BY_LAMBDA.has(name))
      .filter((name) => (documented.get(name) ?? '') === '')
      .sort();
    assert.deepEqual(unaccounted, [], 'document these in docs/deploy.md "Function environment"');
  });

  it('sets no variable the function never reads', () => {
    const unread = [...Object.keys(stackEnv)].filter((name) => !read.has(name)).sort();
    assert.deepEqual(unread, []);
  });

  it('documents only variables the function reads, and none the stack already sets', () => {
    for (const name of documentedOptional().keys()) {
      assert.ok(!setByStack.has(name), `${name} is set by the stack; its row belongs to the stack's list`);
      assert.ok(read.has(name) || name.endsWith('_'), `${name} is documented but never read at init`);
    }
  });
});

describe('function environment from the optional context keys', () => {
  // The chain bin/app.ts runs: CDK context → stack props → the function's environment → its init.
  const props = stackPropsFromContext(
    (key) =>
      ({
        stage: 'dev',
        authIssuer: TEST_AUTH.issuer,
        authJwksUrl: TEST_AUTH.jwksUrl,
        contractUri: 'https://docs.example.com/bos/source-results-v1.html',
        listenerBudgetMs: '25000',
        listenerSafetyMs: '5000',
      })[key],
  );
  const configured = synthStack({ ...props, stage: 'dev' }).template;
  const [, configuredFn] = onlyResource(configured, 'AWS::Lambda::Function');
  const env = (configuredFn.Properties?.Environment as { Variables: Record<string, unknown> }).Variables;

  it('passes contractUri and the GET listener budget to the function', () => {
    assert.equal(env.BOS_CONTRACT_URI, 'https://docs.example.com/bos/source-results-v1.html');
    assert.equal(env.MCP_LISTENER_BUDGET_MS, '25000');
    assert.equal(env.MCP_LISTENER_SAFETY_MS, '5000');
    assert.equal(stackEnv.BOS_CONTRACT_URI, undefined, 'unset without the context keys');
  });

  it('sets them only where the function reads them at init', () => {
    const read = variablesReadAtInit(env);
    for (const name of ['BOS_CONTRACT_URI', 'MCP_LISTENER_BUDGET_MS', 'MCP_LISTENER_SAFETY_MS'])
      assert.ok(read.has(name), `${name} was not read`);
  });
});

describe('request-state secret', () => {
  it('is generated by Secrets Manager at deploy time: 64 letters and digits, in no template value', () => {
    const [, secret] = onlyResource(template, 'AWS::SecretsManager::Secret');
    assert.deepEqual(secret.Properties?.GenerateSecretString, {
      ExcludePunctuation: true,
      IncludeSpace: false,
      PasswordLength: REQUEST_STATE_SECRET_LENGTH,
    });
    assert.equal(secret.Properties?.SecretString, undefined);
  });

  it('reaches the function only as the secret ARN, never as a value or a dynamic reference', () => {
    const [secretId] = onlyResource(template, 'AWS::SecretsManager::Secret');
    assert.deepEqual(stackEnv.MCP_REQUEST_STATE_SECRET_ARN, { Ref: secretId });
    assert.equal(stackEnv.MCP_REQUEST_STATE_SECRET, undefined);
    assert.doesNotMatch(JSON.stringify(stackEnv), /resolve:secretsmanager/);
  });
});
