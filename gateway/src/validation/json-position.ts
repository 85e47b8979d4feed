/**
 * Where JSON text stops being valid, as a character index (what Python's json module, and so
 * FastAPI, reports in `loc`). V8's JSON.parse messages carry a position only for some errors, so
 * the position is found by scanning the text once the fast parse has failed.
 *
 * The scan is a loop over an explicit stack of open containers, not recursion: a text of 20,000
 * unclosed `[` must give a position, not a stack overflow (whose RangeError once ended up in `loc`).
 * Its work is linear in the length of the text, which the route's body limit bounds.
 */
export function jsonErrorPosition(text: string): number {
  let index = 0;
  const fail = (): never => {
    throw new JsonStop(index);
  };
  const space = () => {
    while (index < text.length && ' \t\n\r'.includes(text[index]!)) index++;
  };
  // Python reports a bad literal ("Expecting value") at its first character.
  const literal = (word: string) => {
    if (!text.startsWith(word, index)) fail();
    index += word.length;
  };
  const string = () => {
    index++; // opening quote
    while (index < text.length) {
      const character = text[index]!;
      if (character === '"') {
        index++;
        return;
      }
      if (character < ' ') fail();
      if (character === '\\') {
        // Python reports a bad escape at its backslash.
        const escape = text[index + 1];
        if (escape === 'u') {
          for (let digit = 2; digit <= 5; digit++) if (!/[0-9a-fA-F]/.test(text[index + digit] ?? '')) fail();
          index += 6;
        } else if (escape !== undefined && '"\\/bfnrt'.includes(escape)) index += 2;
        else fail();
      } else index++;
    }
    fail();
  };
  const NUMBER = /-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/y;
  const number = () => {
    NUMBER.lastIndex = index;
    if (!NUMBER.test(text)) fail();
    index = NUMBER.lastIndex;
  };
  /** A member's key and colon, with the index on the key's opening quote. */
  const key = () => {
    if (text[index] !== '"') fail();
    string();
    space();
    if (text[index] !== ':') fail();
    index++;
  };
  const scalar = (character: string | undefined) => {
    if (character === '"') return string();
    if (character === 't') return literal('true');
    if (character === 'f') return literal('false');
    if (character === 'n') return literal('null');
    if (character === '-' || (character !== undefined && character >= '0' && character <= '9')) return number();
    fail();
  };

  const open: ('}' | ']')[] = [];
  const scan = () => {
    for (;;) {
      // A value is expected here.
      space();
      const character = text[index];
      if (character === '{' || character === '[') {
        const close = character === '{' ? '}' : ']';
        index++;
        space();
        if (text[index] !== close) {
          open.push(close);
          if (close === '}') key();
          continue;
        }
        index++;
      } else scalar(character);
      // The value is complete: close what it completes, or move on to the next member.
      for (;;) {
        const close = open.at(-1);
        if (close === undefined) return;
        space();
        if (text[index] === ',') {
          index++;
          if (close === '}') {
            space();
            key();
          }
          break;
        }
        if (text[index] !== close) fail();
        index++;
        open.pop();
      }
    }
  };

  try {
    scan();
    space();
    return index < text.length ? index : text.length;
  } catch (error) {
    // Anything but the scan's own stop is reported at the start rather than put in `loc`.
    return error instanceof JsonStop ? error.position : 0;
  }
}

class JsonStop {
  constructor(readonly position: number) {}
}
