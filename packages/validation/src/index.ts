export { issue, expectedLiterals, type Loc, type ValidationIssue } from './issues.js';
export { setOwn } from './own.js';
export { ECHO_LIMIT_BYTES, ECHO_SUMMARY, echoInput, fitsInJson } from './input-echo.js';
export { invisibleCharacterIn, invisibleCharacterSentence, normaliseName } from './names.js';
export { jsonNestedDeeperThan, MAX_JSON_DEPTH } from './json-depth.js';
