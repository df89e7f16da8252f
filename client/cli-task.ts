/**
 * `--task`: runs a tool call as an MCP 2025-11-25 task (docs/tasks.md). The call returns a task handle at
 * once; the CLI polls `tasks/get`, printing each new status message (for BOS reads, per-source progress),
 * then fetches the outcome with `tasks/result`.
 */
import type { CliIo } from './cli-output.js';
import type { McpHttpClient } from './mcp-http.js';

const TERMINAL = new Set(['completed', 'failed', 'cancelled']);

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Creates the task, polls it to the end and prints the result. Exit codes as without `--task`. */
export async function callAsTask(
  client: McpHttpClient,
  name: string,
  toolArgs: Record<string, unknown>,
  json: boolean,
  io: CliIo,
  sleep: (ms: number) => Promise<void> = (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
): Promise<number> {
  const created = await client.request('tools/call', { name, arguments: toolArgs, task: {} });
  const task = isRecord(created.task) ? created.task : undefined;
  const taskId = typeof task?.taskId === 'string' ? task.taskId : undefined;
  if (task === undefined || taskId === undefined) {
    io.stderr('the server answered without creating a task');
    return 2;
  }
  const print = (event: Record<string, unknown>, text: string): void =>
    io.stdout(json ? JSON.stringify(event) : text);
  print({ event: 'task', taskId, status: task.status }, `task ${taskId}: ${String(task.status)}`);
  let last = '';
  let current: Record<string, unknown> = task;
  while (!TERMINAL.has(String(current.status))) {
    await sleep(typeof current.pollInterval === 'number' ? Math.min(current.pollInterval, 2000) : 1000);
    current = await client.request('tasks/get', { taskId });
    const line = `${String(current.status)}${typeof current.statusMessage === 'string' ? `: ${current.statusMessage}` : ''}`;
    if (line !== last) {
      print({ event: 'task_status', status: current.status, statusMessage: current.statusMessage }, line);
      last = line;
    }
  }
  if (current.status === 'cancelled') return 4;
  try {
    const result = await client.request('tasks/result', { taskId });
    print({ event: 'result', result }, JSON.stringify(result.structuredContent ?? result.content, null, 2));
    return result.isError === true ? 1 : 0;
  } catch (error) {
    io.stderr(`task failed: ${error instanceof Error ? error.message : String(error)}`);
    return 2;
  }
}
