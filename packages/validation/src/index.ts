export { issue, expectedLiterals, type Loc, type ValidationIssue } from './issues.js';
