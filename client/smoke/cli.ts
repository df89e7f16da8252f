/**
 * `npm run smoke -- --url https://…/mcp/apps/bos/platform --token-file token.txt`: runs the post-deploy
 * smoke checks (`checks.ts`) against any endpoint and prints a table. Exit code 0 when every check passed,
 * 1 when one failed, 2 for a bad command line or an unreadable token file.
 */
import { readFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { DEFAULT_DEV_USER, readDevToken } from '../dev-tokens.js';
import { runSmokeChecks } from './checks.js';
import { formatJson, formatTable } from './table.js';

const USAGE = `usage: npm run smoke -- --url URL --token-file FILE [--user NAME] [--query TEXT]
                     [--foreign-context HANDLE] [--stateless] [--timeout-ms N] [--json]

--token-file  a file holding the bearer token, or a JSON map of user -> token (npm start's
              .local/dev-tokens.json; --user picks the entry, default ${DEFAULT_DEV_USER})
--query       the search_people query of the two federated reads (default "a")
--foreign-context
              a context handle the token's principal is not granted (default: a random unknown handle,
              which the platform refuses exactly like a foreign one)
exit codes: 0 every check passed, 1 a check failed, 2 usage or token file error`;

/** A token file holds the raw token, or npm start's JSON map of user -> token. */
async function readToken(path: string, user: string): Promise<string> {
  const text = (await readFile(path, 'utf8')).trim();
  if (text.startsWith('{')) return readDevToken(path, user);
  if (text === '' || /\s/.test(text)) throw new Error(`token file ${path} does not hold one token`);
  return text;
}

async function main(argv: string[]): Promise<number> {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        url: { type: 'string' },
        'token-file': { type: 'string' },
        user: { type: 'string', default: DEFAULT_DEV_USER },
        query: { type: 'string', default: 'a' },
        'foreign-context': { type: 'string' },
        stateless: { type: 'boolean', default: false },
        'timeout-ms': { type: 'string', default: '60000' },
        json: { type: 'boolean', default: false },
        help: { type: 'boolean', default: false },
      },
    }));
  } catch (error) {
    process.stderr.write(`${error instanceof Error ? error.message : 'bad arguments'}\n${USAGE}\n`);
    return 2;
  }
  const timeoutMs = Number(values['timeout-ms']);
  const url = values.url;
  const tokenFile = values['token-file'];
  if (values.help || url === undefined || tokenFile === undefined || !(timeoutMs > 0)) {
    process.stderr.write(`${USAGE}\n`);
    return values.help ? 0 : 2;
  }
  try {
    if (!/^https?:$/.test(new URL(url).protocol)) throw new Error('not http(s)');
  } catch {
    process.stderr.write(`--url must be an http(s) URL\n`);
    return 2;
  }
  let token: string;
  try {
    token = await readToken(tokenFile, values.user);
  } catch (error) {
    process.stderr.write(`${error instanceof Error ? error.message : 'cannot read the token file'}\n`);
    return 2;
  }
  const results = await runSmokeChecks({
    url,
    token,
    searchArguments: { query: values.query },
    protocol: values.stateless ? 'stateless' : 'sessionful',
    timeoutMs,
    ...(values['foreign-context'] !== undefined && { foreignContext: values['foreign-context'] }),
  });
  process.stdout.write(`${values.json ? formatJson(results) : formatTable(results)}\n`);
  return results.every((r) => r.ok) ? 0 : 1;
}

process.exitCode = await main(process.argv.slice(2));
