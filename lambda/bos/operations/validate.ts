import type { ErrorObject, ValidateFunction } from 'ajv';
import { compileJsonSchema, InvalidParamsError } from '../../mcp/index.js';
import type { JsonObject, JsonValue } from '../../mcp/index.js';

/**
 * Validates tool arguments against a JSON Schema and answers -32602 with a safe summary on failure.
 * One compiled validator per schema object, made on first use with the runtime's Ajv setup
 * (`compileJsonSchema`: 2020-12 unless the schema's `$schema` names draft-07), which imports Ajv only then.
 */
export function createArgumentValidator(): (
  schema: JsonObject,
  args: JsonValue | undefined,
) => Promise<JsonObject> {
  const compiled = new WeakMap<JsonObject, ValidateFunction>();

  return async (schema, args) => {
    let validate = compiled.get(schema);
    if (validate === undefined) {
      validate = await compileJsonSchema(schema);
      compiled.set(schema, validate);
    }
    const value = args ?? {};
    if (!validate(value)) throw new InvalidParamsError(`Invalid arguments: ${describe(validate.errors)}`);
    return value as JsonObject;
  };
}

/**
 * The first error as `<path> <message>`; ajv's messages name schema keywords and limits, never the
 * submitted value, so the summary is safe to send.
 */
function describe(errors: ErrorObject[] | null | undefined): string {
  const first = errors?.[0];
  if (first === undefined) return 'does not match the input schema';
  const where = first.instancePath === '' ? 'arguments' : `arguments${first.instancePath}`;
  const extra =
    first.keyword === 'additionalProperties'
      ? ` (${String((first.params as { additionalProperty?: unknown }).additionalProperty)})`
      : '';
  return `${where} ${first.message ?? 'is invalid'}${extra}`;
}
