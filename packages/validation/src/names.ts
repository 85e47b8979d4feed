// Names people type and read (a buy box's): two names that look alike must be one name. So a
// name is compared, stored and looked up in one form (Unicode NFC, trimmed: "Café" typed with a
// combining accent is the "Café" typed with é), and characters nobody can see are refused rather
// than kept ("dc" and "dc" + U+200B would otherwise be two boxes that print alike).
// docs/decisions.md, "Buy-box names".

/**
 * Control (Cc) and format (Cf: zero-width spaces and joiners, bidi controls, soft hyphen, BOM)
 * characters, line and paragraph separators (Zl, Zp) and lone surrogates (Cs).
 */
const INVISIBLE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}]/u;

/** The one form a name is compared, stored and looked up in. */
export function normaliseName(name: string): string {
  return name.normalize('NFC').trim();
}

/** The first character a name may not hold, as `U+200B`, or undefined. */
export function invisibleCharacterIn(name: string): string | undefined {
  const match = INVISIBLE.exec(name);
  if (!match) return undefined;
  return `U+${match[0].codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
}

/** The sentence of the D1 `value_error` for such a name. */
export const invisibleCharacterSentence = (codePoint: string) =>
  `a name cannot contain control or invisible characters (found ${codePoint})`;
