/**
 * What a handler may ask of the client in an `input_required` answer (a stateless round or a task waiting for
 * input): servers MUST NOT request input the client cannot serve (mcp-2026-notes §1.6).
 */
import { isObject } from '../json/json-rpc.js';
import type { Runtime } from '../runtime.js';
import type { InputRequest, JsonObject } from '../types/index.js';

/** Core input-request methods and the client capability each needs (mcp-2026-notes §1.6). */
const coreCapabilities: ReadonlyMap<string, string> = new Map([
  ['elicitation/create', 'elicitation'],
  ['sampling/createMessage', 'sampling'],
  ['roots/list', 'roots'],
]);

/**
 * Servers MUST NOT request input the client cannot serve: each input request's capability (or, for an
 * extension method `<extension id>/…`, the advertised extension) must be in `clientCapabilities`.
 * An input method that is neither core nor under an advertised extension is a handler bug → -32603.
 */
export function requiredCapabilities(
  rt: Runtime,
  requests: Record<string, InputRequest>,
  declared: JsonObject,
): JsonObject | undefined {
  const missing: JsonObject = {};
  const missingExtensions: JsonObject = {};
  const declaredExtensions = isObject(declared.extensions) ? declared.extensions : {};
  for (const request of Object.values(requests)) {
    const method = isObject(request) && typeof request.method === 'string' ? request.method : undefined;
    if (method === undefined) throw new TypeError('input request without a method');
    const capability = coreCapabilities.get(method);
    if (capability !== undefined) {
      if (!Object.hasOwn(declared, capability) || !isObject(declared[capability])) missing[capability] = {};
      continue;
    }
    const extension = Object.keys(rt.capabilities().extensions ?? {}).find((id) =>
      method.startsWith(`${id}/`),
    );
    if (extension === undefined) throw new TypeError(`input request method ${method} is not servable`);
    if (!Object.hasOwn(declaredExtensions, extension) || !isObject(declaredExtensions[extension]))
      missingExtensions[extension] = {};
  }
  if (Object.keys(missingExtensions).length > 0) missing.extensions = missingExtensions;
  return Object.keys(missing).length > 0 ? missing : undefined;
}
