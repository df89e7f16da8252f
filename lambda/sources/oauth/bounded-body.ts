/**
 * Reads a response body up to a byte limit. A provider that sends more than it should must not make the
 * function buffer it: the read stops at the limit and the stream is cancelled.
 */

/** The body was larger than allowed. */
export class BodyTooLargeError extends Error {
  override readonly name = 'BodyTooLargeError';
}

/** The body as UTF-8 text, or {@link BodyTooLargeError} once more than `maxBytes` arrived. */
export async function readBoundedText(response: Response, maxBytes: number): Promise<string> {
  const declared = Number(response.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > maxBytes) {
    await response.body?.cancel().catch(() => undefined);
    throw new BodyTooLargeError(`response body of ${declared} bytes is over the ${maxBytes}-byte limit`);
  }
  if (response.body === null) return '';
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let size = 0;
  let text = '';
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return text + decoder.decode();
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel().catch(() => undefined);
      throw new BodyTooLargeError(`response body is over the ${maxBytes}-byte limit`);
    }
    text += decoder.decode(value, { stream: true });
  }
}
