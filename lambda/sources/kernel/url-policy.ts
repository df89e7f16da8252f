/**
 * Transport safety for provider URLs (DESIGN §4 "Real sources"): `https` only, except plain `http` to a
 * loopback host when the stack runs locally (the composition root sets `allowLoopbackHttp`), and next
 * links that stay on the origin the source is configured with.
 */
import { ProviderError } from './errors.js';

/** Whether `hostname` (as `URL#hostname` gives it) is a loopback address or `localhost`. */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.toLowerCase();
  if (host === 'localhost' || host === '[::1]' || host === '::1') return true;
  return /^127(?:\.\d{1,3}){3}$/.test(host);
}

/** Whether a provider may be called at `url` under the given loopback allowance. */
export function isAllowedProviderUrl(url: URL, allowLoopbackHttp: boolean): boolean {
  if (url.username !== '' || url.password !== '') return false; // credentials never ride in a URL
  if (url.protocol === 'https:') return true;
  return url.protocol === 'http:' && allowLoopbackHttp && isLoopbackHost(url.hostname);
}

/** Throws `source_unavailable` (`insecure_url`) unless {@link isAllowedProviderUrl}. */
export function assertProviderUrl(url: URL, allowLoopbackHttp: boolean): void {
  if (!isAllowedProviderUrl(url, allowLoopbackHttp))
    throw new ProviderError('source_unavailable', 'insecure_url');
}

/**
 * Resolves a provider's next link against the current page's URL and refuses one that leaves `origin`
 * (a provider must not steer our credential to another host) or that names the page just read (a provider
 * that would page in a circle: the source fails instead of reading the same page until `maxPages`).
 */
export function sameOriginNext(next: string, current: URL, origin: string): URL {
  let url: URL;
  try {
    url = new URL(next, current);
  } catch {
    throw new ProviderError('source_unavailable', 'invalid_response');
  }
  if (url.origin !== origin) throw new ProviderError('source_unavailable', 'cross_origin_next');
  if (url.href === current.href) throw new ProviderError('source_unavailable', 'paging_loop');
  return url;
}
