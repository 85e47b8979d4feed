import type { FastifyInstance } from 'fastify';

// The page a sign-in link opens (`<PUBLIC_URL>/auth/verify?token=…`): it consumes the link with
// POST /v1/auth/verify and shows the session, so the link works from a mail client.
const PAGE = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>landscreen — sign in</title>
<style>body{font:16px system-ui,sans-serif;max-width:40rem;margin:4rem auto;padding:0 1rem}code{word-break:break-all;background:#f3f3f3;padding:.2rem .4rem}</style>
</head>
<body>
<h1>landscreen</h1>
<p id="status">Signing you in…</p>
<script>
(async () => {
  const status = document.getElementById('status');
  const token = new URLSearchParams(location.search).get('token') || '';
  const response = await fetch('/v1/auth/verify', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ token }) });
  const body = await response.json().catch(() => ({}));
  if (!response.ok) { status.textContent = (body && typeof body.detail === 'string') ? body.detail : 'This link cannot be used.'; return; }
  status.innerHTML = '';
  const lines = ['Signed in to ' + body.tenant.name + ' as ' + body.identity.email + ' (' + body.role + ').', 'Session token (send it as authorization: Bearer …):'];
  for (const line of lines) { const p = document.createElement('p'); p.textContent = line; status.appendChild(p); }
  const code = document.createElement('code'); code.textContent = body.session.token; status.appendChild(code);
})();
</script>
</body>
</html>`;

export function registerVerifyPage(app: FastifyInstance): void {
  app.get('/auth/verify', async (_request, reply) =>
    reply.type('text/html; charset=utf-8').header('referrer-policy', 'no-referrer').header('cache-control', 'no-store').send(PAGE),
  );
}
