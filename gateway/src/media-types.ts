import type { FastifyRequest } from 'fastify';
import { ApiError } from './errors/index.js';
import { uploadFormat } from './routes/run-upload.js';
import type { RouteDef } from './routes/route.js';

/**
 * Media types read as JSON (as FastAPI reads a body whatever it is declared as): JSON itself,
 * `application/*+json`, text, and the form type curl sends with `-d` unless told otherwise. A
 * type that says the body is something else (XML, multipart, HTML, an image) is refused with 415
 * rather than answered with a `json_invalid` about text that was never JSON.
 */
const JSON_READABLE = new Set(['application/json', 'text/plain', 'application/x-www-form-urlencoded']);
const JSON_SUFFIX = /^application\/[\w.+-]+\+json$/;

const hasBody = (request: FastifyRequest) =>
  request.headers['transfer-encoding'] !== undefined || Number(request.headers['content-length'] ?? 0) > 0;

/** 415 `unsupported_media_type` for a body the route cannot read; a route without a body ignores what was sent. */
export function refuseUnreadableBody(route: RouteDef, request: FastifyRequest): void {
  if (!route.request.body || !hasBody(request)) return;
  const declared = request.headers['content-type'];
  const type = (declared ?? '').split(';')[0]!.trim().toLowerCase();
  if (type === '' || JSON_READABLE.has(type) || JSON_SUFFIX.test(type)) return;
  if (route.bodyDecoder === 'run' && uploadFormat(declared) !== undefined) return;
  const uploads = route.bodyDecoder === 'run' ? ', or a run upload (text/csv, application/geo+json, application/x-ndjson)' : '';
  throw new ApiError(415, 'unsupported_media_type', `A body of type ${type} cannot be read here: send JSON (application/json)${uploads}.`);
}
