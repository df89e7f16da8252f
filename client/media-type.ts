/** Parses `type/subtype; params` and returns the lower-cased `type/subtype` (never substring-matched). */
export function mediaTypeOf(contentType: string | null): string {
  return (contentType ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
}
