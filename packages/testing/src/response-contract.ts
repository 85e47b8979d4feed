import { createRequire } from 'node:module';
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import { CUSTOM_KEYWORDS, OPEN_RECORD_KEYWORD } from '@landscreen/api-schemas';
import { buildOpenApiDocument, GATEWAY_PAGES, ROUTES, type RouteDef } from '@landscreen/gateway';

const require = createRequire(import.meta.url);
const addFormats = require('ajv-formats') as typeof import('ajv-formats').default;

type Json = Record<string, any>;

/** An answer of the gateway that is not the one its route declares. */
export class ResponseContractError extends Error {
  override name = 'ResponseContractError';
}

/** What the check is given of one exchange. */
export interface Exchange {
  method: string;
  /** The path (a query string is ignored). */
  path: string;
  status: number;
  contentType: string | null;
  /** The body as received. */
  text: string;
}

interface Operation {
  method: string;
  template: string;
  pattern: RegExp;
  /** Path parameters: a literal segment wins over a parameter when two templates match. */
  parameters: number;
  responses: Record<string, Json>;
}

/** What Fastify's not-found handler answers for a path or method no route has (D2). */
const UNROUTED: Json = {
  '404': { description: 'No route', content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } },
};

/**
 * Every answer of the gateway, checked against the route table's declaration — the same JSON
 * Schema `/openapi.json` publishes, built from the same route definitions: the route by method
 * and path template, then the status (an undeclared one fails), then the content type, then the
 * body, with a real JSON-Schema validator (Ajv, draft 2020-12, formats on). Records the spec
 * calls open (`x-open-record`) are closed here: a field the server sends without declaring it
 * fails, while the published document still tells clients to expect more fields.
 */
export class ResponseContract {
  private readonly operations: Operation[];
  private readonly ajv: Ajv2020;
  private readonly validators = new Map<string, ValidateFunction>();

  constructor(routes: RouteDef[]) {
    const document = buildOpenApiDocument(routes, { includeHidden: true });
    this.operations = Object.entries(document.paths as Record<string, Json>).flatMap(([template, item]) =>
      Object.entries(item).map(([method, operation]) => ({
        method: method.toUpperCase(),
        template,
        pattern: new RegExp(`^${template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\\?\{[^}]+\\?\}/g, '[^/]*')}$`),
        parameters: (template.match(/\{/g) ?? []).length,
        responses: (operation as Json).responses,
      })),
    );
    this.ajv = new Ajv2020({ strict: true, strictTypes: false, allErrors: true, validateFormats: true });
    addFormats(this.ajv);
    for (const keyword of CUSTOM_KEYWORDS) this.ajv.addKeyword({ keyword, schemaType: ['boolean', 'object'] });
    this.ajv.addSchema({ $id: 'landscreen', $defs: forTests(document.components.schemas) });
  }

  /** Throws ResponseContractError naming the route, the status and, for a body, where and what. */
  check(exchange: Exchange): void {
    const { status } = exchange;
    const method = exchange.method.toUpperCase();
    const path = exchange.path.split('?')[0]!;
    const operation = this.operationOf(method, path);
    const route = operation ? `${operation.method} ${operation.template}` : `${method} ${path} (no route)`;
    const responses = operation?.responses ?? UNROUTED;
    const declared = responses[String(status)];
    const where = `${method} ${exchange.path} → ${status}`;
    if (!declared) {
      const statuses = Object.keys(responses).join(', ');
      throw new ResponseContractError(`${where}: status ${status} is not declared for ${route} (declared: ${statuses}). Body: ${excerpt(exchange.text)}`);
    }
    if (method === 'HEAD') return;
    const content = declared.content as Record<string, Json> | undefined;
    if (!content) {
      if (exchange.text !== '') throw new ResponseContractError(`${where}: ${route} declares no body for ${status}, but one came: ${excerpt(exchange.text)}`);
      return;
    }
    const mediaType = (exchange.contentType ?? '').split(';')[0]!.trim().toLowerCase();
    const declaredType = Object.keys(content).find((type) => type === mediaType);
    if (!declaredType) {
      throw new ResponseContractError(`${where}: ${route} answers ${Object.keys(content).join(' or ')} for ${status}, not ${exchange.contentType === null ? 'an answer without Content-Type' : `"${exchange.contentType}"`}. Body: ${excerpt(exchange.text)}`);
    }
    const schema = content[declaredType]!.schema as Json;
    if (schema.format === 'binary') return;
    let body: unknown;
    try {
      body = JSON.parse(exchange.text);
    } catch {
      throw new ResponseContractError(`${where}: ${route} answered ${declaredType} that is not JSON: ${excerpt(exchange.text)}`);
    }
    const validate = this.validatorOf(`${route} ${status} ${declaredType}`, schema);
    if (!validate(body)) {
      const problems = (validate.errors ?? []).slice(0, 5).map((error) => describe(error, body));
      throw new ResponseContractError(`${where}: the body does not match the schema ${route} declares for ${status}:\n  ${problems.join('\n  ')}`);
    }
  }

  private operationOf(method: string, path: string): Operation | undefined {
    const wanted = method === 'HEAD' ? 'GET' : method;
    return this.operations
      .filter((operation) => operation.method === wanted && operation.pattern.test(path))
      .sort((a, b) => a.parameters - b.parameters)[0];
  }

  private validatorOf(key: string, schema: Json): ValidateFunction {
    let validate = this.validators.get(key);
    if (!validate) this.validators.set(key, (validate = this.ajv.compile(forTests(schema))));
    return validate;
  }
}

/** The document's schemas as the check reads them: refs into the components, open records closed. */
function forTests(node: any): any {
  if (Array.isArray(node)) return node.map(forTests);
  if (node === null || typeof node !== 'object') return node;
  const copy: Json = {};
  for (const [key, value] of Object.entries(node)) {
    copy[key] = key === '$ref' && typeof value === 'string' ? value.replace('#/components/schemas/', 'landscreen#/$defs/') : forTests(value);
  }
  if (copy[OPEN_RECORD_KEYWORD] === true) copy.additionalProperties = false;
  return copy;
}

/** One mismatch: the JSON pointer, what the schema says, and the value found there. */
function describe(error: ErrorObject, body: unknown): string {
  const pointer = error.instancePath || '/';
  const value = valueAt(body, error.instancePath);
  const extra = error.keyword === 'additionalProperties' ? ` "${(error.params as { additionalProperty: string }).additionalProperty}"` : '';
  const allowed = error.keyword === 'const' || error.keyword === 'enum' ? ` ${JSON.stringify(error.params)}` : '';
  return `at ${pointer}: ${error.message}${extra}${allowed} (schema ${error.schemaPath}); value: ${excerpt(JSON.stringify(value))}`;
}

function valueAt(body: unknown, pointer: string): unknown {
  let node: any = body;
  for (const part of pointer.split('/').slice(1)) node = node?.[part.replace(/~1/g, '/').replace(/~0/g, '~')];
  return node;
}

const excerpt = (text: string | undefined) => (text === undefined ? 'undefined' : text.length > 300 ? `${text.slice(0, 300)}…` : text);

let shared: ResponseContract | undefined;

/** The check of the gateway's whole route table and its pages, built once per test file. */
export function gatewayContract(): ResponseContract {
  return (shared ??= new ResponseContract([...ROUTES, ...GATEWAY_PAGES]));
}

/**
 * For a test that calls the gateway with `fetch` itself: checks the answer (reading a clone, so
 * the caller can still read the body) and throws a ResponseContractError on a mismatch.
 */
export async function checkFetchResponse(method: string, url: string | URL, response: Response): Promise<void> {
  gatewayContract().check({
    method: method.toUpperCase(),
    path: new URL(url).pathname,
    status: response.status,
    contentType: response.headers.get('content-type'),
    text: await response.clone().text(),
  });
}
