/** The per-call telemetry port: what the runtime learns about a call, for the operator's log line and metrics. */

/**
 * Safe facts about one HTTP call, named after the OpenTelemetry MCP semantic conventions. Every value is
 * ours or checked against a closed set (a method the runtime serves, a registered tool, a dated protocol
 * version), so a client cannot put a token or a personal value into a log key or a metric dimension.
 */
export interface CallAttributes {
  /** `mcp.method.name`: the JSON-RPC method, `batch`, `response` (a client's reply), or `other`. */
  readonly method?: string;
  /** `gen_ai.tool.name`: a registered tool's name, or `unknown` for a call naming none. */
  readonly toolName?: string;
  /** `mcp.protocol.version`, `YYYY-MM-DD`. */
  readonly protocolVersion?: string;
}

/**
 * Receives a call's attributes while the runtime serves it. The deployed entry ties them to the invocation
 * being served; anything else may leave it out.
 */
export interface CallTelemetry {
  annotate(attributes: CallAttributes): void;
}
