/**
 * The MCP logging levels of `notifications/message`, which the tool emitters filter by; `logging/setLevel`
 * and the stateless `_meta` log level are validated against the same list.
 */
import type { LoggingLevel } from '../types/index.js';

/** Levels of `logging/setLevel`, least severe first (RFC 5424 order, as MCP logging uses). */
export const loggingLevels: readonly LoggingLevel[] = [
  'debug',
  'info',
  'notice',
  'warning',
  'error',
  'critical',
  'alert',
  'emergency',
];
