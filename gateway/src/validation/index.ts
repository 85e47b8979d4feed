export { compile, normaliseDecimal, type Schema, type Validator } from './compile.js';
export { compileRequest, InvalidUtf8Body, JsonBodyError, RequestValidationError, type RequestSchemas, type ValidRequest } from './request.js';
export { issue, type ValidationIssue } from '@landscreen/validation';
