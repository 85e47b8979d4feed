import { onSignedOut } from './api.js';
import { h, replace } from './dom.js';
import { consumeLink, signInPage, whoAmI } from './session.js';
import { startShell } from './shell.js';

/** The page's settings from its meta tag (BASEMAP_STYLE_URL). */
export interface Settings {
  basemapStyleUrl: string | null;
}

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
