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

/** RFC 3339 date-time (ajv-formats is not a dependency; a pattern keeps the schema self-contained). */
const DATE_TIME_PATTERN = '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(\\.\\d+)?(Z|[+-]\\d{2}:\\d{2})$';

export const searchPeople: OperationDef = {
  name: 'search_people',
  description:
    'Search people across the sources of the BOS context by name, email or phone. ' +
    'Returns federated person records and read metadata.',
  inputSchema: {
    ...noExtraProperties,
    properties: {
      query: { type: 'string', minLength: 1, maxLength: 256, description: 'Text to search for.' },
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
