/**
 * The deepest nesting of arrays and objects any JSON input may have. Every recursive walk of a
 * value (JSON.stringify, our own normalisers) overflows the stack somewhere past ~3,500 levels,
 * and no real document comes near 64; the gateway bounds request bodies by the same number.
 */
export const MAX_JSON_DEPTH = 64;

const OPEN_BRACE = 0x7b;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACE = 0x7d;
const CLOSE_BRACKET = 0x5d;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/**
 * True when JSON text nests arrays and objects deeper than `max`. One iterative pass over the
 * characters (brackets inside strings do not count), so it cannot overflow the stack itself, and
 * it stops at the first level too deep. It does not validate: malformed text is JSON.parse's to refuse.
 */
export function jsonNestedDeeperThan(text: string, max: number = MAX_JSON_DEPTH): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const char = text.charCodeAt(i);
    if (inString) {
      if (char === BACKSLASH) i++;
      else if (char === QUOTE) inString = false;
    } else if (char === QUOTE) {
      inString = true;
    } else if (char === OPEN_BRACE || char === OPEN_BRACKET) {
      if (++depth > max) return true;
    } else if (char === CLOSE_BRACE || char === CLOSE_BRACKET) {
      depth--;
    }
  }
  return false;
}
