/**
 * Where JSON text stops being valid, as a character index (what Python's json module, and so
 * FastAPI, reports in `loc`). V8's JSON.parse messages carry a position only for some errors, so
 * the position is found by scanning the text once the fast parse has failed.
 */
export function jsonErrorPosition(text: string): number {
  let index = 0;
  const fail = (): never => {
    throw index;
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
  const number = () => {
    const match = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(text.slice(index));
    if (!match) fail();
    index += match![0].length;
  };
  const value = (): void => {
    space();
    const character = text[index];
    if (character === '{') {
      index++;
      space();
      if (text[index] === '}') {
        index++;
        return;
      }
      for (;;) {
        space();
        if (text[index] !== '"') fail();
        string();
        space();
        if (text[index] !== ':') fail();
        index++;
        value();
        space();
        if (text[index] === ',') {
          index++;
          continue;
        }
        if (text[index] === '}') {
          index++;
          return;
        }
        fail();
      }
    }
    if (character === '[') {
      index++;
      space();
      if (text[index] === ']') {
        index++;
        return;
      }
      for (;;) {
        value();
        space();
        if (text[index] === ',') {
          index++;
          continue;
        }
        if (text[index] === ']') {
          index++;
          return;
        }
        fail();
      }
    }
    if (character === '"') return string();
    if (character === 't') return literal('true');
    if (character === 'f') return literal('false');
    if (character === 'n') return literal('null');
    if (character === '-' || (character !== undefined && character >= '0' && character <= '9')) return number();
    fail();
  };
  try {
    value();
    space();
    return index < text.length ? index : text.length;
  } catch (position) {
    return position as number;
  }
}
