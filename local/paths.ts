/**
 * Well-known paths of the repository, computed from this file's location so every local tool works from any
 * working directory.
 */
import { dirname, isAbsolute, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Absolute path of the repository root. */
export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/**
 * Scratch folder for generated local artefacts (bundles, DynamoDB Local data). Inside the repository on
 * purpose: a bundle's external imports (`@aws-sdk/*`) resolve from the repository's `node_modules`, as they
 * resolve from the runtime's own copy on Lambda.
 */
export const LOCAL_DIR = resolve(REPO_ROOT, '.local');

/** The deployable Lambda entry of the platform endpoint. */
export const PLATFORM_HANDLER_ENTRY = resolve(REPO_ROOT, 'lambda/handlers/platform.ts');

/** Resolves a path given relative to the repository root (absolute paths pass through). */
export function fromRepo(path: string): string {
  return isAbsolute(path) ? path : resolve(REPO_ROOT, path);
}
