/**
 * One declaration per adapter kind of the options its directory definition may carry: for each option its
 * type, default, whether it is required, what it means and how its value is checked. The kind's reader and
 * the option tables of `docs/adapters.md` both come from it (`npm run docs:options` writes the tables; a
 * test fails when they differ).
 *
 * A small reader of our own rather than a JSON Schema on Ajv: the kinds need checks a schema cannot state
 * (an `https` URL that may be `http` on loopback only in the local stack, a template that must stay on
 * another option's origin), every problem must read as one sentence naming its option, and option modules
 * load at cold start, where Ajv and a schema compile are cost every call would pay for.
 */

/** Where a read stands: the problems found so far and what the composition allows. */
export interface ReadContext {
  readonly problems: string[];
  /** The kind's name, for "is not a … option". */
  readonly kind: string;
  /** The local stack's loopback `http` allowance (`ProviderSettings.allowLoopbackHttp`). */
  readonly allowLoopbackHttp: boolean;
}

/** Checks one present value: returns it (possibly converted), or pushes one problem naming `at` and returns undefined. */
export type OptionCheck<T> = (value: unknown, at: string, context: ReadContext) => T | undefined;

/** A value's type and check, before it becomes an option (see {@link option}). */
export interface OptionType<T> {
  /** The type as the docs state it, e.g. "integer 1–1000" or "`bearer` or `basic`". */
  readonly type: string;
  readonly check: OptionCheck<T>;
}

/** One declared option. */
export interface OptionField<T> extends OptionType<T> {
  /** What the option does, for the docs (Markdown, one line, no `|`). */
  readonly meaning: string;
  /** The value an absent option takes (trusted: not checked). */
  readonly default?: T;
  /** How the docs state a default computed from other options (e.g. "`base_url`'s host"). */
  readonly defaultText?: string;
  readonly required?: boolean;
}

type AnyField = OptionField<unknown>;
type FieldValue<F> =
  F extends OptionField<infer T>
    ? F extends { readonly required: true } | { readonly default: unknown }
      ? T
      : T | undefined
    : never;

/** The values of a table's options, after a read without problems. */
export type OptionValues<F extends Readonly<Record<string, AnyField>>> = {
  readonly [K in keyof F]: FieldValue<F[K]>;
};

/** A kind's options: the declaration and its reader. */
export interface OptionTable<F extends Readonly<Record<string, AnyField>>> {
  readonly kind: string;
  readonly fields: F;
  /**
   * Reads `value` (the object at `at`, e.g. `options`): pushes one problem per unknown key, missing required
   * option and bad value, and returns the values only when this read added no problem.
   */
  read(value: unknown, at: string, context: ReadContext): OptionValues<F> | undefined;
}

/** Declares one option: a type ({@link integer}, {@link oneOf}, …) with its meaning and default. */
export function option<T, const D extends Omit<OptionField<T>, 'type' | 'check'>>(
  type: OptionType<T>,
  declared: D & Omit<OptionField<T>, 'type' | 'check'>,
): OptionType<T> & D {
  return { ...type, ...declared };
}

/** What a table adds to its fields. */
export interface OptionTableRules<F extends Readonly<Record<string, AnyField>>> {
  /** What a key outside the table is not, e.g. "a record field". @default "a <kind> option" */
  readonly unknown?: string;
  /**
   * The rules no single option can check (one option's value allowed only with another's), run when every
   * option read well; pushes its problems, and the read then returns undefined.
   */
  readonly refine?: (values: OptionValues<F>, at: string, problems: string[]) => void;
}

/** Declares a kind's options, or a nested object's. */
export function optionTable<F extends Readonly<Record<string, AnyField>>>(
  kind: string,
  fields: F,
  rules: OptionTableRules<F> = {},
): OptionTable<F> {
  const unknown = rules.unknown ?? `${/^[aeio]|^ldap|^http/.test(kind) ? 'an' : 'a'} ${kind} option`;
  return {
    kind,
    fields,
    read(value, at, context) {
      const { problems } = context;
      if (!isObject(value)) {
        problems.push(`${at} must be an object`);
        return undefined;
      }
      const before = problems.length;
      for (const key of Object.keys(value))
        if (!Object.hasOwn(fields, key)) problems.push(`${at}.${key} is not ${unknown}`);
      const out: Record<string, unknown> = {};
      for (const [key, field] of Object.entries(fields)) {
        const given = value[key];
        if (given === undefined) {
          if (field.required === true) problems.push(`${at}.${key} is required`);
          else if (field.default !== undefined) out[key] = field.default;
          continue;
        }
        const checked = field.check(given, `${at}.${key}`, context);
        if (checked !== undefined) out[key] = checked;
      }
      if (problems.length > before) return undefined;
      rules.refine?.(out as OptionValues<F>, at, problems);
      return problems.length > before ? undefined : (out as OptionValues<F>);
    },
  };
}

/** A fresh {@link ReadContext}. */
export function readContext(kind: string, allowLoopbackHttp = false): ReadContext {
  return { problems: [], kind, allowLoopbackHttp };
}

export const isObject = (v: unknown): v is Readonly<Record<string, unknown>> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** A value that passes `test`, refused with "must be `description`". */
export function valueOf<T>(type: string, description: string, test: (v: unknown) => v is T): OptionType<T> {
  return {
    type,
    check: (v, at, { problems }) => {
      if (test(v)) return v;
      problems.push(`${at} must be ${description}`);
      return undefined;
    },
  };
}

/** A whole number from `min` to `max`. */
export function integer(min: number, max: number): OptionType<number> {
  return valueOf(
    `integer ${min}–${max}`,
    `an integer from ${min} to ${max}`,
    (v): v is number => Number.isSafeInteger(v) && (v as number) >= min && (v as number) <= max,
  );
}

/** One of `values` (strings). */
export function oneOf<const V extends string>(values: readonly V[]): OptionType<V> {
  return valueOf(
    values.map((v) => `\`${v}\``).join(values.length === 2 ? ' or ' : ', '),
    values.length === 2
      ? `"${values[0]}" or "${values[1]}"`
      : `one of ${values.map((v) => `"${v}"`).join(', ')}`,
    (v): v is V => (values as readonly unknown[]).includes(v),
  );
}

/** `true` or `false`. */
export const boolean: OptionType<boolean> = valueOf(
  'boolean',
  'a boolean',
  (v): v is boolean => typeof v === 'boolean',
);

/** A string matching `pattern`, described as `description` in the problem. */
export function text(pattern: RegExp, description: string, type = 'string'): OptionType<string> {
  return valueOf(type, description, (v): v is string => typeof v === 'string' && pattern.test(v));
}

/** A record's `source_type`: letters, digits and `. _ @ : -`, up to 128. */
export const SOURCE_TYPE = text(
  /^[A-Za-z0-9][A-Za-z0-9._@:-]{0,127}$/,
  'a name of letters, digits and . _ @ : - (at most 128, starting with a letter or digit)',
);

/** The `source_type` option of a kind whose records default to `kindDefault`. */
export const sourceTypeOption = (kindDefault: string) =>
  option(SOURCE_TYPE, { default: kindDefault, meaning: 'the `source_type` of its records' });

/** The `timeout_ms` option every kind has (at most Lambda's 900 s). */
export const timeoutOption = option(integer(1, 900_000), {
  defaultText: "the context's `source_timeout_ms`",
  meaning: "this source's own read timeout in ms (overrides the context's)",
});

/** An object read by its own table (its problems name their path below the option). */
export function objectOf<F extends Readonly<Record<string, AnyField>>>(
  table: OptionTable<F>,
  type = 'object',
): OptionType<OptionValues<F>> {
  return { type, check: (value, at, context) => table.read(value, at, context) };
}

/** An array whose every item is of `item`'s type; problems name the item (`options.overlaps[1].share`). */
export function listOf<T>(item: OptionType<T>, type = `array of ${item.type}`): OptionType<T[]> {
  return {
    type,
    check: (value, at, context) => {
      if (!Array.isArray(value)) {
        context.problems.push(`${at} must be an array`);
        return undefined;
      }
      const before = context.problems.length;
      const items = value.map((v: unknown, i) => item.check(v, `${at}[${i}]`, context));
      return context.problems.length > before ? undefined : (items as T[]);
    },
  };
}

type AnyTable = OptionTable<Readonly<Record<string, AnyField>>>;
type TableValues<T> = T extends OptionTable<infer F> ? OptionValues<F> : never;

/**
 * An object whose `kind` picks the table its other keys are read by (`{"kind": "offset_limit",
 * "page_size": 100}`); the value is `{ kind, ...that table's values }`.
 */
export function variantOf<const T extends Readonly<Record<string, AnyTable>>>(
  tables: T,
  type = 'object with `kind`',
): OptionType<{ [K in keyof T]: { readonly kind: K } & TableValues<T[K]> }[keyof T]> {
  const kinds = Object.keys(tables);
  const kindType = oneOf(kinds);
  return {
    type,
    check: (value, at, context) => {
      if (!isObject(value)) {
        context.problems.push(`${at} must be an object`);
        return undefined;
      }
      const { kind, ...rest } = value;
      const chosen = kindType.check(kind, `${at}.kind`, context);
      const table = chosen === undefined ? undefined : tables[chosen];
      const values = table?.read(rest, at, context);
      return values === undefined ? undefined : ({ kind: chosen, ...values } as never);
    },
  };
}
