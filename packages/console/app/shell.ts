import { h, replace } from './dom.js';
import { signOut, type Me } from './session.js';
import type { Settings, ViewContext } from './view-context.js';
import { boardView } from './views/board.js';
import { buyBoxView } from './views/buybox-editor.js';
import { mapView } from './views/map-view.js';
import { runsView } from './views/runs.js';

type View = (context: ViewContext) => { element: HTMLElement; dispose?: () => void };

const VIEWS: { hash: string; label: string; view: View }[] = [
  { hash: '#/map', label: 'Market map', view: mapView },
  { hash: '#/buyboxes', label: 'Buy boxes', view: buyBoxView },
  { hash: '#/board', label: 'Pipeline board', view: boardView },
  { hash: '#/runs', label: 'Runs and usage', view: runsView },
];

/** The header, the navigation and the view the address's hash names. */
export function startShell(root: HTMLElement, me: Me, settings: Settings): void {
  const context: ViewContext = { me, settings, canWrite: me.role === 'admin' || me.role === 'analyst' };
  const links = VIEWS.map(({ hash, label }) => h('a', { attrs: { href: hash }, text: label }));
  const main = h('main', { class: 'view', attrs: { id: 'main' } });
  const header = h(
    'header',
    { class: 'top' },
    h('span', { class: 'brand', text: 'landscreen' }),
    h('nav', { attrs: { 'aria-label': 'Console' } }, links),
    h('span', { class: 'who', text: `${me.identity.email ?? 'shared secret'} · ${me.tenant.name} · ${me.role}` }),
    h('button', { class: 'quiet', attrs: { type: 'button' }, text: 'Sign out', on: { click: () => void signOut() } }),
  );
  replace(root, header, main);
  let current: ReturnType<View> | undefined;
  const show = () => {
    const found = VIEWS.find(({ hash }) => location.hash.startsWith(hash)) ?? VIEWS[0]!;
    links.forEach((link, i) => (VIEWS[i] === found ? link.setAttribute('aria-current', 'page') : link.removeAttribute('aria-current')));
    current?.dispose?.();
    current = found.view(context);
    replace(main, current.element);
    document.title = `${found.label} · landscreen`;
  };
  window.addEventListener('hashchange', show);
  show();
}
