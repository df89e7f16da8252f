/**
 * `TaskLauncher` on Lambda: each task round runs in its own invocation, started by an asynchronous invoke
 * (`InvocationType: 'Event'`) of this same function with a {@link TaskWorkerEvent}. Lambda answers 202 as
 * soon as the event is queued, so the creating request is answered at once and the round gets a whole
 * invocation (up to the function timeout) of its own. The function's role may invoke only itself (CDK,
 * `lib/constructs/platform-function.ts`).
 *
 * The client library is imported on the first launch: an environment that never starts a task never
 * evaluates it, and no cold start pays for it.
 */
import type { LambdaClient } from '@aws-sdk/client-lambda';
import type { TaskLauncher, TaskRef } from '../../mcp/index.js';
import { SdkWarningLogger } from '../telemetry/sdk-logger.js';
import { taskWorkerEvent } from './task-worker-event.js';

const loadSdk = () => import('@aws-sdk/client-lambda');

/** Options of {@link LambdaTaskLauncher}. */
export interface LambdaTaskLauncherOptions {
  /** The function to invoke: this one (`AWS_LAMBDA_FUNCTION_NAME`). */
  functionName: string;
  /** Endpoint override (`AWS_ENDPOINT_URL_LAMBDA`: the local stack's Invoke API). @default regional */
  endpoint?: string;
  /** @default `AWS_REGION` via the SDK */
  region?: string;
  /** @default a client with 2 attempts and 1 s / 3 s connect / request timeouts */
  client?: LambdaClient;
}

/** The invoke was refused or failed; the message names the status only, never the service's text. */
export class TaskLaunchError extends Error {
  override readonly name = 'TaskLaunchError';
}

/** Starts task rounds as asynchronous invocations of `functionName`. */
export class LambdaTaskLauncher implements TaskLauncher {
  readonly #options: LambdaTaskLauncherOptions;
  #client: Promise<LambdaClient> | undefined;

  constructor(options: LambdaTaskLauncherOptions) {
    this.#options = options;
    if (options.client !== undefined) this.#client = Promise.resolve(options.client);
  }

  /** Resolves once Lambda has queued the worker invocation (HTTP 202); rejects with `TaskLaunchError`. */
  async launch(ref: TaskRef): Promise<void> {
    const [client, { InvokeCommand }] = await Promise.all([this.#lambda(), loadSdk()]);
    let status: number | undefined;
    try {
      const answer = await client.send(
        new InvokeCommand({
          FunctionName: this.#options.functionName,
          InvocationType: 'Event',
          Payload: Buffer.from(JSON.stringify(taskWorkerEvent(ref)), 'utf8'),
        }),
      );
      status = answer.StatusCode;
    } catch (error) {
      throw new TaskLaunchError('worker invoke failed', { cause: error });
    }
    if (status !== 202) throw new TaskLaunchError(`worker invoke answered ${String(status)}, not 202`);
  }

  #lambda(): Promise<LambdaClient> {
    this.#client ??= loadSdk().then(({ LambdaClient: Client }) => {
      const { endpoint, region } = this.#options;
      return new Client({
        ...(endpoint === undefined ? {} : { endpoint }),
        ...(region === undefined ? {} : { region }),
        maxAttempts: 2,
        logger: new SdkWarningLogger(),
        requestHandler: { connectionTimeout: 1000, requestTimeout: 3000, throwOnRequestTimeout: true },
      });
    });
    return this.#client;
  }
}
