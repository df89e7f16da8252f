/**
 * Identity key normalisation (DESIGN §4 identity rules 2 and 3). Each runs once per record, at validation.
 */

// NFC only changes non-ASCII text, so printable-ASCII input skips String#normalize (a hot path at 200k records).
const nonAscii = /[^\u0020-\u007e]/;

/** Trimmed, NFC, lower-cased email; `null` for an absent or blank value. */
export function normaliseEmail(email: string | null | undefined): string | null {
  if (typeof email !== 'string') return null;
  let value = email.trim();
  if (value === '') return null;
  if (nonAscii.test(value)) value = value.normalize('NFC');
  return value.toLowerCase();
}

/** The minimum digits a phone must carry to join records (DESIGN §4 rule 3). */
export const MIN_PHONE_DIGITS = 8;

/**
 * E.164-style phone key: `+` and the digits, with a leading international `00` read as `+`; `null` when
 * fewer than {@link MIN_PHONE_DIGITS} digits remain (short numbers such as extensions would join strangers).
 */
export function normalisePhone(phone: string | null | undefined): string | null {
  if (typeof phone !== 'string') return null;
  let digits = phone.replace(/\D/g, '');
  if (!phone.trimStart().startsWith('+') && digits.startsWith('00')) digits = digits.slice(2);
  return digits.length >= MIN_PHONE_DIGITS ? `+${digits}` : null;
}
