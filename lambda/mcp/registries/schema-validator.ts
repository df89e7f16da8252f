/**
 * Tool-argument validation with Ajv. Each schema is compiled once, at registration, and the compiled
 * function is kept with the tool, so no request ever compiles a schema. Schemas without `$schema`, or
 * declaring 2020-12, use Ajv's 2020 dialect (MCP's default); schemas declaring draft-07 use draft-07.
 */
import { Ajv } from 'ajv';
import type { ErrorObject, Options, ValidateFunction } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import type { JsonObject } from '../types.js';

/** Returns undefined when `args` is valid, else a sanitized `Invalid params: …` message. */
export type ArgsValidator = (args: JsonObject) => string | undefined;

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

let draft07: Ajv | undefined;
let draft2020: Ajv2020 | undefined;

/**
 * MCP 2025-11-25 (and 2026-07-28) make JSON Schema 2020-12 the default dialect of tool schemas without
 * `$schema`; a schema that names draft-07 (or the older drafts Ajv's default class reads) keeps it.
 */
function ajvFor(schema: JsonObject): Ajv | Ajv2020 {
  const dialect = schema.$schema;
  if (typeof dialect === 'string' && /draft-0[467]/.test(dialect)) {
    draft07 ??= new Ajv(ajvOptions);
    return draft07;
  }
  draft2020 ??= new Ajv2020(ajvOptions);
  return draft2020;
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

/**
 * Compiles `schema` into an `ArgsValidator`. Throws (at registration time) when the schema itself is
 * invalid, so a broken tool never reaches a client.
 */
export function compileValidator(schema: JsonObject): ArgsValidator {
  const validate: ValidateFunction = ajvFor(schema).compile(schema);
  return (args) => (validate(args) ? undefined : describe(validate.errors?.[0]));
}
