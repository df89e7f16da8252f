/**
 * Builds BosMcpStack for template tests. Each test file synthesizes once (bundling runs esbuild) and shares
 * the result between its tests.
 */
import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { BosMcpStack } from '../../lib/index.js';
import type { BosMcpStackProps } from '../../lib/index.js';

/** Auth settings used by every fixture stack. */
export const TEST_AUTH = {
  issuer: 'https://issuer.test.example',
  jwksUrl: 'https://issuer.test.example/.well-known/jwks.json',
} as const;

/** Props of a fixture stack: the stage plus any override. */
export type FixtureProps = Partial<BosMcpStackProps> & { stage: string };

/** Adds a BosMcpStack named like the real one (`BosMcp-<stage>`) to `app`. */
export function addStack(app: App, props: FixtureProps): BosMcpStack {
  return new BosMcpStack(app, `BosMcp-${props.stage}`, { auth: TEST_AUTH, ...props });
}

/** A one-stack app and its template. */
export function synthStack(props: FixtureProps): { app: App; stack: BosMcpStack; template: Template } {
  const app = new App();
  const stack = addStack(app, props);
  return { app, stack, template: Template.fromStack(stack) };
}

/** A CloudFormation resource as `Template.findResources` returns it. */
export interface CfnResourceJson {
  Type: string;
  Properties?: Record<string, unknown>;
  DeletionPolicy?: string;
  UpdateReplacePolicy?: string;
  DependsOn?: unknown;
}

/** Resources of one type, as an array of `[logicalId, resource]`. */
export function resourcesOf(template: Template, type: string): Array<[string, CfnResourceJson]> {
  return Object.entries(template.findResources(type) as Record<string, CfnResourceJson>);
}

/** The resource of a type with this logical id, if any. */
export function resourceById(
  template: Template,
  type: string,
  logicalId: string,
): CfnResourceJson | undefined {
  return resourcesOf(template, type).find(([id]) => id === logicalId)?.[1];
}

/**
 * Renders a CloudFormation value as text so assertions can read ARNs and URLs: `Fn::Join` is joined,
 * `Ref` becomes `<Ref:Id>`, `Fn::GetAtt` becomes `<Id.Attr>`.
 */
export function render(value: unknown): string {
  if (typeof value === 'string' || typeof value === 'number') return String(value);
  if (Array.isArray(value)) return value.map(render).join(',');
  if (typeof value === 'object' && value !== null) {
    const record = value as Record<string, unknown>;
    if (typeof record.Ref === 'string') return `<Ref:${record.Ref}>`;
    const getAtt = record['Fn::GetAtt'];
    if (Array.isArray(getAtt)) return `<${getAtt.map(String).join('.')}>`;
    const join = record['Fn::Join'];
    if (Array.isArray(join) && typeof join[0] === 'string' && Array.isArray(join[1])) {
      return join[1].map(render).join(join[0]);
    }
    return JSON.stringify(value);
  }
  return String(value);
}

/** The single resource of a type whose properties match `predicate`; throws unless exactly one. */
export function onlyResource(
  template: Template,
  type: string,
  predicate: (resource: CfnResourceJson) => boolean = () => true,
): [string, CfnResourceJson] {
  const found = resourcesOf(template, type).filter(([, resource]) => predicate(resource));
  if (found.length !== 1) throw new Error(`expected one ${type}, found ${found.length}`);
  return found[0]!;
}

/** One API Gateway method with the full path of its resource. */
export interface MethodRoute {
  logicalId: string;
  httpMethod: string;
  path: string;
  properties: Record<string, unknown>;
}

/** Every `AWS::ApiGateway::Method`, with its path rebuilt from the resource tree (`ParentId`/`PathPart`). */
export function methodRoutes(template: Template): MethodRoute[] {
  const resources = new Map(resourcesOf(template, 'AWS::ApiGateway::Resource'));
  const pathOf = (resourceId: unknown): string => {
    // The root resource is referenced as the RestApi's RootResourceId attribute.
    if (typeof resourceId !== 'object' || resourceId === null || !('Ref' in resourceId)) return '';
    const resource = resources.get(String(resourceId.Ref));
    if (!resource) return '';
    return `${pathOf(resource.Properties?.ParentId)}/${String(resource.Properties?.PathPart)}`;
  };
  return resourcesOf(template, 'AWS::ApiGateway::Method').map(([logicalId, method]) => ({
    logicalId,
    httpMethod: String(method.Properties?.HttpMethod),
    path: pathOf(method.Properties?.ResourceId) || '/',
    properties: method.Properties ?? {},
  }));
}
