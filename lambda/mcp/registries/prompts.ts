/** Prompt registry; `prompts/get` checks required arguments before calling the handler. */
import { InvalidParamsError } from '../errors.js';
import type { JsonObject, PromptDef, PromptHandler } from '../types/index.js';

/** Prompts by name, in registration order. */
export class PromptRegistry {
  readonly #entries = new Map<string, { def: PromptDef; handler: PromptHandler }>();
  #defs: PromptDef[] | undefined;

  add(def: PromptDef, handler: PromptHandler): void {
    if (typeof def.name !== 'string' || def.name === '') throw new Error('prompt name is required');
    if (this.#entries.has(def.name)) throw new Error(`prompt already registered: ${def.name}`);
    this.#entries.set(def.name, { def: structuredClone(def), handler });
    this.#defs = undefined;
  }

  get(name: string): { def: PromptDef; handler: PromptHandler } | undefined {
    return this.#entries.get(name);
  }

  definitions(): readonly PromptDef[] {
    this.#defs ??= [...this.#entries.values()].map((entry) => entry.def);
    return this.#defs;
  }

  get size(): number {
    return this.#entries.size;
  }
}

/**
 * Validates `prompts/get` arguments against the definition: a string map with every required argument
 * present. Messages name only definition-side argument names.
 */
export function promptArguments(def: PromptDef, raw: unknown): Record<string, string> {
  if (raw !== undefined && (typeof raw !== 'object' || raw === null || Array.isArray(raw))) {
    throw new InvalidParamsError('Invalid params: arguments must be an object');
  }
  // No prototype: a caller-supplied `__proto__` key stays an ordinary entry.
  const args = Object.create(null) as Record<string, string>;
  for (const [key, value] of Object.entries((raw ?? {}) as JsonObject)) {
    if (typeof value !== 'string')
      throw new InvalidParamsError('Invalid params: prompt arguments must be strings');
    args[key] = value;
  }
  for (const argument of def.arguments ?? []) {
    if (argument.required === true && args[argument.name] === undefined) {
      throw new InvalidParamsError(`Invalid params: missing required argument ${argument.name}`);
    }
  }
  return args;
}
