/**
 * cdk-nag 3.x AwsSolutions checks through CDK's own validation (`Validations.of(app).addPlugins`): the stack,
 * in its default and its fully-featured configuration, has no unacknowledged finding, errors or warnings,
 * and every acknowledgement says why in words.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { App, Stack, Validations } from 'aws-cdk-lib';
import { Code, Function as LambdaFunction, Runtime } from 'aws-cdk-lib/aws-lambda';
import { AwsSolutionsChecks } from 'cdk-nag';
import { addStack } from './stack-fixture.js';

interface ValidationReport {
  pluginReports: Array<{
    pluginName: string;
    violations: Array<{
      ruleName: string;
      severity: string;
      violatingConstructs: Array<{ constructPath: string }>;
    }>;
  }>;
}

const outdirs: string[] = [];
after(() => {
  for (const dir of outdirs) rmSync(dir, { recursive: true, force: true });
});

/**
 * Runs `act` with stdout and stderr captured: CDK prints each finding of a failed validation as an `ERROR` or
 * `WARNING` line, which in a passing run would read like a failure. Returns what was written.
 */
function captureOutput(act: () => void): string {
  const written: string[] = [];
  const keep = (chunk: string | Uint8Array): boolean => {
    written.push(typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8'));
    return true;
  };
  const { stdout, stderr } = process;
  const [out, err] = [stdout.write.bind(stdout), stderr.write.bind(stderr)];
  stdout.write = keep;
  stderr.write = keep;
  try {
    act();
  } finally {
    stdout.write = out;
    stderr.write = err;
  }
  return written.join('');
}

/**
 * Synthesizes `app` with the AwsSolutions pack; returns the thrown error (if any), the report, and what
 * synthesis printed.
 */
function synthWithNag(build: (app: App) => void): {
  error?: unknown;
  report: ValidationReport;
  output: string;
} {
  const outdir = mkdtempSync(join(tmpdir(), 'bos-nag-'));
  outdirs.push(outdir);
  const app = new App({ outdir });
  build(app);
  Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
  let error: unknown;
  const output = captureOutput(() => {
    try {
      app.synth();
    } catch (caught) {
      error = caught;
    }
  });
  const report = JSON.parse(readFileSync(join(outdir, 'validation-report.json'), 'utf8')) as ValidationReport;
  return { error, report, output };
}

const describeViolations = (report: ValidationReport): string[] =>
  report.pluginReports.flatMap((plugin) =>
    plugin.violations.map(
      (v) =>
        `${plugin.pluginName} ${v.severity} ${v.ruleName} at ${v.violatingConstructs.map((c) => c.constructPath).join(', ')}`,
    ),
  );

let platformApp: App | undefined;
const platform = synthWithNag((app) => {
  platformApp = app;
  addStack(app, { stage: 'dev' });
  addStack(app, {
    stage: 'prod',
    tracing: true,
    sourceCache: { kmsKeyArn: 'arn:aws:kms:eu-west-1:111122223333:key/11111111-2222-3333-4444-555555555555' },
    webAclArn: 'arn:aws:wafv2:eu-west-1:111122223333:regional/webacl/bos/abc',
    alarmTopicArn: 'arn:aws:sns:eu-west-1:111122223333:ops',
    customDomain: {
      domainName: 'mcp.example.com',
      certificateArn: 'arn:aws:acm:eu-west-1:111122223333:certificate/x',
    },
  });
});

describe('cdk-nag AwsSolutions', () => {
  it('finds nothing unacknowledged, error or warning, in the default dev stack and the full prod stack', () => {
    assert.deepEqual(describeViolations(platform.report), []);
    assert.equal(platform.error, undefined);
  });

  it('finds nothing in a stack with the source cache on an AWS owned key, and acknowledges nothing for it', () => {
    let cacheApp: App | undefined;
    const cached = synthWithNag((app) => {
      cacheApp = app;
      addStack(app, {
        stage: 'cache',
        webAclArn: 'arn:aws:wafv2:eu-west-1:111122223333:regional/webacl/bos/abc',
        sourceCache: {},
      });
    });
    assert.deepEqual(describeViolations(cached.report), []);
    assert.equal(cached.error, undefined);
    const underCache = (cacheApp?.node.findAll() ?? []).filter(
      (construct) =>
        construct.node.path.includes('/SourceCache') &&
        construct.node.metadata.some((entry) => entry.type === Validations.ACKNOWLEDGED_RULES_METADATA_KEY),
    );
    assert.deepEqual(
      underCache.map((construct) => construct.node.path),
      [],
    );
  });

  it('gives every acknowledgement a concrete reason of its own', () => {
    assert.ok(platformApp);
    const acknowledged: Array<[string, string, string]> = [];
    for (const construct of platformApp.node.findAll()) {
      for (const entry of construct.node.metadata) {
        if (entry.type !== Validations.ACKNOWLEDGED_RULES_METADATA_KEY) continue;
        for (const [id, reason] of Object.entries(entry.data as Record<string, string>)) {
          acknowledged.push([construct.node.path, id, reason]);
        }
      }
    }
    const ids = new Set(acknowledged.map(([, id]) => id.replace(/^Annotation::/i, '')));
    assert.deepEqual([...ids].sort(), [
      'AwsSolutions-APIG2',
      'AwsSolutions-APIG3',
      'AwsSolutions-APIG4',
      'AwsSolutions-COG4',
      'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AmazonAPIGatewayPushToCloudWatchLogs]',
      'AwsSolutions-IAM5[Resource::*]',
      'AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:secretsmanager:<AWS::Region>:<AWS::AccountId>:secret:bos/sources/*]',
      'AwsSolutions-L1',
      'AwsSolutions-SMG4',
    ]);
    for (const [path, id, reason] of acknowledged) {
      assert.ok(reason.length >= 80, `${path} ${id}: reason too short to explain anything`);
      assert.doesNotMatch(reason, /^(n\/?a|todo|tbd|ok|fine|not needed|suppressed)\b/i, `${path} ${id}`);
    }
  });

  it('acknowledges the missing web ACL only on the stage that has none', () => {
    const stagesWithWafAck = (platformApp?.node.findAll() ?? []).filter((construct) =>
      construct.node.metadata.some(
        (entry) =>
          entry.type === Validations.ACKNOWLEDGED_RULES_METADATA_KEY &&
          Object.keys(entry.data as object).some((id) => id.endsWith('AwsSolutions-APIG3')),
      ),
    );
    assert.deepEqual(
      stagesWithWafAck.map((construct) => construct.node.path),
      ['BosMcp-dev/Http/Api/DeploymentStage.dev'],
    );
  });

  it('fails synthesis and reports the rule when a finding is not acknowledged (the check is live)', () => {
    const { error, report, output } = synthWithNag((app) => {
      const stack = new Stack(app, 'Unacknowledged');
      new LambdaFunction(stack, 'Old', {
        runtime: Runtime.NODEJS_20_X,
        handler: 'index.handler',
        code: Code.fromInline('0'),
      });
    });
    assert.ok(error instanceof Error);
    const rules = describeViolations(report).join('\n');
    assert.match(rules, /AwsSolutions error AwsSolutions-L1 at Unacknowledged\/Old\/Resource/);
    assert.match(rules, /AwsSolutions-IAM4\[Policy::.*AWSLambdaBasicExecutionRole\]/);
    // Printed for an operator, captured here: the finding names its rule and how to acknowledge it.
    assert.match(output, /ERROR .*\(AwsSolutions\)[\s\S]*Acknowledge with 'AwsSolutions::AwsSolutions-L1'/);
  });
});
