import { compile, type Schema, type Validator } from './compile.js';
import { issue, type ValidationIssue } from '@landscreen/validation';
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

function parseBody(raw: unknown): unknown {
  if (typeof raw !== 'string') return raw;
  try {
    return JSON.parse(raw);
  } catch (error) {
    throw new JsonBodyError(jsonErrorPosition(raw), (error as Error).message);
  }
}

/**
 * PostgreSQL text and JSON cannot hold U+0000, so a NUL anywhere in a request (a key, a value, a
 * path or query parameter) is refused up front as 422 rather than failing deep in a service.
 */
function nulIssues(value: unknown, loc: (string | number)[], issues: ValidationIssue[], depth = 0): void {
  if (depth > 64 || issues.length > 50) return;
  if (typeof value === 'string') {
    if (value.includes('\u0000')) issues.push(issue.nulCharacter(loc, value));
  } else if (Array.isArray(value)) {
    value.forEach((item, index) => nulIssues(item, [...loc, index], issues, depth + 1));
  } else if (value !== null && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      if (key.includes('\u0000')) issues.push(issue.nulCharacter([...loc, key], key));
      nulIssues(item, [...loc, key], issues, depth + 1);
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
