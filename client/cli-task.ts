/**
 * `--task`: runs a tool call as an MCP 2025-11-25 task (docs/tasks.md). The call returns a task handle at
 * once; the CLI polls `tasks/get`, printing each new status message (for BOS reads, per-source progress),
 * then reads the outcome with `tasks/result` and closes with the same `final:` summary and exit code as the
 * call without `--task`.
 */
import { CLI_EXIT_CODES, exitCodeOf, printOutcome, type CliIo } from './cli-output.js';
import type { McpHttpClient } from './mcp-http.js';

const TERMINAL = new Set(['completed', 'failed', 'cancelled']);

/** How the task's outcome is printed. */
export interface TaskPrintOptions {
  /** JSON lines instead of text. */
  json: boolean;
  /** Print the result body too (`--result`), not only the summary. */
  withResult: boolean;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Creates the task, polls it to the end and prints its outcome. Exit codes as without `--task`. */
export async function callAsTask(
  client: McpHttpClient,
  name: string,
  toolArgs: Record<string, unknown>,
  options: TaskPrintOptions,
  io: CliIo,
  sleep: (ms: number) => Promise<void> = (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
): Promise<number> {
  const created = await client.request('tools/call', { name, arguments: toolArgs, task: {} });
  const task = isRecord(created.task) ? created.task : undefined;
  const taskId = typeof task?.taskId === 'string' ? task.taskId : undefined;
  if (task === undefined || taskId === undefined) {
    io.stderr('the server answered without creating a task');
    return CLI_EXIT_CODES.protocolError.code;
  }
  const print = (event: Record<string, unknown>, text: string): void =>
    io.stdout(options.json ? JSON.stringify(event) : text);
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
  if (current.status === 'cancelled') {
    // A cancelled task has no result to confirm: the same answer as a call whose final response never came.
    print(
      { event: 'final', confirmed: false, reason: 'task cancelled' },
      'final: NO CONFIRMED RESULT (task cancelled)',
    );
    return CLI_EXIT_CODES.noConfirmedResult.code;
  }
  // `tasks/result` answers with the tool's own result (or its JSON-RPC error), read as a call's final response.
  const outcome = await client.requestOutcome('tasks/result', { taskId });
  printOutcome(io, options.json, outcome, options.withResult);
  return exitCodeOf(outcome);
}
