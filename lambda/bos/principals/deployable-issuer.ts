import { BosConfigError } from '../errors.js';

/**
 * The local dev issuer (`local/dev-auth/`) always lives on a loopback address over plain http, with a
 * key pair made at start. That is how it is recognised: no marker claim is needed, and no real issuer
 * can look like it, because OAuth 2.1 §1.5 requires TLS for every endpoint of a real authorization
 * server and a loopback address is never reachable from a Lambda function's network.
 */
export function isDevIssuerUrl(value: string): boolean {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    // Not a URL at all: never a deployable issuer either; the caller refuses it.
    return true;
  }
  return url.protocol !== 'https:' || isLoopbackHost(url.hostname);
}

/**
 * Refuses, at cold start, a deployed configuration that points at the dev issuer or its JWKS, so a
 * Lambda can never accept tokens minted by a laptop's throwaway key. Call it only when deployed
 * (`PlatformConfig.deployed`); locally the dev issuer is the point.
 * @throws BosConfigError naming the offending variable (never a token or key)
 */
export function assertDeployableIssuer(auth: { issuer: string; jwksUrl: string | URL }): void {
  const problems: string[] = [];
  if (isDevIssuerUrl(auth.issuer)) problems.push('AUTH_ISSUER');
  if (isDevIssuerUrl(auth.jwksUrl.toString())) problems.push('AUTH_JWKS_URL');
  if (problems.length > 0) {
    throw new BosConfigError(
      `${problems.join(' and ')} must name a real https issuer when deployed, not the local dev issuer.`,
    );
  }
}

function isLoopbackHost(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/^\[|\]$/g, '');
  return (
    host === 'localhost' ||
    host.endsWith('.localhost') ||
    host === '::1' ||
    host === '0.0.0.0' ||
    /^127(\.\d{1,3}){3}$/.test(host)
  );
}
