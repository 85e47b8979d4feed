import { validationError } from '@landscreen/rpc';
import { invisibleCharacterIn, invisibleCharacterSentence, issue, normaliseName } from '@landscreen/validation';

/**
 * A buy-box name as it is stored and looked up: NFC and trimmed, so that names which look alike
 * are one name (the gateway has done this already; a peer calling over Connect may not have).
 * A name with a character nobody can see is refused at `loc` (docs/decisions.md, "Buy-box names").
 */
export function buyBoxName(name: string, loc: (string | number)[]): string {
  const hidden = invisibleCharacterIn(name);
  if (hidden !== undefined) throw validationError([issue.valueError(loc, name, invisibleCharacterSentence(hidden))]);
  return normaliseName(name);
}
