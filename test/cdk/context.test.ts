/**
 * `stackPropsFromContext`: what `bin/app.ts` builds from cdk.json and `-c key=value`. No synthesis here.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { RemovalPolicy } from 'aws-cdk-lib';
import { RetentionDays } from 'aws-cdk-lib/aws-logs';
import {
  DEFAULT_RATE_LIMITS,
  PROJECT_ROOT,
  removalPolicyForStage,
  stackPropsFromContext,
} from '../../lib/index.js';

const cdkJson = JSON.parse(readFileSync(`${PROJECT_ROOT}/cdk.json`, 'utf8')) as {
  app: string;
  context: Record<string, unknown>;
};

/** A context reader over cdk.json's defaults with overrides (as `-c` would give them: strings). */
const contextWith =
  (overrides: Record<string, unknown> = {}) =>
  (key: string): unknown =>
    key in overrides ? overrides[key] : cdkJson.context[key];

const realAuth = { authIssuer: 'https://login.example.com', authJwksUrl: 'https://login.example.com/jwks' };

describe('stack props from CDK context', () => {
  it('runs the app with tsx and builds an environment-agnostic dev stack from cdk.json alone', () => {
    assert.equal(cdkJson.app, 'npx tsx bin/app.ts');
    const props = stackPropsFromContext(contextWith());
    assert.equal(props.stage, 'dev');
    assert.equal(props.stackName, 'BosMcp-dev');
    assert.equal(props.env, undefined);
    assert.deepEqual(props.allowedOrigins, ['https://claude.ai', 'https://claude.com']);
    assert.equal(props.timeout?.toSeconds(), 900);
    assert.equal(props.memorySize, 1024);
    assert.deepEqual(props.throttling, { rateLimit: 50, burstLimit: 100 });
    assert.equal(props.customDomain, undefined);
  });

  it('reads -c string values: numbers, lists, flags, retention and the environment', () => {
    const props = stackPropsFromContext(
      contextWith({
        ...realAuth,
        stage: 'prod',
        account: '111122223333',
        region: 'eu-west-1',
        allowedOrigins: 'https://a.example, https://b.example',
        memorySize: '2048',
        timeoutSeconds: '300',
        logRetentionDays: '30',
        throttleRateLimit: '10',
        tracing: 'true',
        alarmTopicArn: 'arn:aws:sns:eu-west-1:111122223333:ops',
        sourceErrorRatePercent: '10',
        domainName: 'mcp.example.com',
        certificateArn: 'arn:aws:acm:eu-west-1:111122223333:certificate/x',
      }),
    );
    assert.equal(props.stackName, 'BosMcp-prod');
    assert.deepEqual(props.env, { account: '111122223333', region: 'eu-west-1' });
    assert.deepEqual(props.allowedOrigins, ['https://a.example', 'https://b.example']);
    assert.equal(props.memorySize, 2048);
    assert.equal(props.timeout?.toSeconds(), 300);
    assert.equal(props.logRetention, RetentionDays.ONE_MONTH);
    assert.deepEqual(props.throttling, { rateLimit: 10, burstLimit: 100 });
    assert.equal(props.tracing, true);
    assert.equal(props.alarmTopicArn, 'arn:aws:sns:eu-west-1:111122223333:ops');
    assert.equal(props.sourceErrorRatePercent, 10);
    assert.deepEqual(props.customDomain, {
      domainName: 'mcp.example.com',
      certificateArn: 'arn:aws:acm:eu-west-1:111122223333:certificate/x',
    });
    assert.deepEqual(props.auth, { issuer: realAuth.authIssuer, jwksUrl: realAuth.authJwksUrl });
  });

  it('reads contractUri and the GET listener budget, and refuses a contractUri that is not https', () => {
    const props = stackPropsFromContext(
      contextWith({
        contractUri: 'https://docs.example.com/c.html',
        listenerBudgetMs: '25000',
        listenerSafetyMs: '3000',
      }),
    );
    assert.equal(props.contractUri, 'https://docs.example.com/c.html');
    assert.deepEqual(props.listenerBudget, { maxDurationMs: 25_000, safetyBufferMs: 3_000 });
    assert.equal(stackPropsFromContext(contextWith()).listenerBudget, undefined);
    assert.throws(() => stackPropsFromContext(contextWith({ contractUri: 'http://docs.example.com/c' })), {
      code: 'invalid_context',
    });
  });

  it('refuses the placeholder authorization server outside dev', () => {
    assert.throws(() => stackPropsFromContext(contextWith({ stage: 'prod' })), {
      name: 'StackConfigError',
      code: 'invalid_auth',
    });
  });

  it('refuses a non-https issuer, half a custom domain, a bad number and an unknown log retention', () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ authIssuer: 'http://login.example.com' }, 'invalid_auth'],
      [{ domainName: 'mcp.example.com' }, 'invalid_custom_domain'],
      [{ memorySize: 'lots' }, 'invalid_context'],
      [{ timeoutSeconds: '0' }, 'invalid_context'],
      [{ logRetentionDays: '8' }, 'invalid_context'],
      [{ tracing: 'yes' }, 'invalid_context'],
    ];
    for (const [overrides, code] of cases) {
      assert.throws(() => stackPropsFromContext(contextWith(overrides)), { code }, JSON.stringify(overrides));
    }
  });

  it('takes each stage its own rate limits from the rateLimits object, and the defaults for a stage it does not name', () => {
    const rateLimits = {
      dev: { principal: 300, tenant: 1500, windowSeconds: 60 },
      prod: { principal: 120, tenant: 0 },
    };
    const prod = stackPropsFromContext(contextWith({ ...realAuth, stage: 'prod', rateLimits }));
    const staging = stackPropsFromContext(contextWith({ ...realAuth, stage: 'staging', rateLimits }));
    const fromCli = stackPropsFromContext(
      contextWith({ ...realAuth, stage: 'prod', rateLimits: JSON.stringify(rateLimits) }),
    );

    assert.deepEqual(stackPropsFromContext(contextWith()).rateLimits, rateLimits.dev);
    assert.deepEqual(prod.rateLimits, { principal: 120, tenant: 0, windowSeconds: 60 });
    assert.deepEqual(fromCli.rateLimits, prod.rateLimits);
    assert.deepEqual(staging.rateLimits, DEFAULT_RATE_LIMITS);
  });

  it('refuses rate limits that are not whole numbers in range, unknown fields and a value that is not an object', () => {
    for (const rateLimits of [
      { dev: { principal: -1 } },
      { dev: { tenant: 1.5 } },
      { dev: { windowSeconds: 0 } },
      { dev: { perMinute: 10 } },
      { dev: 300 },
      '[not json',
      ['dev'],
    ]) {
      assert.throws(
        () => stackPropsFromContext(contextWith({ rateLimits })),
        { name: 'StackConfigError', code: 'invalid_context' },
        JSON.stringify(rateLimits),
      );
    }
  });

  it('destroys data with dev and retains it for every other stage', () => {
    assert.equal(removalPolicyForStage('dev'), RemovalPolicy.DESTROY);
    assert.equal(removalPolicyForStage('prod'), RemovalPolicy.RETAIN);
    assert.equal(removalPolicyForStage('staging'), RemovalPolicy.RETAIN);
  });
});
