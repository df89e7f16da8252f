/**
 * `npm start`: the whole platform on this machine — DynamoDB Local, the bundled Lambda under AWS's runtime
 * client, and the REST v1 streaming front on `127.0.0.1:${PORT:-3000}`. Prints exactly one `ready: <url>`
 * line on stdout once it serves; Ctrl-C (or SIGTERM) stops every child process.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { DEFAULT_URL } from '../client/cli-args.js';
import { DEMO_PEOPLE_CONTEXT_HANDLE } from '../lambda/bos/index.js';
import { FrontEnvError, frontOptionsFromEnv } from './front-env.js';
import { describeError, log } from './log.js';
import {
  describeDirectory,
  loadOwnDirectory,
  parseStartArgs,
  START_USAGE,
  StartOptionsError,
  type OwnDirectory,
} from './own-directory.js';
import { LOCAL_DIR, REPO_ROOT } from './paths.js';
import { startStack, type LocalStack } from './stack.js';

let own: OwnDirectory | undefined;
let directoryFile: string | undefined;
try {
  const args = parseStartArgs(process.argv.slice(2));
  if (args.help) {
    process.stdout.write(`${START_USAGE}\n`);
    process.exit(0);
  }
  if (args.directory !== undefined) {
    directoryFile = args.directory;
    own = await loadOwnDirectory({ ...args, directory: args.directory });
  }
} catch (error) {
  if (!(error instanceof StartOptionsError)) throw error;
  process.stderr.write(`${error.problems.join('\n')}\n\n${START_USAGE}\n`);
  process.exit(2);
}

const port = Number(process.env['PORT'] ?? 3000);
if (!Number.isInteger(port) || port < 0 || port > 65_535) {
  log('error', 'PORT must be a TCP port number', { port: process.env['PORT'] });
  process.exit(2);
}

/** How to call the directory with the dev tokens (README "Try it"); after the single `ready:` line. */
function tryHint(url: string, handle: string): string {
  const target = url === DEFAULT_URL ? '' : ` --url ${url}`;
  return [
    'try (tokens for dev-user and outsider are in .local/dev-tokens.json):',
    `  npm run client --${target} --token-file .local/dev-tokens.json --user dev-user contexts`,
    `  npm run client --${target} --token-file .local/dev-tokens.json --user dev-user \\`,
    `    execute ${handle} search_people '{"query":"a"}' --stream`,
    '',
  ].join('\n');
}

/** Every local endpoint a user may want: the MCP endpoint, DynamoDB Local, the issuer, the local providers. */
function endpoints(stack: LocalStack): string {
  const env = stack.environment;
  const lines = ['endpoints:', `  MCP endpoint        ${stack.url}`];
  if (stack.dynamoDbEndpoint !== undefined)
    lines.push(
      `  DynamoDB Local      ${stack.dynamoDbEndpoint}  (directory table ${env['BOS_DIRECTORY_TABLE'] ?? '?'})`,
    );
  if (env['AUTH_ISSUER'] !== undefined) lines.push(`  OAuth issuer        ${env['AUTH_ISSUER']}`);
  for (const [name, value] of Object.entries(stack.providerEndpoints ?? {}))
    lines.push(`  ${name.padEnd(19)} ${value}`);
  return `${lines.join('\n')}\n`;
}

// LOCAL_CONCURRENCY: the local function's concurrency (docs/local-stack.md "Execution environments").
const concurrency =
  process.env['LOCAL_CONCURRENCY'] === undefined ? undefined : Number(process.env['LOCAL_CONCURRENCY']);
if (concurrency !== undefined && (!Number.isInteger(concurrency) || concurrency < 1 || concurrency > 1000)) {
  log('error', 'LOCAL_CONCURRENCY must be a whole number from 1 to 1000', {
    value: process.env['LOCAL_CONCURRENCY'],
  });
  process.exit(2);
}

let frontOptions: ReturnType<typeof frontOptionsFromEnv> = {};
try {
  frontOptions = frontOptionsFromEnv(process.env);
} catch (error) {
  if (!(error instanceof FrontEnvError)) throw error;
  log('error', error.message);
  process.exit(2);
}

try {
  const stack = await startStack({
    port,
    ...(own === undefined
      ? { providers: true, activeDirectory: true }
      : { directory: own.document, env: own.environment }),
    cacheSync: true,
    ...frontOptions,
    ...(concurrency !== undefined && { concurrency }),
  });
  if (stack.devTokens !== undefined) {
    // Tokens go to a 0600 file, never to stdout: logs get copied around, bearer tokens must not be.
    await mkdir(LOCAL_DIR, { recursive: true });
    const tokensFile = join(LOCAL_DIR, 'dev-tokens.json');
    await writeFile(tokensFile, `${JSON.stringify(stack.devTokens, null, 2)}\n`, { mode: 0o600 });
    log('info', 'dev bearer tokens written', { file: relative(REPO_ROOT, tokensFile) });
  }
  let stopping = false;
  const stop = (signal: NodeJS.Signals): void => {
    if (stopping) return;
    stopping = true;
    log('info', 'stopping local stack', { signal });
    stack.close().then(
      () => process.exit(0),
      (error: unknown) => {
        log('error', 'local stack did not stop cleanly', { error: describeError(error) });
        process.exit(1);
      },
    );
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  process.stdout.write(`ready: ${stack.url}\n`);
  process.stdout.write(`console: ${stack.consoleUrl}\n`);
  process.stdout.write(endpoints(stack));
  if (own !== undefined && directoryFile !== undefined)
    process.stdout.write(`${describeDirectory(directoryFile, own.document).join('\n')}\n`);
  const handle = own === undefined ? DEMO_PEOPLE_CONTEXT_HANDLE : own.document.contexts[0]?.context_handle;
  if (stack.devTokens !== undefined && handle !== undefined) process.stdout.write(tryHint(stack.url, handle));
} catch (error) {
  log('error', 'local stack failed to start', { error: describeError(error) });
  process.exitCode = 1;
}
