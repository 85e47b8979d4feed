import { compile, type Schema, type Validator } from './compile.js';
import { issue, type ValidationIssue } from '@landscreen/validation';
import { jsonNestedDeeperThan, MAX_JSON_DEPTH } from '@landscreen/rpc';
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
  body: unknown;
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
 * Compiles the four parts of a route's request once. Validation runs every part and reports all
 * issues together (D1), where Fastify's own validation would stop at the first failing part.
 */
export function compileRequest(schemas: RequestSchemas): (raw: RawRequest) => ValidRequest {
  const part = (schema: Schema | undefined, mode: 'json' | 'text'): Validator | undefined =>
    schema ? compile(schema, mode) : undefined;
  const path = part(schemas.path, 'text');
  const query = part(schemas.query, 'text');
  const headers = part(schemas.headers && { ...schemas.headers, additionalProperties: true }, 'text');
  const body = part(schemas.body, 'json');

  return (raw) => {
    const issues: ValidationIssue[] = [];
    nulIssues(raw.params, ['path'], issues);
    nulIssues(raw.query, ['query'], issues);
    const result: ValidRequest = {
      path: (path ? path(raw.params ?? {}, ['path'], issues) : raw.params) as Record<string, any>,
      query: (query ? query(raw.query ?? {}, ['query'], issues) : raw.query) as Record<string, any>,
      headers: (headers ? headers(raw.headers, ['header'], issues) : raw.headers) as Record<string, any>,
      body: undefined,
    };
    if (body) {
      if (raw.body === undefined) {
        if (schemas.bodyRequired) issues.push(issue.missing(['body']));
      } else {
        const parsed = parseBody(raw.body);
        nulIssues(parsed, ['body'], issues);
        result.body = body(parsed, ['body'], issues);
      }
    }
    if (issues.length > 0) throw new RequestValidationError(issues);
    return result;
  };
}
