/**
 * The one table of MCP methods both protocol shapes read (mcp-method-surface "Transport + endpoint",
 * "2026-07-28 result types and multi-round input"): for each method, the shapes that serve it, whether it is
 * served now (its capability or hooks), the body field that names its target, whether its handler may
 * answer `input_required`, its cacheable surface, and its handler. Adding a method is one entry here (and
 * its handler and tests); the shapes keep only what differs between them.
 */
import type { CacheSurface, Runtime } from '../runtime.js';
import type { JsonObject, ProtocolShape } from '../types/index.js';
import { complete, discover, getPrompt, list, readResource, setLogLevel, subscription } from './handlers.js';
import type { MethodCall } from './scope.js';

/** One MCP request method. */
export interface MethodSpec {
  readonly method: string;
  /** The shapes that serve it; in any other it is -32601 (HTTP 404 in the stateless shape). */
  readonly shapes: readonly ProtocolShape[];
  /** Whether the server serves it now (its capability enabled, its hooks configured). @default always */
  readonly enabled?: (rt: Runtime) => boolean;
  /**
   * The body field naming the method's target: required, a non-empty string, and mirrored by `Mcp-Name`
   * in the stateless shape.
   */
  readonly nameParam?: 'name' | 'uri';
  /** The body field a `requestState` is bound to besides the target (the multi-round request digest). */
  readonly argumentsParam?: 'arguments';
  /** Whether the handler may answer `input_required` (stateless multi-round input, mcp-2026-notes §1.6). */
  readonly inputRequired?: boolean;
  /** The cacheable surface of its complete result (mcp-2026-notes §1.7). */
  readonly cacheSurface?: CacheSurface;
  /** A method of the tasks surface, answered by each shape's task code (the surfaces differ by version). */
  readonly task?: boolean;
  /** Served before a session exists in the session-ful shape. */
  readonly sessionless?: boolean;
  /**
   * The handler. Absent where each shape answers the method its own way: `initialize` creates a session,
   * `tools/call` may stream, and the task methods differ by protocol version (`sessionful/tasks.ts`,
   * `stateless/tasks.ts`).
   */
  readonly handle?: (call: MethodCall) => JsonObject | Promise<JsonObject>;
}

const both: readonly ProtocolShape[] = ['sessionful', 'stateless'];
const sessionful: readonly ProtocolShape[] = ['sessionful'];
const stateless: readonly ProtocolShape[] = ['stateless'];

const tools = (rt: Runtime): boolean => rt.options.capabilities.tools !== false;
const resources = (rt: Runtime): boolean => rt.options.capabilities.resources !== false;
const prompts = (rt: Runtime): boolean => rt.options.capabilities.prompts !== false;
const hasTasks = (rt: Runtime): boolean => rt.tasks !== undefined;

const specs: readonly MethodSpec[] = [
  { method: 'initialize', shapes: sessionful, sessionless: true },
  { method: 'ping', shapes: sessionful, handle: () => ({}) },
  {
    method: 'server/discover',
    shapes: both,
    sessionless: true,
    cacheSurface: 'serverDiscover',
    handle: discover,
  },
  {
    method: 'tools/list',
    shapes: both,
    enabled: tools,
    cacheSurface: 'toolsList',
    handle: (call) => list(call, call.rt.tools.definitions(), 'tools'),
  },
  {
    method: 'tools/call',
    shapes: both,
    enabled: tools,
    nameParam: 'name',
    argumentsParam: 'arguments',
    inputRequired: true,
  },
  {
    method: 'resources/list',
    shapes: both,
    enabled: resources,
    cacheSurface: 'resourcesList',
    handle: (call) => list(call, call.rt.resources.definitions(), 'resources'),
  },
  {
    method: 'resources/templates/list',
    shapes: both,
    enabled: resources,
    cacheSurface: 'resourceTemplatesList',
    handle: (call) => list(call, call.rt.resources.templates(), 'resourceTemplates'),
  },
  {
    method: 'resources/read',
    shapes: both,
    enabled: resources,
    nameParam: 'uri',
    inputRequired: true,
    cacheSurface: 'resourcesRead',
    handle: readResource,
  },
  {
    method: 'resources/subscribe',
    shapes: sessionful,
    enabled: (rt) => subscriptionsServed(rt),
    nameParam: 'uri',
    handle: (call) => subscription(call, true),
  },
  {
    method: 'resources/unsubscribe',
    shapes: sessionful,
    enabled: (rt) => subscriptionsServed(rt),
    nameParam: 'uri',
    handle: (call) => subscription(call, false),
  },
  {
    method: 'prompts/list',
    shapes: both,
    enabled: prompts,
    cacheSurface: 'promptsList',
    handle: (call) => list(call, call.rt.prompts.definitions(), 'prompts'),
  },
  {
    method: 'prompts/get',
    shapes: both,
    enabled: prompts,
    nameParam: 'name',
    argumentsParam: 'arguments',
    inputRequired: true,
    handle: getPrompt,
  },
  {
    method: 'completion/complete',
    shapes: both,
    enabled: (rt) => {
      const hooks = rt.options.completion;
      return (
        rt.options.capabilities.completions !== false &&
        (hooks?.prompt !== undefined || hooks?.resource !== undefined)
      );
    },
    handle: complete,
  },
  {
    method: 'logging/setLevel',
    shapes: sessionful,
    enabled: (rt) => rt.loggingEnabled(),
    handle: setLogLevel,
  },
  { method: 'tasks/get', shapes: both, enabled: hasTasks, task: true },
  { method: 'tasks/result', shapes: sessionful, enabled: hasTasks, task: true },
  { method: 'tasks/list', shapes: sessionful, enabled: hasTasks, task: true },
  { method: 'tasks/cancel', shapes: both, enabled: hasTasks, task: true },
  { method: 'tasks/update', shapes: stateless, enabled: hasTasks, task: true },
];

function subscriptionsServed(rt: Runtime): boolean {
  const hooks = rt.options.resourceSubscriptionHooks;
  return hooks?.subscribe !== undefined && hooks.unsubscribe !== undefined;
}

/**
 * The table by method. A `Map`, because the method comes from the request: on a plain object `constructor`
 * or `toString` would find an `Object.prototype` member.
 */
export const methods: ReadonlyMap<string, MethodSpec> = new Map(specs.map((spec) => [spec.method, spec]));

/** Notifications a client sends that this runtime knows (both shapes accept them; only session-ful acts). */
export const clientNotifications: ReadonlySet<string> = new Set([
  'notifications/initialized',
  'notifications/cancelled',
]);

/** The method's entry when `shape` serves it and the server has it enabled now. */
export function servedMethod(rt: Runtime, method: string, shape: ProtocolShape): MethodSpec | undefined {
  const spec = methods.get(method);
  if (spec === undefined || !spec.shapes.includes(shape)) return undefined;
  return spec.enabled === undefined || spec.enabled(rt) ? spec : undefined;
}
