import { onSignedOut } from './api.js';
import { h, replace } from './dom.js';
import { consumeLink, signInPage, whoAmI } from './session.js';
import { startShell } from './shell.js';
import type { Settings } from './view-context.js';
import { askFirstView } from './views/map-view.js';

function settings(): Settings {
  const meta = document.querySelector<HTMLMetaElement>('meta[name="landscreen-settings"]');
  return { basemapStyleUrl: null, ...(meta ? JSON.parse(meta.content) : {}) };
}

async function boot(): Promise<void> {
  const root = document.getElementById('app')!;
  onSignedOut(() => {
    if (!root.querySelector('.sign-in')) replace(root, signInPage('Your session ended: sign in again.'));
  });
  if (location.pathname === '/auth/verify') {
    const token = new URLSearchParams(location.search).get('token') ?? '';
    if (!(await consumeLink(root, token))) return;
  }
  // A session (its CSRF cookie is readable) opening the map: what the map needs travels beside /v1/me.
  if (document.cookie.includes('landscreen_csrf=') && (location.hash === '' || location.hash.startsWith('#/map'))) askFirstView();
  const me = await whoAmI();
  if (!me) {
    replace(root, signInPage());
    return;
  }
  startShell(root, me, settings());
}

boot().catch((error) => {
  const root = document.getElementById('app')!;
  replace(root, h('main', { class: 'sign-in' }, h('h1', { text: 'landscreen' }), h('p', { class: 'error', attrs: { role: 'alert' }, text: `The console could not start: ${error instanceof Error ? error.message : error}` })));
});
