import { valid, type EndpointKey, type Req } from '../valid-requests.js';

export type Loc = (string | number)[];

export interface Expected {
  loc: Loc;
  type: string;
}

/** A request the spec says must fail validation, with the errors it must report. */
export interface BadRow {
  endpoint: EndpointKey;
  name: string;
  request: Req;
  expected: Expected[];
  /** The request changes exactly these things: no other error may be reported. */
  only: boolean;
  /** Set when the gateway is known to answer otherwise: the row runs as an expected failure. */
  disagreement?: string;
}

/** A request at a limit's edge (or with an extra property on an open object) that must pass validation. */
export interface AcceptRow {
  endpoint: EndpointKey;
  name: string;
  request: Req;
  disagreement?: string;
}

/** A request the spec or docs/design.md says answers 422, on a rule not bound to one field's schema. */
export interface StatusRow {
  endpoint: EndpointKey;
  name: string;
  request: Req;
  status: number;
  disagreement?: string;
}

export type Change = (req: Req) => void;

/** For rules the gateway's schemas cannot express and whose service is not built yet. */

interface Options {
  disagreement?: string;
}

function parentOf(root: unknown, path: Loc): any {
  let node: any = root;
  for (const key of path.slice(0, -1)) node = node[key];
  return node;
}

/** Sets the body (or a value inside it). */
export const body =
  (path: Loc, value: unknown): Change =>
  (req) => {
    if (path.length === 0) req.body = value;
    else parentOf(req.body, path)[path.at(-1)!] = value;
  };

/** Removes a property of the body. */
export const drop =
  (path: Loc): Change =>
  (req) => {
    delete parentOf(req.body, path)[path.at(-1)!];
  };

export const query =
  (key: string, value: string): Change =>
  (req) => {
    req.query = { ...req.query, [key]: value };
  };

export const dropQuery =
  (key: string): Change =>
  (req) => {
    const { [key]: _dropped, ...rest } = req.query ?? {};
    req.query = rest;
  };

export const atPath =
  (path: string): Change =>
  (req) => {
    req.path = path;
  };

export function derive(endpoint: EndpointKey, changes: Change | Change[]): Req {
  const req = valid(endpoint);
  for (const change of [changes].flat()) change(req);
  return req;
}

export const str = (length: number, unit = 'x') => unit.repeat(length);
export const list = <T>(length: number, make: (index: number) => T): T[] => Array.from({ length }, (_, index) => make(index));

/** Row builders bound to one endpoint. Body paths are given without the leading "body". */
export function rowsFor(endpoint: EndpointKey) {
  const bad = (name: string, changes: Change | Change[], loc: Loc, type: string, options: Options = {}): BadRow => ({
    endpoint,
    name,
    request: derive(endpoint, changes),
    expected: [{ loc, type }],
    only: true,
    ...options,
  });
  return {
    bad,
    /** body[path] = value → one error of `type` at ["body", ...path]. */
    set: (name: string, path: Loc, value: unknown, type: string, options: Options = {}) =>
      bad(name, body(path, value), ['body', ...path], type, options),
    /** body[path] removed → `missing` at ["body", ...path]. */
    missing: (path: Loc, options: Options = {}) => bad(`${path.join('.')} missing`, drop(path), ['body', ...path], 'missing', options),
    /** An unknown property on a closed object → `extra_forbidden`. */
    extra: (at: Loc = [], key = 'unexpected_field') =>
      bad(`extra property ${[...at, key].join('.')} rejected`, body([...at, key], 1), ['body', ...at, key], 'extra_forbidden'),
    query: (name: string, key: string, value: string, type: string, options: Options = {}) =>
      bad(name, query(key, value), ['query', key], type, options),
    multi: (name: string, changes: Change | Change[], expected: [Loc, string][], options: Options = {}): BadRow => ({
      endpoint,
      name,
      request: derive(endpoint, changes),
      expected: expected.map(([loc, type]) => ({ loc, type })),
      only: true,
      ...options,
    }),
    ok: (name: string, changes: Change | Change[], options: Options = {}): AcceptRow => ({
      endpoint,
      name,
      request: derive(endpoint, changes),
      ...options,
    }),
    status: (name: string, changes: Change | Change[], status: number, options: Options = {}): StatusRow => ({
      endpoint,
      name,
      request: derive(endpoint, changes),
      status,
      ...options,
    }),
  };
}
