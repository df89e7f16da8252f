/**
 * The synthesized CloudFormation template of the `dev` stack, for the local stack to build its tables and the
 * function environment from (issue "CDK infrastructure": local equals deployed). Synthesized in-process with
 * asset bundling skipped (`aws:cdk:bundling-stacks: []`: the local stack bundles the handler itself), and cached
 * under `.local/template/` by a digest of `lib/` and the installed aws-cdk-lib, so only a change to the stack
 * definition pays for a new synth.
 */
import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LOCAL_DIR, REPO_ROOT } from './paths.js';

/** Stage synthesized for local use: disposable, so placeholder authorization settings are accepted. */
const LOCAL_STAGE = 'dev';

async function listFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  const nested = await Promise.all(
    entries.map((entry) =>
      entry.isDirectory() ? listFiles(join(dir, entry.name)) : Promise.resolve([join(dir, entry.name)]),
    ),
  );
  return nested.flat().sort();
}

/** Digest of everything the template depends on: the stack sources and the CDK library version. */
export async function templateDigest(): Promise<string> {
  const hash = createHash('sha256');
  for (const file of await listFiles(join(REPO_ROOT, 'lib'))) {
    hash.update(file.slice(REPO_ROOT.length));
    hash.update(await readFile(file));
  }
  hash.update(await readFile(join(REPO_ROOT, 'node_modules', 'aws-cdk-lib', 'package.json')));
  return hash.digest('hex').slice(0, 16);
}

/** Synthesizes the local stage's stack and returns its template (parsed JSON). */
export async function synthesizeTemplate(): Promise<unknown> {
  // Imported here, not at the top: aws-cdk-lib takes seconds to load and a cached template never needs it.
  const { App } = await import('aws-cdk-lib');
  const { BosMcpStack, PLACEHOLDER_AUTH_HOST, stackNameForStage } = await import('../lib/index.js');
  const outdir = await mkdtemp(join(tmpdir(), 'bos-mcp-synth-'));
  try {
    const app = new App({ outdir, context: { 'aws:cdk:bundling-stacks': [] } });
    const stack = new BosMcpStack(app, stackNameForStage(LOCAL_STAGE), {
      stage: LOCAL_STAGE,
      auth: {
        issuer: `https://${PLACEHOLDER_AUTH_HOST}`,
        jwksUrl: `https://${PLACEHOLDER_AUTH_HOST}/.well-known/jwks.json`,
      },
    });
    return app.synth().getStackByName(stack.stackName).template as unknown;
  } finally {
    await rm(outdir, { recursive: true, force: true });
  }
}

/** The local stage's template, from the cache when `lib/` has not changed since it was synthesized. */
export async function loadLocalTemplate(): Promise<unknown> {
  const dir = join(LOCAL_DIR, 'template');
  const file = join(dir, `${await templateDigest()}.template.json`);
  try {
    return JSON.parse(await readFile(file, 'utf8')) as unknown;
  } catch {
    const template = await synthesizeTemplate();
    await mkdir(dir, { recursive: true });
    // Write then rename: concurrent stacks (parallel test files) never read a half-written template.
    const partial = `${file}.${process.pid}.tmp`;
    await writeFile(partial, JSON.stringify(template));
    await rename(partial, file);
    return template;
  }
}
