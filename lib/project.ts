import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Absolute path of the repository root (this file lives in `lib/`), whatever the working directory. */
export const PROJECT_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** The deployable Lambda entry of the platform endpoint. */
export const PLATFORM_HANDLER_ENTRY = resolve(PROJECT_ROOT, 'lambda/handlers/platform.ts');

/** Name of the stack of a stage; `cdk.out/<name>.template.json` is its synthesized template. */
export function stackNameForStage(stage: string): string {
  return `BosMcp-${stage}`;
}
