/**
 * A grep for secrets over captured text: which named values (bearer tokens, their segments, source
 * secrets) occur in which log line or response. The no-secret-leak suite runs it over everything the
 * function printed and everything a client received.
 */

/** A value that must never appear, with a name that can be printed safely. */
export interface Needle {
  readonly name: string;
  readonly value: string;
}

/** Captured text and where it came from. */
export interface Haystack {
  readonly where: string;
  readonly text: string;
}

/** One occurrence: which needle, where, and the surrounding text with the value itself masked. */
export interface Leak {
  readonly needle: string;
  readonly where: string;
  readonly excerpt: string;
}

/** Shorter values would match by chance (and a JWT segment is far longer). */
export const MIN_NEEDLE_LENGTH = 8;

/**
 * The needles of one bearer token: the whole token, and each dot-separated segment of 8+ characters
 * (a JWT's header, claims and signature), since a log that cuts a token at a dot still leaks it.
 */
export function tokenNeedles(name: string, token: string): Needle[] {
  const parts = token.split('.');
  return [
    { name, value: token },
    ...parts.flatMap((value, index) =>
      parts.length > 1 && value.length >= MIN_NEEDLE_LENGTH
        ? [{ name: `${name} segment ${index + 1}`, value }]
        : [],
    ),
  ];
}

/** Every (needle, haystack) pair where the needle's value occurs; empty when nothing leaked. */
export function findLeaks(haystacks: Iterable<Haystack>, needles: readonly Needle[]): Leak[] {
  for (const needle of needles) {
    if (needle.value.length < MIN_NEEDLE_LENGTH)
      throw new Error(`needle ${needle.name} is shorter than ${MIN_NEEDLE_LENGTH} characters`);
  }
  const leaks: Leak[] = [];
  for (const { where, text } of haystacks) {
    for (const needle of needles) {
      const at = text.indexOf(needle.value);
      if (at === -1) continue;
      const excerpt = `${text.slice(Math.max(0, at - 60), at)}<${needle.name}>${text.slice(
        at + needle.value.length,
        at + needle.value.length + 60,
      )}`;
      leaks.push({ needle: needle.name, where, excerpt });
    }
  }
  return leaks;
}

/** A response read whole, for the test that captured it. */
export interface CapturedResponse {
  status: number;
  contentType: string;
  text: string;
}

/**
 * Reads `response` whole and adds it to `into` as one haystack: status line, every header, then the body
 * bytes as latin1 (one character per byte, so any byte sequence stays searchable).
 */
export async function captureResponse(
  label: string,
  response: Response,
  into: Haystack[],
): Promise<CapturedResponse> {
  const bytes = Buffer.from(await response.arrayBuffer());
  const head = [`HTTP ${response.status}`];
  response.headers.forEach((value, name) => head.push(`${name}: ${value}`));
  into.push({ where: `response to ${label}`, text: `${head.join('\n')}\n\n${bytes.toString('latin1')}` });
  return {
    status: response.status,
    contentType: response.headers.get('content-type') ?? '',
    text: bytes.toString('utf8'),
  };
}
