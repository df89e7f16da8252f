/**
 * Tool-argument validation with Ajv. Each schema is compiled once, on its tool's first call, and the
 * compiled function is kept with the tool. Compiling is the costliest part of Ajv (code generation plus
 * the meta-schema check), and a cold start that answers `initialize` or `tools/list` needs none of it, so
 * registration only checks the schema's shape. Schemas without `$schema`, or declaring 2020-12, use Ajv's
 * 2020 dialect (MCP's default); schemas declaring draft-07 use draft-07. `compileJsonSchema` is the one Ajv
 * setup of the platform: the BOS tools compile their schemas with it too.
 */
import type { Ajv, ErrorObject, Options, ValidateFunction } from 'ajv';
import type { Ajv2020 } from 'ajv/dist/2020.js';
import type { JsonObject } from '../types/index.js';

/** Resolves undefined when `args` is valid, else a sanitized `Invalid params: …` message. */
export type ArgsValidator = (args: JsonObject) => Promise<string | undefined>;

const ajvOptions: Options = {
  // Tool schemas come from many authors; unknown keywords must not make registration throw.
  strict: false,
  // No format plugin is bundled: formats are annotations here rather than a reason to refuse a schema.
  validateFormats: false,
  // Schemas with `$id` must not collide across tools in the shared instance.
  addUsedSchema: false,
  allErrors: false,
  logger: false,
};

let draft07: Promise<Ajv> | undefined;
let draft2020: Promise<Ajv2020> | undefined;

/**
 * MCP 2025-11-25 (and 2026-07-28) make JSON Schema 2020-12 the default dialect of tool schemas without
 * `$schema`; a schema that names draft-07 (or the older drafts Ajv's default class reads) keeps it.
 * Ajv itself is imported here, on the first compile: a static import would evaluate the whole library
 * (and its meta-schemas) while the bundle loads, on every cold start.
 */
function ajvFor(schema: JsonObject): Promise<Ajv | Ajv2020> {
  const dialect = schema.$schema;
  if (typeof dialect === 'string' && /draft-0[467]/.test(dialect)) {
    draft07 ??= import('ajv').then(({ Ajv: Draft07 }) => new Draft07(ajvOptions));
    return draft07;
  }
  draft2020 ??= import('ajv/dist/2020.js').then(({ Ajv2020: Draft2020 }) => new Draft2020(ajvOptions));
  return draft2020;
}

/**
 * Compiles `schema` with the Ajv instance of its dialect (see `ajvFor`). Throws (rejects) for a schema Ajv
 * refuses.
 */
export async function compileJsonSchema(schema: JsonObject): Promise<ValidateFunction> {
  const ajv = await ajvFor(schema);
  return ajv.compile(schema);
}

/** JSON-pointer-ish paths only: caller-chosen property names must not smuggle text into the message. */
function safePath(path: string): string {
  const cleaned = path.replace(/[^A-Za-z0-9_/.-]/g, '').slice(0, 120);
  return cleaned === '' ? '' : ` at ${cleaned}`;
}

function describe(error: ErrorObject | undefined): string {
  if (error === undefined) return 'Invalid params: arguments do not match the input schema';
  // Ajv messages name the violated keyword and schema-side values (types, limits), never instance values.
  return `Invalid params: arguments${safePath(error.instancePath)} ${error.message ?? 'are invalid'}`;
}

/** Raised at registration for an input schema that is not a JSON object describing an object. */
export class ToolSchemaError extends Error {
  override readonly name = 'ToolSchemaError';
  readonly code = 'invalid_tool_schema';
}

/**
 * MCP: a tool's `inputSchema` is a JSON Schema object whose `type` is `"object"` (tool arguments are
 * always an object). Checked at registration so an obviously broken tool never reaches `tools/list`.
 */
function assertToolSchema(schema: JsonObject): void {
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema))
    throw new ToolSchemaError('inputSchema must be a JSON object');
  if (schema.type !== 'object') throw new ToolSchemaError('inputSchema.type must be "object"');
}

/**
 * Makes the `ArgsValidator` of `schema`: the shape is checked now (throws {@link ToolSchemaError}), the
 * schema is compiled on the first validation. A schema Ajv then rejects makes that call throw a plain
 * error, which the dispatcher answers as -32603 with a sanitized message (a server bug, never the
 * caller's); `test/unit/bos/tools.test.ts` compiles every platform tool schema so ours never do.
 */
export function compileValidator(schema: JsonObject): ArgsValidator {
  assertToolSchema(schema);
  let compiled: Promise<ValidateFunction> | undefined;
  return async (args) => {
    compiled ??= compileJsonSchema(schema);
    const validate = await compiled;
    return validate(args) ? undefined : describe(validate.errors?.[0]);
  };
}
