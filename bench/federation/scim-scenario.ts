/**
 * The SCIM scenario of `npm run bench:bos`: the People context reads one real source, `acme-scim`, defined
 * as `npm start` defines it, from the local SCIM server (scimmy on express 4, the demo's 300 people) run in
 * a process of its own so that it neither slows nor is slowed by the local front and Runtime API. Per
 * counted streaming round: how long after the SCIM server finished answering the round's first `/Users`
 * page the client could read the first `acme-scim` page frame, through the function, the Runtime API and
 * the REST front. Both moments are epoch ms with sub-millisecond precision from two processes of this
 * machine (the server prints its own, `local/providers/scim/serve.ts`).
 */
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import {
  DEMO_DIRECTORY_DOCUMENT,
  DEMO_PEOPLE_CONTEXT_HANDLE,
  DEMO_SCIM_CREDENTIAL_REF,
  demoDirectoryWithProviders,
} from '../../lambda/bos/index.js';
import type { DirectoryDocument } from '../../lambda/bos/index.js';
import { startStack } from '../../local/stack.js';
import { warmDynamoDbLocal } from './dynamodb-warmup.js';
import type { WarmupSummary } from './dynamodb-warmup.js';
import type { RoundsOptions, RoundTimings } from './first-page-client.js';

/** What the SCIM scenario measured (per counted round). */
export interface ScimRounds {
  readonly timings: RoundTimings;
  /** Client's first page frame − the server's first `/Users` answer of the same round (ms). */
  readonly afterServerMs: number[];
  readonly warmup: WarmupSummary;
}

/** The demo directory with the People context reading `acme-scim` at `baseUrl` and nothing else. */
function scimOnlyDirectory(baseUrl: string): DirectoryDocument {
  const withoutFixtures: DirectoryDocument = {
    ...DEMO_DIRECTORY_DOCUMENT,
    contexts: DEMO_DIRECTORY_DOCUMENT.contexts.map((context) =>
      context.context_handle === DEMO_PEOPLE_CONTEXT_HANDLE ? { ...context, source_ids: [] } : context,
    ),
  };
  return demoDirectoryWithProviders({ scim: { baseUrl } }, withoutFixtures);
}

/** Runs the SCIM scenario's rounds with `clientRounds` (the benchmark's client, in its own process). */
export async function measureScimRounds(options: {
  rounds: number;
  warmup: number;
  dynamoDbWarmupMs: number;
  clientRounds: (options: RoundsOptions) => Promise<RoundTimings>;
}): Promise<ScimRounds> {
  const server = spawn(process.execPath, ['--import', 'tsx', 'local/providers/scim/serve.ts', '300'], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const firstPages: number[] = [];
  let announce: ((line: string) => void) | undefined;
  const announced = new Promise<string>((resolve, reject) => {
    announce = resolve;
    server.once('exit', (code) => reject(new Error(`the SCIM server exited with code ${code}`)));
  });
  createInterface({ input: server.stdout }).on('line', (line) => {
    if (announce !== undefined) {
      announce(line);
      announce = undefined;
      return;
    }
    const answer = JSON.parse(line) as { answeredAt: number; firstPage: boolean };
    if (answer.firstPage) firstPages.push(answer.answeredAt);
  });
  try {
    const { baseUrl, token } = JSON.parse(await announced) as { baseUrl: string; token: string };
    const stack = await startStack({
      bundleDir: `.local/bench/bos-streaming`,
      poolSize: 1,
      directory: scimOnlyDirectory(baseUrl),
      env: { [`BOS_SECRET_${DEMO_SCIM_CREDENTIAL_REF}`]: token },
      onFunctionLog: () => undefined,
    });
    try {
      const table = stack.environment['BOS_DIRECTORY_TABLE'];
      const warmup =
        options.dynamoDbWarmupMs > 0 && stack.dynamoDbEndpoint !== undefined && table !== undefined
          ? await warmDynamoDbLocal(stack.dynamoDbEndpoint, table, { durationMs: options.dynamoDbWarmupMs })
          : { reads: 0, lastMedianMs: NaN };
      const timings = await options.clientRounds({
        url: stack.url,
        token: stack.devTokens?.['dev-user'] ?? '',
        rounds: options.rounds,
        warmup: options.warmup,
      });
      // The server prints each answer a moment after writing it.
      await new Promise((resolve) => setTimeout(resolve, 100));
      // Every call reads the list once from its first page, in order: streaming, then JSON, per round.
      const calls = 2 * (options.warmup + options.rounds);
      if (firstPages.length !== calls)
        throw new Error(`the SCIM server answered ${firstPages.length} first pages for ${calls} calls`);
      const afterServerMs = timings.streamingAt.map(
        (at, k) => at - (firstPages[2 * (options.warmup + k)] ?? NaN),
      );
      return { timings, afterServerMs, warmup };
    } finally {
      await stack.close();
    }
  } finally {
    server.kill('SIGTERM');
  }
}
