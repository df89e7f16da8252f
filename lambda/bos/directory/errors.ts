/**
 * Domain errors of the directory. They carry a string `code` and never reach a client as they are: a
 * tool turns them into the runtime's generic internal error (STYLE habit 3); the detail stays in logs.
 */

/** A directory file (seeding input) is not a valid `bos-directory/v1` document; `problems` lists every fault. */
export class DirectoryDocumentError extends Error {
  override readonly name = 'DirectoryDocumentError';
  readonly code = 'invalid_document';
  readonly problems: readonly string[];

  constructor(problems: readonly string[], options?: { cause?: unknown }) {
    super(`Invalid directory document:\n- ${problems.join('\n- ')}`, options);
    this.problems = problems;
  }
}

/**
 * A stored directory item is malformed; the call fails closed. (A store that cannot answer is the runtime's
 * `StoreUnavailableError('directory')`, answered 503.)
 */
export class DirectoryDataError extends Error {
  override readonly name = 'DirectoryDataError';
  readonly code: 'invalid_item';

  constructor(code: 'invalid_item', message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
  }
}

/**
 * A source credential could not be resolved. The message names the credential (its reference), never
 * its value.
 */
export class CredentialError extends Error {
  override readonly name = 'CredentialError';
  readonly code: 'unknown_credential' | 'invalid_reference' | 'unavailable';

  constructor(
    code: 'unknown_credential' | 'invalid_reference' | 'unavailable',
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.code = code;
  }
}
