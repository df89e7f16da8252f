/** Codes of {@link StackConfigError}: which part of the stack configuration was rejected. */
export type StackConfigErrorCode =
  | 'invalid_stage'
  | 'invalid_context'
  | 'invalid_custom_domain'
  | 'invalid_auth'
  | 'invalid_function_settings'
  | 'invalid_throttling';

/**
 * A stack property or CDK context value that cannot produce a working deployment. Raised at synth time so
 * an operator sees it before CloudFormation does.
 */
export class StackConfigError extends Error {
  readonly code: StackConfigErrorCode;

  constructor(code: StackConfigErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'StackConfigError';
    this.code = code;
  }
}
