/**
 * The task worker's self-invoke grant: the platform role may call `lambda:InvokeFunction` on the platform
 * function only (no wildcard, no other function, no qualifier pattern), from a policy of its own so the
 * template has no dependency cycle, and Lambda does not retry a failed worker invocation.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { onlyResource, resourcesOf, synthStack } from './stack-fixture.js';
import type { CfnResourceJson } from './stack-fixture.js';

const { template } = synthStack({ stage: 'dev' });
const [functionId] = onlyResource(template, 'AWS::Lambda::Function', (r) =>
  String(r.Properties?.Handler).startsWith('index.'),
);
const [roleId] = onlyResource(template, 'AWS::IAM::Role', (r) =>
  JSON.stringify(r.Properties?.AssumeRolePolicyDocument).includes('lambda.amazonaws.com'),
);

interface Statement {
  Effect: string;
  Action: string | string[];
  Resource: unknown;
}

function statementsOf(policy: CfnResourceJson): Statement[] {
  const document = policy.Properties?.PolicyDocument as { Statement: Statement[] };
  return document.Statement;
}

const actionsOf = (statement: Statement): string[] =>
  Array.isArray(statement.Action) ? statement.Action : [statement.Action];

/** Logical ids a resource refers to (Ref, Fn::GetAtt, DependsOn). */
function references(value: unknown, into = new Set<string>()): Set<string> {
  if (Array.isArray(value)) for (const item of value) references(item, into);
  else if (typeof value === 'object' && value !== null) {
    for (const [key, inner] of Object.entries(value)) {
      if (key === 'Ref' && typeof inner === 'string') into.add(inner);
      else if (key === 'Fn::GetAtt' && Array.isArray(inner)) into.add(String(inner[0]));
      else references(inner, into);
    }
  }
  return into;
}

describe('the task worker self-invoke grant', () => {
  it('lets the platform role invoke exactly the platform function, from one statement', () => {
    const invoking = resourcesOf(template, 'AWS::IAM::Policy').flatMap(([id, policy]) =>
      statementsOf(policy)
        .filter((s) => actionsOf(s).some((a) => a.startsWith('lambda:')))
        .map((statement) => ({ id, policy, statement })),
    );
    assert.equal(invoking.length, 1, 'one statement grants a lambda action');
    const [{ policy, statement }] = invoking as [(typeof invoking)[number]];
    assert.equal(statement.Effect, 'Allow');
    assert.deepEqual(actionsOf(statement), ['lambda:InvokeFunction']);
    assert.deepEqual(statement.Resource, { 'Fn::GetAtt': [functionId, 'Arn'] });
    assert.deepEqual(policy.Properties?.Roles, [{ Ref: roleId }]);
  });

  it('synthesises without a dependency cycle between the function, its role and its policies', () => {
    const resources = template.toJSON() as { Resources: Record<string, Record<string, unknown>> };
    const edges = new Map(
      Object.entries(resources.Resources).map(([id, resource]) => [
        id,
        [...references([resource.Properties, resource.DependsOn])].filter(
          (ref) => ref in resources.Resources,
        ),
      ]),
    );
    const state = new Map<string, 'open' | 'done'>();
    const visit = (id: string, path: string[]): void => {
      if (state.get(id) === 'done') return;
      assert.notEqual(state.get(id), 'open', `cycle: ${[...path, id].join(' -> ')}`);
      state.set(id, 'open');
      for (const next of edges.get(id) ?? []) visit(next, [...path, id]);
      state.set(id, 'done');
    };
    for (const id of edges.keys()) visit(id, []);
  });

  it('turns off Lambda retries of a failed worker invocation', () => {
    const [, config] = onlyResource(template, 'AWS::Lambda::EventInvokeConfig');
    assert.equal(config.Properties?.MaximumRetryAttempts, 0);
    assert.deepEqual(config.Properties?.FunctionName, { Ref: functionId });
  });
});
