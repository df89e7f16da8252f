export {
  authenticate,
  FORBIDDEN_CODE,
  UNAUTHORIZED_CODE,
  VERIFIER_UNAVAILABLE_CODE,
} from './authenticate.js';
export type { AuthenticateOptions, AuthOutcome } from './authenticate.js';
export { assertDeployableIssuer, isDevIssuerUrl } from './deployable-issuer.js';
export { ACCEPTED_ALGORITHMS, createJwtVerifier } from './jwt-verifier.js';
export type { JwksSource, JwtVerifierOptions, KeySetFetch, RemoteJwksOptions } from './jwt-verifier.js';
export {
  BOS_READ_SCOPE,
  protectedResourceMetadata,
  protectedResourceMetadataResponse,
  resourceMetadataPaths,
  resourceMetadataUrl,
} from './resource-metadata.js';
export type { ProtectedResourceMetadata } from './resource-metadata.js';
export type { TokenVerifier } from './token-verifier.js';
