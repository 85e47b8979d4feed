import { compile, type Schema, type Validator } from './compile.js';
import { issue, jsonNestedDeeperThan, MAX_JSON_DEPTH, type ValidationIssue } from '@landscreen/validation';
import { jsonErrorPosition } from './json-position.js';

export interface RequestSchemas {
  path?: Schema;
  query?: Schema;
  headers?: Schema;
  body?: Schema;
  /** The body must be present (a missing body is reported as `missing` at ["body"]). */
  bodyRequired?: boolean;
}

export interface RawRequest {
  params: unknown;
  query: unknown;
  headers: Record<string, unknown>;
  /** The body as prepareBody() answered it (off the loop for a large body, body-parser.ts). */
  body: PreparedBody;
}

export interface ValidRequest {
  path: Record<string, any>;
  query: Record<string, any>;
  headers: Record<string, any>;
  body: any;
}

/** Malformed JSON in a body: answered as D1 `json_invalid`, never 400 or 500. */
export class JsonBodyError extends Error {
  constructor(readonly position: number, reason: string) {
    super(reason);
    this.name = 'JsonBodyError';
  }
}

/** A body whose bytes are not UTF-8 (json-body.ts): `position` counts the characters before them. */
export class InvalidUtf8Body {
  constructor(readonly position: number, readonly byteOffset: number) {}
}

/**
 * What the body of a request came to, as plain data (it crosses from a worker thread): its
 * validated value with the issues found in it (reported together with the other parts' issues,
 * D1), or a refusal reported alone — a body nested too deep, a bad upload row, malformed JSON.
 */
export type PreparedBody =
  | { kind: 'value'; value: unknown; issues: ValidationIssue[] }
  | { kind: 'refused'; issues: ValidationIssue[] }
  | { kind: 'json_invalid'; position: number; message: string };

/** Where a body came from, for a route that reads more than JSON (a run's CSV upload). */
export interface BodyContext {
  contentType: string | undefined;
  query: Record<string, unknown>;
}

/**
 * Turns a route's raw body text into what its body schema validates, e.g. an uploaded CSV into
 * `{"locations": [...]}`; answers the text itself for a JSON body. Pure, so that it can run on a
 * worker thread. Throws RequestValidationError for a bad upload.
 */
export type BodyDecoder = (text: string | undefined, context: BodyContext) => unknown;

/** The value JSON.parse gives, or the reason it is refused. */
function parseBody(raw: unknown): unknown {
  if (raw instanceof InvalidUtf8Body) throw new JsonBodyError(raw.position, `Invalid UTF-8 at byte ${raw.byteOffset}`);
  if (typeof raw !== 'string') return raw;
  // Before anything recursive runs, and before JSON.parse, which reads a deep text slowly
  // (1,000,000 levels: 2 s); docs/decisions.md, "JSON nesting depth".
  if (jsonNestedDeeperThan(raw)) throw new RequestValidationError([issue.jsonTooDeep(['body'], MAX_JSON_DEPTH)]);
  try {
    return JSON.parse(raw);
  } catch (error) {
    throw new JsonBodyError(jsonErrorPosition(raw), (error as Error).message);
  }
}

/** A NUL cannot be stored as PostgreSQL text, whatever the field. */
function nulIssue(text: string, loc: () => (string | number)[], input: unknown = text): ValidationIssue | undefined {
  return text.includes('\u0000') ? issue.nulCharacter(loc(), input) : undefined;
}

/**
 * PostgreSQL text and JSON cannot hold U+0000, so a NUL anywhere in a request (a key, a value, a
 * path or query parameter) is refused up front as 422 rather than failing deep in a service.
 * (A `loc` is built only for a failure: a body may hold a million strings.)
 */
function nulIssues(value: unknown, loc: (string | number)[], issues: ValidationIssue[], depth = 0): void {
  if (depth > MAX_JSON_DEPTH || issues.length > 50) return;
  const visit = (item: unknown, key: string | number) => {
    if (typeof item === 'string') {
      const problem = nulIssue(item, () => [...loc, key]);
      if (problem) issues.push(problem);
    } else if (item !== null && typeof item === 'object') nulIssues(item, [...loc, key], issues, depth + 1);
  };
  if (typeof value === 'string') {
    const problem = nulIssue(value, () => loc);
    if (problem) issues.push(problem);
  } else if (Array.isArray(value)) {
    for (let index = 0; index < value.length && issues.length <= 50; index++) visit(value[index], index);
  } else if (value !== null && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      const problem = nulIssue(key, () => [...loc, key], key);
      if (problem) issues.push(problem);
      visit(item, key);
    }
  }
}

export class RequestValidationError extends Error {
  constructor(readonly issues: ValidationIssue[]) {
    super('request validation failed');
    this.name = 'RequestValidationError';
  }
}

/**
 * Compiles a route's body step once: decode (an upload), parse, refuse NULs, validate against the
 * body schema, collecting every issue (D1). Pure and synchronous: the gateway runs it inline for a
 * small body and on a worker thread for a large one (body-parser.ts).
 */
export function compileBody(schemas: RequestSchemas, decode?: BodyDecoder): (text: string | InvalidUtf8Body | undefined, context: BodyContext) => PreparedBody {
  const body = schemas.body ? compile(schemas.body, 'json') : undefined;
  return (text, context) => {
    if (!body) return { kind: 'value', value: undefined, issues: [] };
    try {
      const raw = decode && !(text instanceof InvalidUtf8Body) ? decode(text, context) : text;
      if (raw === undefined) return { kind: 'value', value: undefined, issues: schemas.bodyRequired ? [issue.missing(['body'])] : [] };
      const parsed = parseBody(raw);
      const issues: ValidationIssue[] = [];
      nulIssues(parsed, ['body'], issues);
      return { kind: 'value', value: body(parsed, ['body'], issues), issues };
    } catch (error) {
      if (error instanceof JsonBodyError) return { kind: 'json_invalid', position: error.position, message: error.message };
      if (error instanceof RequestValidationError) return { kind: 'refused', issues: error.issues };
      throw error;
    }
  };
}

/**
 * Compiles the path, query and header parts of a route's request once, and takes the body as
 * compileBody() prepared it. Validation runs every part and reports all issues together (D1),
 * where Fastify's own validation would stop at the first failing part.
 */
export function compileRequest(schemas: RequestSchemas): (raw: RawRequest) => ValidRequest {
  const part = (schema: Schema | undefined): Validator | undefined => (schema ? compile(schema, 'text') : undefined);
  const path = part(schemas.path);
  const query = part(schemas.query);
  const headers = part(schemas.headers && { ...schemas.headers, additionalProperties: true });

  return (raw) => {
    const body = raw.body;
    if (body.kind === 'json_invalid') throw new JsonBodyError(body.position, body.message);
    if (body.kind === 'refused') throw new RequestValidationError(body.issues);
    const issues: ValidationIssue[] = [];
    nulIssues(raw.params, ['path'], issues);
    nulIssues(raw.query, ['query'], issues);
    const result: ValidRequest = {
      path: (path ? path(raw.params ?? {}, ['path'], issues) : raw.params) as Record<string, any>,
      query: (query ? query(raw.query ?? {}, ['query'], issues) : raw.query) as Record<string, any>,
      headers: (headers ? headers(raw.headers, ['header'], issues) : raw.headers) as Record<string, any>,
      body: body.value,
    };
    // A loop, not push(...): a large body can hold more issues than a call takes arguments.
    for (const found of body.issues) issues.push(found);
    if (issues.length > 0) throw new RequestValidationError(issues);
    return result;
  };
}
