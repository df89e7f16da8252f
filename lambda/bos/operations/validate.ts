import type { Ajv, ErrorObject, ValidateFunction } from 'ajv';
import { InvalidParamsError } from '../../mcp/index.js';
import type { JsonObject, JsonValue } from '../../mcp/index.js';

/**
 * Validates tool arguments against a JSON Schema and answers -32602 with a safe summary on failure.
 * One ajv instance and one compiled validator per schema object, made lazily on first use (no
 * import-time work, STYLE habit 6): even the library is imported on the first validation, so a cold
 * start that never validates (`initialize`, `tools/list`) never evaluates it.
 */
export function createArgumentValidator(): (
  schema: JsonObject,
  args: JsonValue | undefined,
) => Promise<JsonObject> {
  let ajv: Promise<Ajv> | undefined;
  const compiled = new WeakMap<JsonObject, ValidateFunction>();

  return async (schema, args) => {
    ajv ??= import('ajv').then(({ Ajv: Draft07 }) => new Draft07({ allErrors: false, strict: true }));
    let validate = compiled.get(schema);
    if (validate === undefined) {
      validate = (await ajv).compile(schema);
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
