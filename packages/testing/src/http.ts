import { gatewayContract } from './response-contract.js';

export interface HttpResponse<T = any> {
  status: number;
  headers: Headers;
  /** Parsed JSON when the answer is JSON, else the text. */
  body: T;
}

export interface RequestOptions {
  body?: unknown;
  /** Sent as-is (malformed JSON tests). */
  rawBody?: string;
  headers?: Record<string, string>;
  query?: Record<string, string | number | boolean>;
}

export interface HttpClient {
  request<T = any>(method: string, path: string, options?: RequestOptions): Promise<HttpResponse<T>>;
  get<T = any>(path: string, options?: RequestOptions): Promise<HttpResponse<T>>;
  post<T = any>(path: string, body?: unknown, options?: RequestOptions): Promise<HttpResponse<T>>;
  patch<T = any>(path: string, body?: unknown, options?: RequestOptions): Promise<HttpResponse<T>>;
}

/**
 * A small fetch wrapper: real HTTP to the gateway, JSON in and out. Every answer is checked
 * against the declaration of its route (response-contract.ts): an undeclared status or a body off
 * its schema fails the test that received it, whatever that test asserts itself.
 */
export function httpClient(baseUrl: string): HttpClient {
  const request = async <T>(method: string, path: string, options: RequestOptions = {}): Promise<HttpResponse<T>> => {
    const url = new URL(path, baseUrl);
    for (const [key, value] of Object.entries(options.query ?? {})) url.searchParams.set(key, String(value));
    const hasBody = options.rawBody !== undefined || options.body !== undefined;
    const response = await fetch(url, {
      method,
      headers: { ...(hasBody && { 'content-type': 'application/json' }), ...options.headers },
      body: options.rawBody ?? (options.body === undefined ? undefined : JSON.stringify(options.body)),
    });
    const text = await response.text();
    gatewayContract().check({ method, path: url.pathname, status: response.status, contentType: response.headers.get('content-type'), text });
    const isJson = response.headers.get('content-type')?.includes('json');
    return { status: response.status, headers: response.headers, body: (isJson && text ? JSON.parse(text) : text) as T };
  };
  return {
    request,
    get: (path, options) => request('GET', path, options),
    post: (path, body, options) => request('POST', path, { ...options, body }),
    patch: (path, body, options) => request('PATCH', path, { ...options, body }),
  };
}
