/**
 * The MCP logging levels, in their own module so that request validation (`stateless/validate.ts`) and the
 * tool emitters can read them without importing the method dispatcher.
 */
import type { LoggingLevel } from '../types.js';

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
