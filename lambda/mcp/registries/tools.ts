/**
 * Tool registry. Definitions are kept verbatim (JSON Schema 2020-12 `$schema`, outputSchema,
 * annotations, icons, execution.taskSupport) and returned as registered by `tools/list`; the argument
 * validator is made here and compiles its schema on the tool's first call (`schema-validator.ts`).
 */
import type {
  BeforeTaskHook,
  StreamingToolHandler,
  StreamingToolOptions,
  ToolDef,
  ToolHandler,
} from '../types/index.js';
import { compileValidator } from './schema-validator.js';
import type { ArgsValidator } from './schema-validator.js';

/** A registered tool. */
export type ToolEntry =
  | {
      streaming: false;
      def: ToolDef;
      handler: ToolHandler;
      validate: ArgsValidator;
      timeoutMs?: number;
      beforeTask?: BeforeTaskHook;
    }
  | {
      streaming: true;
      def: ToolDef;
      handler: StreamingToolHandler;
      validate: ArgsValidator;
      timeoutMs?: number;
      beforeTask?: BeforeTaskHook;
      options: StreamingToolOptions;
    };

/** What `add` takes: an entry without its (derived) validator. */
export type ToolEntryInput = ToolEntry extends infer E
  ? E extends ToolEntry
    ? Omit<E, 'validate'>
    : never
  : never;

/** Tools by name, in registration order. */
export class ToolRegistry {
  readonly #entries = new Map<string, ToolEntry>();
  #defs: ToolDef[] | undefined;

  /** Registers a tool; throws on a duplicate name or an invalid input schema. */
  add(entry: ToolEntryInput): void {
    const { def } = entry;
    if (typeof def.name !== 'string' || def.name === '') throw new Error('tool name is required');
    if (this.#entries.has(def.name)) throw new Error(`tool already registered: ${def.name}`);
    const validate = compileValidator(def.inputSchema);
    this.#entries.set(def.name, { ...entry, def: structuredClone(def), validate });
    this.#defs = undefined;
  }

  get(name: string): ToolEntry | undefined {
    return this.#entries.get(name);
  }

  /** Definitions in registration order (cached until the next registration). */
  definitions(): readonly ToolDef[] {
    this.#defs ??= [...this.#entries.values()].map((entry) => entry.def);
    return this.#defs;
  }

  get size(): number {
    return this.#entries.size;
  }
}
