/**
 * Builds the runner-owned `McpServer` a vector's `setup.mcp` describes: tools chosen by built-in handler
 * name, resources with their fixed contents, prompts, deterministic session ids, seeded sessions and a
 * fixed clock (FIXTURES-README "SP09 MCP fixtures").
 *
 * `stream_id_sequence` is not wired: our stream ids never reach the wire (SSE event ids are per-session
 * counters, which the vectors pin), so the sequence has nothing to make deterministic.
 */
import { InMemoryTaskStore, McpServer } from '../../lambda/mcp/index.js';
import type {
  CacheableResultsOptions,
  JsonObject,
  McpServerOptions,
  PromptHandler,
  ResourceContent,
  SessionRecord,
  SessionStore,
  StreamingToolHandler,
  ToolHandler,
} from '../../lambda/mcp/types/index.js';
import type { McpSetup, SetupResourceContent, SetupTool } from './vector.js';

/**
 * The clock every vector runs at unless its task runtime names one: 2026-07-03T00:00:00Z, the
 * `clock_unix_ms` the task vectors use, and before every seeded session's `expires_unix_ms`.
 */
export const FIXTURE_CLOCK_MS = 1_783_036_800_000;

/** Thrown when a vector needs a handler or setting this runner does not provide. */
export class FixtureSetupError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'FixtureSetupError';
  }
}

/** A session store the runner can seed; the runtime's own in-memory store has no seeding hook. */
export class SeededSessionStore implements SessionStore {
  readonly #records = new Map<string, SessionRecord>();

  constructor(seed: McpSetup['session_store'], createdAt: number) {
    for (const s of seed?.seed ?? []) {
      this.#records.set(s.id, {
        sessionId: s.id,
        createdAt: s.created_unix_ms ?? createdAt,
        expiresAt: s.expires_unix_ms,
        data: { ...s.data },
      });
    }
  }

  get(sessionId: string): Promise<SessionRecord | undefined> {
    const record = this.#records.get(sessionId);
    return Promise.resolve(record && { ...record, data: { ...record.data } });
  }

  put(record: SessionRecord): Promise<void> {
    this.#records.set(record.sessionId, { ...record, data: { ...record.data } });
    return Promise.resolve();
  }

  delete(sessionId: string): Promise<void> {
    this.#records.delete(sessionId);
    return Promise.resolve();
  }
}

const messageOf = (args: JsonObject): string => (typeof args.message === 'string' ? args.message : '');

/** Built-in buffered tool handlers (reference-runtime-lessons §3). */
const TOOL_HANDLERS: Record<string, ToolHandler> = {
  echo_text: (args) => Promise.resolve({ content: [{ type: 'text', text: messageOf(args) }] }),
  task_echo: (args) =>
    Promise.resolve({
      content: [{ type: 'text', text: messageOf(args) }],
      structuredContent: { message: messageOf(args) },
    }),
  input_required: (args, ctx) => {
    const message = messageOf(args);
    if (ctx.requestState === `confirm-${message}` && ctx.inputResponses?.confirmation !== undefined) {
      return Promise.resolve({
        content: [{ type: 'text', text: `confirmed ${message}` }],
        resultType: 'complete',
      });
    }
    return Promise.resolve({
      content: [],
      resultType: 'input_required',
      inputRequests: {
        confirmation: {
          method: 'elicitation/create',
          params: {
            message: `Confirm ${message}`,
            requestedSchema: {
              type: 'object',
              properties: { confirmed: { type: 'boolean' } },
              required: ['confirmed'],
            },
          },
        },
      },
      requestState: `confirm-${message}`,
    });
  },
  input_required_extension: (args, ctx) => {
    const message = messageOf(args);
    if (ctx.requestState === `review-${message}` && ctx.inputResponses?.approval !== undefined) {
      return Promise.resolve({
        content: [{ type: 'text', text: `approved ${message}` }],
        resultType: 'complete',
      });
    }
    return Promise.resolve({
      content: [],
      resultType: 'input_required',
      inputRequests: {
        approval: { method: 'com.example/review/approve', params: { message: `Review ${message}` } },
      },
      requestState: `review-${message}`,
    });
  },
};

/** Built-in streaming tool handlers: `stream_progress` emits `{seq, total: 2, message}` twice. */
const STREAMING_HANDLERS: Record<string, StreamingToolHandler> = {
  stream_progress: (args, ctx) => {
    ctx.progress(1, 2, 'half');
    ctx.progress(2, 2, 'done');
    return Promise.resolve({ content: [{ type: 'text', text: messageOf(args) }] });
  },
};

const PROMPT_HANDLERS: Record<string, PromptHandler> = {
  render_greeting: (args) =>
    Promise.resolve({
      description: 'Rendered greeting',
      messages: [{ role: 'user', content: { type: 'text', text: `Hello, ${args.name ?? 'friend'}.` } }],
    }),
};

/** Builds the server for one vector. `requestIds` are not set here: the caller passes them per request. */
export function buildFixtureServer(setup: McpSetup): McpServer {
  const runtime = setup.task_runtime;
  const now = runtime?.clock_unix_ms ?? FIXTURE_CLOCK_MS;
  const ids = [...(setup.id_sequence ?? [])];
  const nextId = (): string => {
    const next = ids.shift();
    if (next === undefined) throw new FixtureSetupError('id_sequence exhausted');
    return next;
  };
  // The task vectors' two instants: tasks are created at `clock_unix_ms` and every later update happens at
  // `update_clock_unix_ms`, so the clock moves on once the first task exists.
  let taskCreated = false;
  const options: McpServerOptions = {
    name: setup.server.name,
    version: setup.server.version,
    sessionStore: new SeededSessionStore(setup.session_store, now),
    clock: () => (taskCreated ? (runtime?.update_clock_unix_ms ?? now) : now),
    newSessionId: nextId,
  };
  if (runtime?.enabled === true) {
    const store = new InMemoryTaskStore();
    const create = store.create.bind(store);
    store.create = (record) => create(record).finally(() => (taskCreated = true));
    options.tasks = {
      store,
      newTaskId: nextId,
      ...(runtime.default_ttl_ms !== undefined && { defaultTtlMs: runtime.default_ttl_ms }),
      ...(runtime.max_ttl_ms !== undefined && { maxTtlMs: runtime.max_ttl_ms }),
      ...(runtime.poll_interval_ms !== undefined && { pollIntervalMs: runtime.poll_interval_ms }),
      ...(runtime.model_immediate_response !== undefined && {
        modelImmediateResponse: runtime.model_immediate_response,
      }),
    };
    if (runtime.list_limit !== undefined) options.pageSize = runtime.list_limit;
  }
  if (setup.server.include_server_info_metadata !== undefined) {
    options.includeServerInfoMetadata = setup.server.include_server_info_metadata;
  }
  if (setup.server.extension_capabilities !== undefined) {
    // A `null` declaration is "named but not configured": our option type only carries configured ones.
    options.extensions = Object.fromEntries(
      Object.entries(setup.server.extension_capabilities).filter(
        (entry): entry is [string, JsonObject] => entry[1] !== null,
      ),
    );
  }
  if (setup.server.cacheable_results !== undefined) options.cacheableResults = cacheHints(setup);

  const server = new McpServer(options);
  for (const tool of setup.tools ?? []) registerTool(server, tool);
  for (const resource of setup.resources ?? []) {
    const contents = (resource.contents ?? []).map(resourceContent);
    server.registerResource(
      {
        uri: resource.uri,
        name: resource.name,
        ...optional('title', resource.title),
        ...optional('description', resource.description),
        ...optional('mimeType', resource.mime_type),
        ...optional('size', resource.size),
      },
      () => Promise.resolve(contents),
    );
  }
  for (const template of setup.resource_templates ?? []) {
    server.registerResourceTemplate(
      {
        uriTemplate: template.uri_template,
        name: template.name,
        ...optional('title', template.title),
        ...optional('description', template.description),
        ...optional('mimeType', template.mime_type),
      },
      (uri) => Promise.resolve([{ uri, text: '' }]),
    );
  }
  for (const prompt of setup.prompts ?? []) {
    const handler = PROMPT_HANDLERS[prompt.handler];
    if (handler === undefined) throw new FixtureSetupError(`unknown prompt handler ${prompt.handler}`);
    const { handler: _name, ...def } = prompt;
    server.registerPrompt(def, handler);
  }
  return server;
}

/** `{ [key]: value }`, or nothing when the vector leaves the field out. */
function optional<K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } {
  return (value === undefined ? {} : { [key]: value }) as { [P in K]?: V };
}

/** A vector's resource content in wire spelling (`mime_type` → `mimeType`; text or base64 blob). */
function resourceContent(content: SetupResourceContent): ResourceContent {
  return {
    uri: content.uri,
    ...optional('mimeType', content.mime_type),
    ...(content.blob === undefined ? { text: content.text ?? '' } : { blob: content.blob }),
  };
}

function registerTool(server: McpServer, tool: SetupTool): void {
  const def = {
    name: tool.name,
    ...optional('title', tool.title),
    ...optional('description', tool.description),
    inputSchema: tool.input_schema,
    ...optional('outputSchema', tool.output_schema),
    ...(tool.task_support === undefined ? {} : { execution: { taskSupport: tool.task_support } }),
  };
  if (tool.streaming === true) {
    const handler = STREAMING_HANDLERS[tool.handler];
    if (handler === undefined) throw new FixtureSetupError(`unknown streaming handler ${tool.handler}`);
    server.registerStreamingTool(def, handler);
    return;
  }
  const handler = TOOL_HANDLERS[tool.handler];
  if (handler === undefined) throw new FixtureSetupError(`unknown tool handler ${tool.handler}`);
  server.registerTool(def, handler);
}

const SURFACES: Record<string, keyof CacheableResultsOptions> = {
  server_discover: 'serverDiscover',
  tools_list: 'toolsList',
  prompts_list: 'promptsList',
  resources_list: 'resourcesList',
  resource_templates_list: 'resourceTemplatesList',
  resources_read: 'resourcesRead',
};

function cacheHints(setup: McpSetup): CacheableResultsOptions {
  const hints: CacheableResultsOptions = {};
  for (const [surface, hint] of Object.entries(setup.server.cacheable_results ?? {})) {
    const key = SURFACES[surface];
    if (key === undefined) throw new FixtureSetupError(`unknown cacheable surface ${surface}`);
    hints[key] = { ttlMs: hint.ttl_ms, scope: hint.cache_scope };
  }
  return hints;
}
