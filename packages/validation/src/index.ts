export { issue, expectedLiterals, type Loc, type ValidationIssue } from './issues.js';
export { setOwn } from './own.js';
