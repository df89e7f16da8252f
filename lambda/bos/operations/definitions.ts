import type { SourceQuery } from '../../federation/index.js';
import type { JsonObject } from '../../mcp/index.js';

/** What an operation does to the systems it touches (`_meta["bos/effect"]`, `bos_list_tools.effect`). */
export type OperationEffect = 'read' | 'write';

/** A BOS operation: offered directly as an MCP tool and through `bos_execute` in a context. */
export interface OperationDef {
  name: string;
  description: string;
  /** Complete input JSON Schema (draft 2020-12 subset ajv compiles); arguments are validated against it. */
  inputSchema: JsonObject;
  effect: OperationEffect;
  approvalRequired: boolean;
  /** Whether the operation fans out to sources (and so emits source notifications when negotiated). */
  federated: boolean;
  /** The source query for validated arguments. */
  toQuery(args: JsonObject): SourceQuery;
}

const noExtraProperties = { type: 'object', additionalProperties: false } as const;

/**
 * An RFC 3339 date-time that names a real instant: months 01–12, the days each month has (29 February only
 * in leap years), hours 00–23, no leap second, offsets within ±23:59. A pattern, not a format plugin
 * (ajv-formats is not a dependency), keeps the schema self-contained; `Date.parse` reads every match. An
 * impossible date must be refused here: sources read an unparsable instant as "no filter" and would
 * return every record.
 */
const DATE_TIME_PATTERN = [
  '^(?:',
  // Any year: 31-day months, 30-day months, February up to the 28th.
  '\\d{4}-(?:(?:0[13578]|1[02])-(?:0[1-9]|[12]\\d|3[01])|(?:0[469]|11)-(?:0[1-9]|[12]\\d|30)|02-(?:0[1-9]|1\\d|2[0-8]))',
  // 29 February: years divisible by 4 but not 100, and years divisible by 400.
  '|(?:\\d{2}(?:0[48]|[2468][048]|[13579][26])|(?:[02468][048]|[13579][26])00)-02-29',
  ')T(?:[01]\\d|2[0-3]):[0-5]\\d:[0-5]\\d(?:\\.\\d{1,9})?(?:Z|[+-](?:[01]\\d|2[0-3]):[0-5]\\d)$',
].join('');

/**
 * Search text without control characters (C0, DEL, C1) and with at least one character that is not white
 * space. Sources disagree on both: slapd ends an assertion at a NUL and then matches every entry, and an
 * adapter that trims the text to nothing reads the whole directory. Refusing them is the one rule every
 * adapter can keep, so a query never matches more than it says.
 */
// Leading white space, then one visible character, then any text: disjoint classes, so matching stays linear.
const CONTROLS = '\\u0000-\\u001f\\u007f-\\u009f';
const SEARCH_TEXT_PATTERN = `^[^\\S${CONTROLS}]*[^\\s${CONTROLS}][^${CONTROLS}]*$`;

export const searchPeople: OperationDef = {
  name: 'search_people',
  description:
    'Search people across the sources of the BOS context by name, email or phone. ' +
    'Returns federated person records and read metadata.',
  inputSchema: {
    ...noExtraProperties,
    properties: {
      query: {
        type: 'string',
        minLength: 1,
        maxLength: 256,
        pattern: SEARCH_TEXT_PATTERN,
        description: 'Text to search for (not only white space; no control characters).',
      },
      limit: {
        type: 'integer',
        minimum: 1,
        maximum: 1000,
        description: 'Most records each source may deliver.',
      },
    },
    required: ['query'],
  },
  effect: 'read',
  approvalRequired: false,
  federated: true,
  toQuery: (args) => ({
    operation: 'search_people',
    query: args.query as string,
    ...(typeof args.limit === 'number' ? { limit: args.limit } : {}),
  }),
};

export const getPerson: OperationDef = {
  name: 'get_person',
  description: 'Get one federated person record by its record_ref, with every source that contributes to it.',
  inputSchema: {
    ...noExtraProperties,
    properties: {
      record_ref: {
        type: 'string',
        pattern: '^bos:person:[A-Za-z0-9_-]{1,64}$',
        description: 'A record_ref returned by search_people or list_people.',
      },
    },
    required: ['record_ref'],
  },
  effect: 'read',
  approvalRequired: false,
  federated: true,
  toQuery: (args) => ({ operation: 'get_person', record_ref: args.record_ref as string }),
};

export const listPeople: OperationDef = {
  name: 'list_people',
  description:
    'List people across the sources of the BOS context, optionally only those updated since an instant.',
  inputSchema: {
    ...noExtraProperties,
    properties: {
      updated_since: {
        type: 'string',
        pattern: DATE_TIME_PATTERN,
        description: 'RFC 3339 instant; only records observed at or after it.',
      },
    },
  },
  effect: 'read',
  approvalRequired: false,
  federated: true,
  toQuery: (args) => ({
    operation: 'list_people',
    ...(typeof args.updated_since === 'string' ? { updated_since: args.updated_since } : {}),
  }),
};

/** Every operation the platform implements, by name. A context permits a subset. */
export const OPERATIONS: ReadonlyMap<string, OperationDef> = new Map(
  [searchPeople, getPerson, listPeople].map((op) => [op.name, op]),
);
