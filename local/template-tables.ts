/**
 * Reads the synthesized CDK template (`cdk.out/BosMcp-<stage>.template.json`) so the local stack creates
 * exactly the DynamoDB tables, and sets exactly the environment variables, that `cdk deploy` would: a schema
 * change in `lib/` becomes the local schema with no second copy to keep in step.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { stackNameForStage } from '../lib/project.js';

/** A key schema element as CloudFormation writes it. */
export interface TemplateKeyElement {
  readonly AttributeName: string;
  readonly KeyType: 'HASH' | 'RANGE';
}

/** An attribute definition as CloudFormation writes it. */
export interface TemplateAttributeDefinition {
  readonly AttributeName: string;
  readonly AttributeType: 'S' | 'N' | 'B';
}

/** One `AWS::DynamoDB::Table` of the template, in the shape `CreateTable` takes. */
export interface TemplateTable {
  /** CloudFormation logical id. */
  readonly logicalId: string;
  readonly keySchema: readonly TemplateKeyElement[];
  readonly attributeDefinitions: readonly TemplateAttributeDefinition[];
  /** The TTL attribute when TTL is enabled. */
  readonly timeToLiveAttribute?: string;
  /** `PAY_PER_REQUEST` or `PROVISIONED`. */
  readonly billingMode: string;
  /** Names of the function environment variables whose value is this table's name (`Ref`). */
  readonly environmentVariables: readonly string[];
}

/** A function environment value: a literal, a table name, or something only CloudFormation can resolve. */
export type TemplateEnvironmentValue =
  | { readonly kind: 'literal'; readonly value: string }
  | { readonly kind: 'table'; readonly logicalId: string }
  | { readonly kind: 'unresolved' };

/** One `AWS::Lambda::Function` of the template. */
export interface TemplateFunction {
  readonly logicalId: string;
  readonly handler?: string;
  readonly runtime?: string;
  readonly timeoutSeconds?: number;
  readonly memorySize?: number;
  /** Environment variable names, sorted. */
  readonly environmentVariableNames: readonly string[];
  readonly environment: Readonly<Record<string, TemplateEnvironmentValue>>;
}

/** What the local stack needs from a synthesized template. */
export interface TemplateTables {
  readonly tables: readonly TemplateTable[];
  readonly functions: readonly TemplateFunction[];
}

/** Raised when a template is missing or not the shape CloudFormation writes. */
export class TemplateReadError extends Error {
  readonly code: 'template_missing' | 'template_invalid';

  constructor(code: TemplateReadError['code'], message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'TemplateReadError';
    this.code = code;
  }
}

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function invalid(message: string): TemplateReadError {
  return new TemplateReadError('template_invalid', message);
}

function arrayOf<T>(value: unknown, where: string, guard: (item: unknown) => item is T): T[] {
  if (!Array.isArray(value) || !value.every(guard)) throw invalid(`${where} is not a valid list`);
  return value;
}

const isKeyElement = (item: unknown): item is TemplateKeyElement =>
  isObject(item) &&
  typeof item.AttributeName === 'string' &&
  (item.KeyType === 'HASH' || item.KeyType === 'RANGE');

const isAttributeDefinition = (item: unknown): item is TemplateAttributeDefinition =>
  isObject(item) &&
  typeof item.AttributeName === 'string' &&
  ['S', 'N', 'B'].includes(item.AttributeType as string);

function environmentValue(value: unknown, tableIds: ReadonlySet<string>): TemplateEnvironmentValue {
  if (typeof value === 'string') return { kind: 'literal', value };
  if (isObject(value) && typeof value.Ref === 'string' && tableIds.has(value.Ref)) {
    return { kind: 'table', logicalId: value.Ref };
  }
  return { kind: 'unresolved' };
}

function readFunction(logicalId: string, props: Json, tableIds: ReadonlySet<string>): TemplateFunction {
  const variables = isObject(props.Environment) ? props.Environment.Variables : undefined;
  const raw = isObject(variables) ? variables : {};
  const names = Object.keys(raw).sort();
  return {
    logicalId,
    ...(typeof props.Handler === 'string' ? { handler: props.Handler } : {}),
    ...(typeof props.Runtime === 'string' ? { runtime: props.Runtime } : {}),
    ...(typeof props.Timeout === 'number' ? { timeoutSeconds: props.Timeout } : {}),
    ...(typeof props.MemorySize === 'number' ? { memorySize: props.MemorySize } : {}),
    environmentVariableNames: names,
    environment: Object.fromEntries(names.map((name) => [name, environmentValue(raw[name], tableIds)])),
  };
}

/**
 * Extracts the tables and functions of a synthesized template (the parsed JSON, or
 * `Template.fromStack(stack).toJSON()`). Resources of other types are ignored.
 */
export function readTemplateTables(template: unknown): TemplateTables {
  if (!isObject(template) || !isObject(template.Resources)) throw invalid('template has no Resources');
  const resources = Object.entries(template.Resources).filter((entry): entry is [string, Json] =>
    isObject(entry[1]),
  );
  const tableIds = new Set(resources.filter(([, r]) => r.Type === 'AWS::DynamoDB::Table').map(([id]) => id));
  const functions = resources
    .filter(([, r]) => r.Type === 'AWS::Lambda::Function')
    .map(([id, r]) => readFunction(id, isObject(r.Properties) ? r.Properties : {}, tableIds));

  const tables = resources
    .filter(([id]) => tableIds.has(id))
    .map(([logicalId, resource]): TemplateTable => {
      const props = isObject(resource.Properties) ? resource.Properties : {};
      const ttl = isObject(props.TimeToLiveSpecification) ? props.TimeToLiveSpecification : undefined;
      const environmentVariables = functions.flatMap((fn) =>
        Object.entries(fn.environment)
          .filter(([, value]) => value.kind === 'table' && value.logicalId === logicalId)
          .map(([name]) => name),
      );
      return {
        logicalId,
        keySchema: arrayOf(props.KeySchema, `${logicalId}.KeySchema`, isKeyElement),
        attributeDefinitions: arrayOf(
          props.AttributeDefinitions,
          `${logicalId}.AttributeDefinitions`,
          isAttributeDefinition,
        ),
        ...(ttl?.Enabled === true && typeof ttl.AttributeName === 'string'
          ? { timeToLiveAttribute: ttl.AttributeName }
          : {}),
        billingMode: typeof props.BillingMode === 'string' ? props.BillingMode : 'PROVISIONED',
        environmentVariables: [...new Set(environmentVariables)].sort(),
      };
    });
  return { tables, functions };
}

/**
 * The function whose environment names the most tables: the platform function (CDK helper functions,
 * should a future stack have any, reference no table).
 */
export function platformFunction(tables: TemplateTables): TemplateFunction | undefined {
  const tableRefs = (fn: TemplateFunction): number =>
    Object.values(fn.environment).filter((value) => value.kind === 'table').length;
  return [...tables.functions].sort((a, b) => tableRefs(b) - tableRefs(a))[0];
}

/** Path of a stage's synthesized template inside a cloud assembly folder. */
export function templatePath(stage: string, outDir = 'cdk.out'): string {
  return join(outDir, `${stackNameForStage(stage)}.template.json`);
}

/** Reads and parses a synthesized template file, then extracts its tables and functions. */
export async function readTemplateTablesFile(path: string): Promise<TemplateTables> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new TemplateReadError('template_missing', `no synthesized template at ${path}: run npm run synth`, {
      cause: error,
    });
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new TemplateReadError('template_invalid', `${path} is not JSON`, { cause: error });
  }
  return readTemplateTables(parsed);
}
