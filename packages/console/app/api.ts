// The REST API as the console calls it: same origin, the HttpOnly session cookie the browser
// sends by itself, and on every write the CSRF token the server derived from the session (D40).

export class ApiFailure extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    detail: string,
    readonly body: any,
  ) {
    super(detail);
  }
}

const TENANT_KEY = 'landscreen.tenant';
const SAFE = new Set(['GET', 'HEAD']);

function cookie(name: string): string | undefined {
  for (const part of document.cookie.split(';')) {
    const [key, ...value] = part.trim().split('=');
    if (key === name) return decodeURIComponent(value.join('='));
  }
  return undefined;
}

export const tenant = {
  get: () => localStorage.getItem(TENANT_KEY) ?? undefined,
  set: (slug: string | undefined) => (slug ? localStorage.setItem(TENANT_KEY, slug) : localStorage.removeItem(TENANT_KEY)),
};

/** Headers every call carries: the chosen tenant and, on writes, the CSRF token. */
export function apiHeaders(method: string): Record<string, string> {
  const headers: Record<string, string> = {};
  const slug = tenant.get();
  if (slug) headers['x-tenant'] = slug;
  const csrf = cookie('landscreen_csrf');
  if (!SAFE.has(method) && csrf) headers['x-csrf-token'] = csrf;
  return headers;
}

/** Listeners told when the session is gone (401): the app shows the sign-in page. */
const signedOut = new Set<() => void>();
export const onSignedOut = (listener: () => void) => signedOut.add(listener);

export interface CallOptions {
  query?: Record<string, string | number | boolean | undefined>;
  headers?: Record<string, string>;
  /** A body sent as it is (an upload), with its own content type in `headers`. */
  raw?: BodyInit;
}

/** Sends a request; a JSON answer is parsed, an error answer (D1/D2) thrown as ApiFailure. */
export async function call<T = any>(method: string, path: string, body?: unknown, options: CallOptions = {}): Promise<T> {
  const response = await send(method, path, body, options);
  const text = await response.text();
  const parsed = text && response.headers.get('content-type')?.includes('json') ? JSON.parse(text) : text;
  if (!response.ok) {
    if (response.status === 401) for (const listener of signedOut) listener();
    throw new ApiFailure(response.status, parsed?.code ?? 'validation', describe(parsed) ?? response.statusText, parsed);
  }
  return parsed as T;
}

/** The raw answer (a file to download). */
export async function send(method: string, path: string, body?: unknown, options: CallOptions = {}): Promise<Response> {
  const url = new URL(path, location.origin);
  for (const [key, value] of Object.entries(options.query ?? {})) if (value !== undefined) url.searchParams.set(key, String(value));
  const headers: Record<string, string> = { ...apiHeaders(method), ...options.headers };
  if (body !== undefined) headers['content-type'] = 'application/json';
  return fetch(url, { method, headers, body: options.raw ?? (body === undefined ? undefined : JSON.stringify(body)), credentials: 'same-origin' });
}

/** A D2 sentence, or the D1 issues as "where: what" lines. */
export function describe(body: any): string | undefined {
  if (!body || typeof body !== 'object') return undefined;
  if (typeof body.detail === 'string') return body.detail;
  if (Array.isArray(body.detail)) return body.detail.map((issue: any) => `${(issue.loc ?? []).slice(1).join('.') || 'request'}: ${issue.msg}`).join('\n');
  return undefined;
}
