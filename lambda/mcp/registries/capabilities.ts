/**
 * Capability advertisement for `initialize` and `server/discover`: a surface is advertised only when it
 * is both enabled by `CapabilityConfig` and actually served (mcp-method-surface "Capabilities
 * advertisement"). Resource subscriptions and `listChanged` are never advertised (no outbound
 * notification contract exists for them).
 */
import type { CapabilityConfig, JsonObject } from '../types/index.js';

/** What the server can serve right now. */
export interface ServedSurfaces {
  tools: number;
  resources: number;
  prompts: number;
  completion: boolean;
  logging: boolean;
  experimental: Record<string, JsonObject> | undefined;
  extensions: Record<string, JsonObject> | undefined;
  /** A task runtime is configured and some tool accepts task execution. */
  tasks: boolean;
}

/** Builds the `capabilities` object. */
export function buildCapabilities(config: CapabilityConfig, served: ServedSurfaces): JsonObject {
  const capabilities: JsonObject = {};
  if (served.experimental !== undefined && Object.keys(served.experimental).length > 0) {
    capabilities.experimental = structuredClone(served.experimental);
  }
  if (served.extensions !== undefined && Object.keys(served.extensions).length > 0) {
    capabilities.extensions = structuredClone(served.extensions);
  }
  if (config.tools !== false && served.tools > 0) capabilities.tools = {};
  if (config.resources !== false && served.resources > 0) capabilities.resources = {};
  if (config.prompts !== false && served.prompts > 0) capabilities.prompts = {};
  if (config.completions !== false && served.completion) capabilities.completions = {};
  if (config.logging !== false && served.logging) capabilities.logging = {};
  // The 2025-11-25 shape; 2026-07-28 discovery turns it into the `io.modelcontextprotocol/tasks` extension.
  if (config.tools !== false && served.tasks) {
    capabilities.tasks = { list: {}, cancel: {}, requests: { tools: { call: {} } } };
  }
  return capabilities;
}
