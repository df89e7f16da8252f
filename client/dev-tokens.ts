/**
 * Reads a bearer token from the local stack's token file (`.local/dev-tokens.json`, written by
 * `npm start`): a JSON object mapping a user name to its token, e.g. `{"dev-user": "<jwt>"}`.
 */
import { readFile } from 'node:fs/promises';
import { McpClientError } from './errors.js';

/** The user whose token the CLI picks when `--user` is absent. */
export const DEFAULT_DEV_USER = 'dev-user';

/** Returns the token of `user` in the token file at `path`. */
export async function readDevToken(path: string, user: string = DEFAULT_DEV_USER): Promise<string> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new McpClientError('token_file', `cannot read token file ${path}`, { cause: error });
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new McpClientError('token_file', `token file ${path} is not JSON`, { cause: error });
  }
  const entry =
    typeof parsed === 'object' && parsed !== null ? (parsed as Record<string, unknown>)[user] : undefined;
  // Tolerate `{"user": {"token": "…"}}` as well as the plain string form.
  const token =
    typeof entry === 'string'
      ? entry
      : typeof entry === 'object' && entry !== null
        ? (entry as Record<string, unknown>).token
        : undefined;
  if (typeof token !== 'string' || token === '')
    throw new McpClientError(
      'token_file',
      `token file ${path} has no token for user ${JSON.stringify(user)}`,
    );
  return token;
}
