/**
 * The cached-source scenario of `npm run bench:bos`: the People context reads one real source, `acme-scim`
 * (the local SCIM server's 300 people, in a process of its own), once with the source cache on (a baseline on
 * `BOS_BASELINE_TABLE` in DynamoDB Local, synced by one `bos.cache.sync` invocation before measuring) and once
 * live, each through its own local stack, one after the other in one sitting. Per counted streaming round: the
 * time from sending the call to reading the first page frame (target for the cached source: under 20 ms median).
 */
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { cacheSyncEvent } from '../../lambda/aws/index.js';
import {
  DEMO_DIRECTORY_DOCUMENT,
  DEMO_PEOPLE_CONTEXT_HANDLE,
  DEMO_SCIM_CREDENTIAL_REF,
  demoDirectoryWithProviders,
} from '../../lambda/bos/index.js';
import type { DirectoryDocument } from '../../lambda/bos/index.js';
import { baselineTable } from '../../lib/table-schemas.js';
import { createTables } from '../../local/dynamodb-local.js';
import { startStack } from '../../local/stack.js';
import { warmDynamoDbLocal } from './dynamodb-warmup.js';
import type { RoundsOptions, RoundTimings } from './first-page-client.js';

/** The cached and the live reads of the same source. */
export interface CachedRounds {
  readonly cached: RoundTimings;
  readonly live: RoundTimings;
  /** The sync's log line for the source (`result`, `written`), to show the baseline was there. */
  readonly sync: string;
}

const TABLE_PREFIX = 'bench-';

/** The demo directory with the People context reading only `acme-scim` at `baseUrl`, cached or not. */
function scimDirectory(baseUrl: string, cached: boolean): DirectoryDocument {
  const withoutFixtures: DirectoryDocument = {
    ...DEMO_DIRECTORY_DOCUMENT,
    contexts: DEMO_DIRECTORY_DOCUMENT.contexts.map((context) =>
      context.context_handle === DEMO_PEOPLE_CONTEXT_HANDLE ? { ...context, source_ids: [] } : context,
    ),
  };
  const document = demoDirectoryWithProviders({ scim: { baseUrl } }, withoutFixtures);
  return {
    ...document,
    sources: document.sources.map(({ cache: _demoCache, ...source }) =>
      source.source_id === 'acme-scim' && cached
        ? { ...source, cache: { enabled: true, refresh: 'PT15M', max_staleness: 'PT1H' } }
        : source,
    ),
  };
}

async function rounds(
  baseUrl: string,
  token: string,
  cached: boolean,
  options: {
    rounds: number;
    warmup: number;
    dynamoDbWarmupMs: number;
    clientRounds: (options: RoundsOptions) => Promise<RoundTimings>;
  },
  onSynced: (line: string) => void = () => undefined,
): Promise<RoundTimings> {
  const baselines = `${TABLE_PREFIX}${baselineTable.id}`;
  const stack = await startStack({
    bundleDir: `.local/bench/bos-streaming`,
    poolSize: 1,
    completionInvocations: false,
    directory: scimDirectory(baseUrl, cached),
    env: {
      [`BOS_SECRET_${DEMO_SCIM_CREDENTIAL_REF}`]: token,
      ...(cached ? { BOS_BASELINE_TABLE: baselines } : {}),
    },
    onFunctionLog: ({ line }) => {
      if (line.includes('bos.cache.synced')) onSynced(line);
    },
  });
  try {
    if (cached && stack.dynamoDbEndpoint !== undefined) {
      await createTables(stack.dynamoDbEndpoint, [baselineTable], TABLE_PREFIX);
      const sync = await stack.pool.invoke(cacheSyncEvent(['acme-scim']));
      for await (const chunk of sync.body) void chunk;
    }
    const table = stack.environment['BOS_DIRECTORY_TABLE'];
    if (options.dynamoDbWarmupMs > 0 && stack.dynamoDbEndpoint !== undefined && table !== undefined)
      await warmDynamoDbLocal(stack.dynamoDbEndpoint, table, { durationMs: options.dynamoDbWarmupMs });
    return await options.clientRounds({
      url: stack.url,
      token: stack.devTokens?.['dev-user'] ?? '',
      rounds: options.rounds,
      warmup: options.warmup,
    });
  } finally {
    await stack.close();
  }
}

/** Runs the cached and then the live rounds against one SCIM server. */
export async function measureCachedRounds(options: {
  rounds: number;
  warmup: number;
  dynamoDbWarmupMs: number;
  clientRounds: (options: RoundsOptions) => Promise<RoundTimings>;
}): Promise<CachedRounds> {
  const server = spawn(process.execPath, ['--import', 'tsx', 'local/providers/scim/serve.ts', '300'], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const announced = new Promise<string>((resolve, reject) => {
    const lines = createInterface({ input: server.stdout });
    lines.once('line', resolve);
    server.once('exit', (code) => reject(new Error(`the SCIM server exited with code ${code}`)));
  });
  try {
    const { baseUrl, token } = JSON.parse(await announced) as { baseUrl: string; token: string };
    let sync = 'no sync log line';
    const cached = await rounds(baseUrl, token, true, options, (line) => {
      const { result, written } = JSON.parse(line) as { result?: string; written?: number };
      sync = `${result ?? '?'}, ${written ?? '?'} written`;
    });
    const live = await rounds(baseUrl, token, false, options);
    return { cached, live, sync };
  } finally {
    server.kill('SIGTERM');
  }
}
