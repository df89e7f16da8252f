/**
 * CLI entry: `npm run client -- [options] <command>` (see `USAGE` in cli-args.ts and docs/client.md).
 */
import { runCli } from './cli-run.js';

// `npm run client -- … | head` closes stdout early; that is the reader's choice, not a failure.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
  throw error;
});

// Ctrl-C ends the call and tells the server to stop its work (a dropped connection does not on AWS); a
// second Ctrl-C leaves at once.
const interrupt = new AbortController();
process.on('SIGINT', () => {
  if (interrupt.signal.aborted) process.exit(130);
  interrupt.abort();
});

const code = await runCli(process.argv.slice(2), {
  stdout: (line) => process.stdout.write(`${line}\n`),
  stderr: (line) => process.stderr.write(`${line}\n`),
  signal: interrupt.signal,
});
process.exitCode = code;
