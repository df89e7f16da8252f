/** Definitions and results of the tool, resource and prompt registries. */
import type { TextPieces } from '../json/json-pieces.js';
import type { JsonObject } from '../json/wire.js';

export interface Icon {
  src: string;
  mimeType?: string;
  sizes?: string[];
  theme?: 'light' | 'dark';
}

export interface ToolAnnotations {
  title?: string;
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
}

export type TaskSupport = 'forbidden' | 'optional' | 'required';

/** A tool definition; `inputSchema` and `outputSchema` are kept verbatim (JSON Schema 2020-12 included). */
export interface ToolDef {
  name: string;
  title?: string;
  description?: string;
  inputSchema: JsonObject;
  outputSchema?: JsonObject;
  annotations?: ToolAnnotations;
  icons?: Icon[];
  execution?: { taskSupport?: TaskSupport };
  _meta?: JsonObject;
}

export type ContentBlock =
  /** A large text may be given as `TextPieces` (written piece by piece in an SSE final frame). */
  | { type: 'text'; text: string | TextPieces; _meta?: JsonObject }
  | { type: 'image'; data: string; mimeType: string; _meta?: JsonObject }
  | { type: 'audio'; data: string; mimeType: string; _meta?: JsonObject }
  | {
      type: 'resource_link';
      uri: string;
      name: string;
      title?: string;
      description?: string;
      mimeType?: string;
      size?: number;
    }
  | { type: 'resource'; resource: ResourceContent };

/** An input request in a 2026-07-28 `input_required` result. */
export interface InputRequest {
  method: 'elicitation/create' | 'sampling/createMessage' | 'roots/list' | (string & {});
  params?: JsonObject;
}

export interface ToolResult {
  content: ContentBlock[];
  structuredContent?: JsonObject;
  isError?: boolean;
  _meta?: JsonObject;
  /** 2026-07-28 multi-round input; ignored (and unavailable) in the session-ful shape. */
  resultType?: 'complete' | 'input_required';
  inputRequests?: Record<string, InputRequest>;
  requestState?: string;
}

export interface ResourceDef {
  uri: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  size?: number;
  _meta?: JsonObject;
}

export interface ResourceTemplateDef {
  uriTemplate: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
}

/**
 * A `resources/read` handler's answer when it needs 2026-07-28 multi-round input (or wants to set
 * `_meta`). Handlers may keep returning a plain `ResourceContent[]`.
 */
export interface ResourceReadResult {
  contents: ResourceContent[];
  _meta?: JsonObject;
  resultType?: 'complete' | 'input_required';
  inputRequests?: Record<string, InputRequest>;
  requestState?: string;
}

export type ResourceContent =
  | { uri: string; mimeType?: string; text: string; _meta?: JsonObject }
  | { uri: string; mimeType?: string; blob: string; _meta?: JsonObject };

export interface PromptArgument {
  name: string;
  title?: string;
  description?: string;
  required?: boolean;
}

export interface PromptDef {
  name: string;
  title?: string;
  description?: string;
  arguments?: PromptArgument[];
}

export interface PromptMessage {
  role: 'user' | 'assistant';
  content: ContentBlock;
}

export interface PromptResult {
  description?: string;
  messages: PromptMessage[];
  _meta?: JsonObject;
  resultType?: 'complete' | 'input_required';
  inputRequests?: Record<string, InputRequest>;
  requestState?: string;
}
