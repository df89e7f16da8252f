/**
 * `npm run seed:directory -- --table <name> [--file <directory.json> | --demo] [--endpoint <url>] [--region <r>]`
 *
 * Loads a `bos-directory/v1` JSON file (format: docs/bos.md) into a directory table, validating the
 * whole file first. Without `--endpoint` it talks to the regional DynamoDB with the normal AWS credential
 * chain, so it works against a deployed `BOS_DIRECTORY_TABLE`. `--print-demo` writes the embedded demo
 * directory as JSON to stdout (a starting point for a real file).
 */
import { parseArgs } from 'node:util';
import { DirectoryDocumentError } from '../lambda/bos/index.js';
import { describeError, log } from './log.js';
import { demoDirectoryDocument, loadDirectoryFile, seedDirectory } from './seed-directory-lib.js';

const USAGE =
  'usage: npm run seed:directory -- --table <name> (--file <directory.json> | --demo) [--endpoint <url>] [--region <region>]\n' +
  '       npm run seed:directory -- --print-demo\n';

function usage(message: string): never {
  process.stderr.write(`${message}\n${USAGE}`);
  process.exit(2);
}

let args;
try {
  args = parseArgs({
    options: {
      table: { type: 'string' },
      file: { type: 'string' },
      demo: { type: 'boolean' },
      endpoint: { type: 'string' },
      region: { type: 'string' },
      'print-demo': { type: 'boolean' },
    },
    strict: true,
  }).values;
} catch (error) {
  usage((error as Error).message);
}

if (args['print-demo'] === true) {
  process.stdout.write(`${JSON.stringify(demoDirectoryDocument(), null, 2)}\n`);
  process.exit(0);
}
if (args.table === undefined) usage('--table is required');
if ((args.file === undefined) === (args.demo !== true)) usage('give exactly one of --file and --demo');

try {
  const document = args.file === undefined ? demoDirectoryDocument() : await loadDirectoryFile(args.file);
  const written = await seedDirectory(document, {
    table: args.table,
    ...(args.endpoint === undefined ? {} : { endpoint: args.endpoint }),
    ...(args.region === undefined ? {} : { region: args.region }),
  });
  log('info', 'directory seeded', {
    table: args.table,
    items: written,
    principals: document.principals.length,
    contexts: document.contexts.length,
    sources: document.sources.length,
  });
} catch (error) {
  if (error instanceof DirectoryDocumentError) {
    process.stderr.write(`${error.message}\n`);
    process.exitCode = 2;
  } else {
    log('error', 'seeding failed', { error: describeError(error) });
    process.exitCode = 1;
  }
}
