/**
 * Template tests of what an operator watches: the CloudWatch dashboard (one graph per question, built from
 * the metric names and dimension sets the function emits) and the alarms, including the per-source one and
 * the optional SNS topic. One app with a `dev` stack (no topic) and a `prod` stack (topic, threshold).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { addStack, onlyResource, render, resourcesOf } from './stack-fixture.js';

const TOPIC = 'arn:aws:sns:eu-west-1:111122223333:ops';
const app = new App();
// Both stacks exist before the first synth: CDK forbids changing the tree after it.
const devStack = addStack(app, { stage: 'dev' });
const prodStack = addStack(app, { stage: 'prod', alarmTopicArn: TOPIC, sourceErrorRatePercent: 10 });
const dev = Template.fromStack(devStack);
const prod = Template.fromStack(prodStack);

interface Widget {
  type: string;
  properties: {
    title?: string;
    alarms?: string[];
    metrics?: Array<Array<string | { expression?: string; label?: string }>>;
  };
}

function widgetsOf(template: Template): Widget[] {
  const [, dashboard] = onlyResource(template, 'AWS::CloudWatch::Dashboard');
  return (JSON.parse(render(dashboard.Properties?.DashboardBody)) as { widgets: Widget[] }).widgets;
}

/** The graph whose title starts with `title`, and its SEARCH/expression strings and plain metric names. */
function graph(title: string): { expressions: string[]; metrics: string[] } {
  const widget = widgetsOf(dev).find((w) => w.type === 'metric' && w.properties.title?.startsWith(title));
  assert.ok(widget, `no graph "${title}"`);
  const lines = widget.properties.metrics ?? [];
  return {
    expressions: lines.flatMap((line) =>
      line.flatMap((item) => (typeof item === 'object' && item.expression ? [item.expression] : [])),
    ),
    metrics: lines.map((line) => line.filter((item) => typeof item === 'string').join(' ')),
  };
}

/** `SEARCH('{BosMcp,<dims>,service} MetricName="<name>" service="bos-mcp"', '<stat>', 300)`. */
const search = (name: string, dims: string[], stat: string, filter = ''): string =>
  `SEARCH('{BosMcp,${[...dims.map((d) => (d.includes('.') ? `"${d}"` : d)), 'service'].join(',')}} ` +
  `MetricName="${name}" service="bos-mcp"${filter}', '${stat}', 300)`;

describe('dashboard', () => {
  it('is named after the stack, one per stage', () => {
    const [, dashboard] = onlyResource(dev, 'AWS::CloudWatch::Dashboard');
    assert.equal(dashboard.Properties?.DashboardName, 'BosMcp-dev');
  });

  it('graphs calls by method and status, and call duration p50 and p99, with SEARCH over the methods', () => {
    assert.deepEqual(graph('Calls by method').expressions, [
      search('Calls', ['mcp.method.name', 'rpc.response.status_code'], 'Sum'),
    ]);
    assert.deepEqual(graph('Call duration').expressions, [
      search('CallDuration', ['mcp.method.name'], 'p50'),
      search('CallDuration', ['mcp.method.name'], 'p99'),
    ]);
  });

  it('graphs first-page time and errors by contract code for every source, whatever its id', () => {
    assert.deepEqual(graph('Time to first page').expressions, [
      search('SourceFirstPageTime', ['source.type', 'source.id'], 'p50'),
      search('SourceFirstPageTime', ['source.type', 'source.id'], 'p99'),
    ]);
    assert.deepEqual(graph('Source errors by contract code').expressions, [
      search('SourceErrors', ['source.type', 'source.id', 'error.type'], 'Sum'),
    ]);
    assert.deepEqual(graph('Source error rate').expressions, [
      search('SourceErrors', ['source.type', 'source.id'], 'Average'),
    ]);
  });

  it('graphs Lambda throttles beside errors, and cold starts from the Powertools ColdStart metric', () => {
    const lambda = graph('Lambda throttles').metrics.join('\n');
    assert.match(lambda, /AWS\/Lambda Throttles FunctionName/);
    assert.match(lambda, /AWS\/Lambda Errors FunctionName/);
    const [fnId] = onlyResource(dev, 'AWS::Lambda::Function');
    assert.deepEqual(graph('Cold starts').expressions, [
      search('ColdStart', ['function_name'], 'Sum', ` function_name="<Ref:${fnId}>"`),
    ]);
  });

  it('labels each SEARCH series by its own dimension values, not by the expression text', () => {
    for (const widget of widgetsOf(dev))
      for (const line of widget.properties.metrics ?? [])
        for (const item of line)
          if (typeof item === 'object' && item.expression?.startsWith('SEARCH'))
            assert.match(item.label ?? '', /\$\{LABEL\}/, item.expression);
  });

  it('shows the state of every alarm of the stack', () => {
    const status = widgetsOf(dev).find((w) => w.type === 'alarm');
    const alarmIds = resourcesOf(dev, 'AWS::CloudWatch::Alarm').map(([id]) => `<${id}.Arn>`);
    assert.deepEqual([...(status?.properties.alarms ?? [])].sort(), alarmIds.sort());
  });
});

describe('alarms', () => {
  const sourceAlarm = (template: Template): Record<string, unknown> => {
    const [, alarm] = onlyResource(template, 'AWS::CloudWatch::Alarm', (a) =>
      JSON.stringify(a.Properties?.Metrics ?? '').includes('SourceErrors'),
    );
    return alarm.Properties ?? {};
  };

  it('watches the share of failed reads per source with one Metrics Insights query grouped by source', () => {
    const alarm = sourceAlarm(dev);
    assert.deepEqual(alarm.Metrics, [
      {
        Id: 'expr_1',
        Label: 'Share of reads that failed, per source',
        Period: 300,
        ReturnData: true,
        // The per-read set (no error.type): each read publishes 0 or its failures, so AVG is the error rate.
        Expression:
          'SELECT AVG(SourceErrors) FROM SCHEMA("BosMcp", "source.type", "source.id", "service") ' +
          `WHERE service = 'bos-mcp' GROUP BY "source.type", "source.id" ORDER BY AVG() DESC`,
      },
    ]);
    assert.equal(alarm.Threshold, 0.25);
    assert.equal(alarm.EvaluationPeriods, 3);
    assert.equal(alarm.DatapointsToAlarm, 2);
    assert.equal(alarm.ComparisonOperator, 'GreaterThanOrEqualToThreshold');
    assert.equal(alarm.TreatMissingData, 'notBreaching');
  });

  it('takes the per-source error rate from the stack props (context sourceErrorRatePercent)', () => {
    assert.equal(sourceAlarm(prod).Threshold, 0.1);
  });

  it('covers 5xx, function errors, throttles, duration and sources, each once', () => {
    const watched = resourcesOf(dev, 'AWS::CloudWatch::Alarm')
      .map(([, alarm]) => (alarm.Properties?.MetricName as string | undefined) ?? 'SourceErrors')
      .sort();
    assert.deepEqual(watched, ['5XXError', 'Duration', 'Errors', 'SourceErrors', 'Throttles']);
  });

  it('notifies the SNS topic from context on alarm and on recovery, and nobody without one', () => {
    for (const [id, alarm] of resourcesOf(prod, 'AWS::CloudWatch::Alarm')) {
      assert.deepEqual(alarm.Properties?.AlarmActions, [TOPIC], id);
      assert.deepEqual(alarm.Properties?.OKActions, [TOPIC], id);
    }
    for (const [id, alarm] of resourcesOf(dev, 'AWS::CloudWatch::Alarm')) {
      assert.equal(alarm.Properties?.AlarmActions, undefined, id);
      assert.equal(alarm.Properties?.OKActions, undefined, id);
    }
  });
});
