/**
 * Identity key normalisation (DESIGN §4 identity rules 2 and 3). Each runs once per record, at validation.
 * Both have a scan-only fast path for input that is already in normal form: it returns the input string
 * itself, so the common case allocates nothing (a hot path at 200k records).
 */

// NFC only changes non-ASCII text, so printable-ASCII input skips String#normalize.
const nonAscii = /[^\u0020-\u007e]/;

/** Whether `text` is non-empty printable ASCII without spaces or capitals: trim, NFC and lower-case keep it. */
function isNormalEmail(text: string): boolean {
  if (text.length === 0) return false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c <= 0x20 || c >= 0x7f || (c >= 0x41 && c <= 0x5a)) return false;
  }
  return true;
}

/** Trimmed, NFC, lower-cased email; `null` for an absent or blank value. */
export function normaliseEmail(email: string | null | undefined): string | null {
  if (typeof email !== 'string') return null;
  if (isNormalEmail(email)) return email;
  let value = email.trim();
  if (value === '') return null;
  if (nonAscii.test(value)) value = value.normalize('NFC');
  return value.toLowerCase();
}

/** The minimum digits a phone must carry to join records (DESIGN §4 rule 3). */
export const MIN_PHONE_DIGITS = 8;

/** Whether `phone` is already `+` and at least {@link MIN_PHONE_DIGITS} digits, i.e. its own key. */
function isNormalPhone(phone: string): boolean {
  if (phone.length <= MIN_PHONE_DIGITS || phone.charCodeAt(0) !== 0x2b) return false;
  for (let i = 1; i < phone.length; i++) {
    const c = phone.charCodeAt(i);
    if (c < 0x30 || c > 0x39) return false;
  }
  return true;
}

/**
 * E.164-style phone key: `+` and the digits, with a leading international `00` read as `+`; `null` when
 * fewer than {@link MIN_PHONE_DIGITS} digits remain (short numbers such as extensions would join strangers).
 */
export function normalisePhone(phone: string | null | undefined): string | null {
  if (typeof phone !== 'string') return null;
  if (isNormalPhone(phone)) return phone;
  let digits = phone.replace(/\D/g, '');
  if (!phone.trimStart().startsWith('+') && digits.startsWith('00')) digits = digits.slice(2);
  return digits.length >= MIN_PHONE_DIGITS ? `+${digits}` : null;
}
