import { ApiFailure, call, tenant } from './api.js';
import { h, labelled, replace } from './dom.js';
import { forgetViews } from './map/saved-view.js';

export interface Me {
  tenant: { slug: string; name: string };
  identity: { id: string | null; email: string | null };
  role: 'admin' | 'analyst' | 'viewer' | 'worker';
}

/** Who is signed in, or null (401). */
export async function whoAmI(): Promise<Me | null> {
  try {
    return await call<Me>('GET', '/v1/me');
  } catch (error) {
    if (error instanceof ApiFailure && (error.status === 401 || error.code === 'not_member' || error.code === 'tenant_required')) return null;
    throw error;
  }
}

/**
 * The page a sign-in link opens (`/auth/verify?token=…`): it trades the link for the session
 * cookie (POST /v1/auth/session), then carries on at the map without the token in the address.
 */
export async function consumeLink(root: HTMLElement, token: string): Promise<boolean> {
  replace(root, h('main', { class: 'sign-in' }, h('h1', { text: 'landscreen' }), h('p', { text: 'Signing you in…', attrs: { role: 'status' } })));
  try {
    const session = await call<{ tenant: { slug: string } }>('POST', '/v1/auth/session', { token });
    tenant.set(session.tenant.slug);
    history.replaceState(null, '', '/#/map');
    return true;
  } catch (error) {
    const detail = error instanceof Error ? error.message : 'This link cannot be used.';
    history.replaceState(null, '', '/');
    replace(root, signInPage(`${detail} Ask for a new link below.`));
    return false;
  }
}

/** Asks for a sign-in link (D5): the answer is the same whoever asks, so it only says to check the mail. */
export function signInPage(notice?: string): HTMLElement {
  const email = h('input', { attrs: { type: 'email', name: 'email', required: true, autocomplete: 'email' } });
  const organisation = h('input', { attrs: { type: 'text', name: 'tenant', autocomplete: 'organization', placeholder: 'optional' } });
  const status = h('p', { class: 'notice', attrs: { role: 'status' }, text: notice ?? '' });
  const form = h(
    'form',
    {
      class: 'card',
      on: {
        submit: async (event) => {
          event.preventDefault();
          status.textContent = 'Sending…';
          try {
            await call('POST', '/v1/auth/request-link', { email: email.value, ...(organisation.value ? { tenant: organisation.value } : {}) });
            status.textContent = `If ${email.value} is a member, a sign-in link is on its way. Open it in this browser.`;
          } catch (error) {
            status.textContent = error instanceof Error ? error.message : 'The link could not be sent.';
          }
        },
      },
    },
    h('h2', { text: 'Sign in' }),
    labelled('Email', email),
    labelled('Organization (its slug)', organisation, 'Only if you belong to more than one.'),
    h('button', { class: 'primary', attrs: { type: 'submit' }, text: 'Email me a sign-in link' }),
    status,
  );
  return h('main', { class: 'sign-in' }, h('h1', { text: 'landscreen' }), h('p', { text: 'Screen land for data centers, solar, wind and storage.' }), form);
}

export async function signOut(): Promise<void> {
  await call('POST', '/v1/auth/logout').catch(() => undefined);
  tenant.set(undefined);
  forgetViews();
  location.assign('/');
}
