/**
 * The shape of an AppTheory `tier: "mcp"` fixture vector (shared/fixtures/apptheory/fixture.schema.json,
 * `$defs` mcpSetup / mcpStep / mcpExpectedStep / mcpSSEFrame), limited to the fields this runner reads.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { JsonObject, JsonValue } from '../../lambda/mcp/types/index.js';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** Where the vectors live when the shared folder sits beside the repository. */
export const MCP_VECTOR_DIR = join(repoRoot, '..', 'shared', 'fixtures', 'apptheory', 'mcp');

export interface SetupTool {
  name: string;
  title?: string;
  description?: string;
  input_schema: JsonObject;
  output_schema?: JsonObject;
  handler: string;
  streaming?: boolean;
  task_support?: 'forbidden' | 'optional' | 'required';
}

/** `mcpResourceContent`: text or base64 `blob`. */
export interface SetupResourceContent {
  uri: string;
  mime_type?: string;
  text?: string;
  blob?: string;
}

export interface SetupResource {
  uri: string;
  name: string;
  title?: string;
  description?: string;
  mime_type?: string;
  size?: number;
  contents?: SetupResourceContent[];
}

export interface SetupPrompt {
  name: string;
  title?: string;
  description?: string;
  arguments?: { name: string; description?: string; required?: boolean }[];
  handler: string;
}

export interface McpSetup {
  server: {
    name: string;
    version: string;
    include_server_info_metadata?: boolean;
    extension_capabilities?: Record<string, JsonObject | null>;
    cacheable_results?: Record<string, { ttl_ms: number; cache_scope: 'public' | 'private' }>;
  };
  id_sequence?: string[];
  stream_id_sequence?: string[];
  tools?: SetupTool[];
  resources?: SetupResource[];
  resource_templates?: {
    uri_template: string;
    name: string;
    title?: string;
    description?: string;
    mime_type?: string;
  }[];
  prompts?: SetupPrompt[];
  session_store?: {
    seed: { id: string; created_unix_ms?: number; expires_unix_ms: number; data: Record<string, string> }[];
  };
  task_runtime?: {
    enabled: boolean;
    default_ttl_ms?: number;
    max_ttl_ms?: number;
    poll_interval_ms?: number;
    list_limit?: number;
    model_immediate_response?: string;
    clock_unix_ms?: number;
    update_clock_unix_ms?: number;
  };
}

export interface StepRequest {
  method: string;
  path: string;
  headers: Record<string, string[]>;
  body?: { encoding: 'utf8' | 'base64'; value: string };
  is_base64?: boolean;
}

export interface InputStep {
  name: string;
  request: StepRequest;
  read_body?: boolean;
}

export interface SseFrame {
  id?: string;
  event?: string;
  data: string;
}

export interface ExpectedStep {
  status: number;
  headers: Record<string, string[]>;
  cookies: string[];
  is_base64: boolean;
  body?: string;
  body_json?: JsonValue;
  sse_frames?: SseFrame[];
}

export interface McpVector {
  id: string;
  name: string;
  setup: { mcp: McpSetup };
  input: { mcp: { steps: InputStep[]; detections?: JsonObject[] } };
  expect: { mcp: { steps: ExpectedStep[]; detections?: JsonObject[] } };
}

/** Every vector file in `dir`, sorted by file name; `undefined` when the folder is absent. */
export function loadVectors(dir = MCP_VECTOR_DIR): { file: string; vector: McpVector }[] | undefined {
  if (!existsSync(dir)) return undefined;
  return readdirSync(dir)
    .filter((file) => file.endsWith('.json'))
    .sort()
    .map((file) => ({ file, vector: JSON.parse(readFileSync(join(dir, file), 'utf8')) as McpVector }));
}
