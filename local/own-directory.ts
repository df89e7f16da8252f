/**
 * `npm start -- --directory <file> [--secrets <file>]`: your own `bos-directory/v1` document in place of the
 * demo, with the sources' credentials from a local, git-ignored JSON file. Everything is validated before
 * the stack starts, and each problem names the field at fault (docs/sources.md "From a laptop").
 */
import { execFileSync } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { isAbsolute, relative, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { DirectoryDocumentError, type DirectoryDocument } from '../lambda/bos/index.js';
import { buildSource, createSourceFactories, SourceConfigError } from '../lambda/sources/index.js';
import { REPO_ROOT } from './paths.js';
import { loadDirectoryFile } from './seed-directory-lib.js';

/** `npm start`'s options. */
export interface StartArgs {
  /** A `bos-directory/v1` file seeded in place of the demo directory. */
  directory?: string;
  /** A JSON object mapping each `credential_ref` of the directory to its value. */
  secrets?: string;
  help: boolean;
}

export const START_USAGE = `usage: npm start [-- --directory <directory.json> [--secrets <secrets.json>]]

  --directory  seed this bos-directory/v1 file (format: docs/bos.md) instead of the demo directory
  --secrets    a JSON object {"<CREDENTIAL_REF>": "<value>", …} with the credential of every source that
               names one; keep it git-ignored (e.g. .local/secrets.json)`;

/** A command line, directory or secrets file `npm start` cannot use; the message names the option or field. */
export class StartOptionsError extends Error {
  override readonly name = 'StartOptionsError';
  readonly problems: readonly string[];

  constructor(problems: readonly string[], options?: { cause?: unknown }) {
    super(problems.join('\n'), options);
    this.problems = problems;
  }
}

/** Parses `npm start`'s argv (without `node` and the script). */
export function parseStartArgs(argv: readonly string[]): StartArgs {
  let values;
  try {
    values = parseArgs({
      args: [...argv],
      options: { directory: { type: 'string' }, secrets: { type: 'string' }, help: { type: 'boolean' } },
      strict: true,
      allowPositionals: false,
    }).values;
  } catch (error) {
    throw new StartOptionsError([(error as Error).message], { cause: error });
  }
  if (values.secrets !== undefined && values.directory === undefined)
    throw new StartOptionsError(['--secrets needs --directory (the demo directory brings its own secrets)']);
  return {
    help: values.help === true,
    ...(values.directory !== undefined && { directory: values.directory }),
    ...(values.secrets !== undefined && { secrets: values.secrets }),
  };
}

// Options are checked, not used: no adapter reads anything while it is built, and no credential is resolved.
const validating = { allowLoopbackHttp: true };
const factories = createSourceFactories(validating);

/** Each source's options as its adapter validates them when the function loads the directory. */
export function sourceProblems(document: DirectoryDocument): string[] {
  return document.sources.flatMap(({ source_id, adapter, options, credential_ref }, i) => {
    const credential =
      credential_ref === undefined
        ? {}
        : { credential: { name: credential_ref, value: () => Promise.reject(new Error('not resolved')) } };
    try {
      buildSource({ source_id, adapter, options, ...credential }, factories);
      return [];
    } catch (error) {
      if (!(error instanceof SourceConfigError)) throw error;
      return error.problems.map((problem) => `sources[${i}] (${source_id}): ${problem}`);
    }
  });
}

/**
 * The function environment carrying each credential (`BOS_SECRET_<NAME>`, what the local credential
 * resolver reads). Every `credential_ref` of the directory needs a non-empty string value.
 */
export function secretsEnvironment(
  value: unknown,
  file: string,
  document: DirectoryDocument,
): Record<string, string> {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new StartOptionsError([`${file} must be a JSON object of credential names and values`]);
  const secrets = value as Record<string, unknown>;
  const problems: string[] = [];
  for (const [name, secret] of Object.entries(secrets))
    if (typeof secret !== 'string' || secret === '')
      problems.push(`${file}: "${name}" must be a non-empty string`);
  document.sources.forEach(({ source_id, credential_ref }, i) => {
    if (credential_ref !== undefined && !Object.hasOwn(secrets, credential_ref))
      problems.push(
        `sources[${i}] (${source_id}).credential_ref "${credential_ref}" has no value in ${file}`,
      );
  });
  if (problems.length > 0) throw new StartOptionsError(problems);
  const environment: Record<string, string> = {};
  for (const { credential_ref } of document.sources)
    if (credential_ref !== undefined)
      environment[`BOS_SECRET_${credential_ref}`] = String(secrets[credential_ref]);
  return environment;
}

/** Refuses a secrets file git would commit: one inside the repository that is not ignored. */
function checkIgnored(file: string): void {
  const inRepo = relative(REPO_ROOT, resolve(file));
  if (inRepo.startsWith('..') || isAbsolute(inRepo)) return;
  try {
    execFileSync('git', ['check-ignore', '--quiet', inRepo], { cwd: REPO_ROOT, stdio: 'ignore' });
  } catch (error) {
    // Exit status 1: not ignored. Anything else (no git, not a checkout): nothing to protect.
    if ((error as { status?: number }).status === 1)
      throw new StartOptionsError([
        `${file} is in the repository and not git-ignored: keep secrets under .local/ (e.g. .local/secrets.json)`,
      ]);
  }
}

/** What `npm start` seeds and passes to the function for `--directory`. */
export interface OwnDirectory {
  document: DirectoryDocument;
  environment: Record<string, string>;
}

/** Loads and validates `--directory` and `--secrets`; throws one {@link StartOptionsError} listing every problem. */
export async function loadOwnDirectory(args: StartArgs & { directory: string }): Promise<OwnDirectory> {
  let document: DirectoryDocument;
  try {
    document = await loadDirectoryFile(args.directory);
  } catch (error) {
    if (!(error instanceof DirectoryDocumentError)) throw error;
    throw new StartOptionsError(
      error.problems.map((p) => `${args.directory}: ${p}`),
      { cause: error },
    );
  }
  const problems = sourceProblems(document).map((p) => `${args.directory}: ${p}`);
  if (problems.length > 0) throw new StartOptionsError(problems);
  let secrets: unknown = {};
  if (args.secrets !== undefined) {
    checkIgnored(args.secrets);
    try {
      secrets = JSON.parse(await readFile(args.secrets, 'utf8'));
    } catch (error) {
      const reason = (error as NodeJS.ErrnoException).code ?? 'not valid JSON';
      throw new StartOptionsError([`cannot read ${args.secrets} (${reason})`], { cause: error });
    }
  }
  return { document, environment: secretsEnvironment(secrets, args.secrets ?? '--secrets', document) };
}

/** Where a source reads from, for the start output (options are non-secret by definition). */
function whereOf(options: Readonly<Record<string, unknown>>): string {
  for (const key of ['base_url', 'url', 'graph_url', 'org_url'])
    if (typeof options[key] === 'string') return String(options[key]);
  return '';
}

/** The lines `npm start` prints about a loaded directory: its contexts, and each source and where it reads. */
export function describeDirectory(file: string, document: DirectoryDocument): string[] {
  const lines = [
    `directory ${file}: ${document.principals.length} principal(s), ${document.contexts.length} context(s), ${document.sources.length} source(s)`,
  ];
  for (const c of document.contexts)
    lines.push(
      `  context ${c.context_handle}  ${c.organization_name} / ${c.application_name}  sources: ${c.source_ids.join(', ')}`,
    );
  for (const s of document.sources)
    lines.push(
      `  source ${s.source_id}  ${s.adapter}  ${whereOf(s.options)}${s.credential_ref === undefined ? '' : `  credential ${s.credential_ref}`}`,
    );
  for (const p of document.principals) lines.push(`  principal ${p.subject}  grants: ${p.grants.length}`);
  return lines;
}
