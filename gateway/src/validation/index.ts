export { compile, normaliseDecimal, type Schema, type Validator } from './compile.js';
export {
  compileBody,
  compileRequest,
  InvalidUtf8Body,
  JsonBodyError,
  RequestValidationError,
  type BodyContext,
  type BodyDecoder,
  type PreparedBody,
  type RequestSchemas,
  type ValidRequest,
} from './request.js';
export { issue, type ValidationIssue } from '@landscreen/validation';
