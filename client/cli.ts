/**
 * CLI entry: `npm run client -- [options] <command>` (see `USAGE` in cli-args.ts and docs/client.md).
 */
import { runCli } from './cli-run.js';

const code = await runCli(process.argv.slice(2), {
  stdout: (line) => process.stdout.write(`${line}\n`),
  stderr: (line) => process.stderr.write(`${line}\n`),
});
process.exitCode = code;
