import { call } from '../api.js';
import { h, replace } from '../dom.js';
import { download, exportButtons } from './downloads.js';

interface DeliverySummary {
  id: string;
  buy_box: string;
  market: string;
  lead_count: number;
  created_at: string;
}

/**
 * The tenant's lead deliveries (D30), newest first: each with its leads as a file in every export
 * format (`GET /v1/deliveries/{id}?format=`) and its PDF report, downloaded with the session cookie.
 */
export function deliveriesPanel(): HTMLElement {
  const list = h('div', { class: 'deliveries-list' });
  const status = h('p', { class: 'notice', attrs: { role: 'status' } });
  const element = h('section', { class: 'deliveries', attrs: { 'aria-label': 'Lead deliveries' } }, h('h2', { text: 'Lead deliveries' }), status, list);

  function row(delivery: DeliverySummary): HTMLElement {
    const reference = delivery.id.slice(0, 8).toUpperCase();
    const title = `${delivery.buy_box} · ${delivery.market} · ${delivery.lead_count} leads · ${delivery.created_at.slice(0, 10)}`;
    return h(
      'div',
      { class: 'delivery', attrs: { 'data-delivery-id': delivery.id } },
      exportButtons(`Delivery ${reference}: ${title}`, (format) => ({ method: 'GET', path: `/v1/deliveries/${delivery.id}?format=${format}`, fileName: `delivery-${reference}.${format}` }), status),
      h('button', {
        class: 'small',
        attrs: { type: 'button' },
        text: 'Report (PDF)',
        on: {
          click: async () => {
            status.textContent = 'Rendering the report…';
            try {
              await download('GET', `/v1/deliveries/${delivery.id}/pdf`, `delivery-${reference}.pdf`);
              status.textContent = 'Report saved.';
            } catch (error) {
              status.textContent = error instanceof Error ? `Report failed: ${error.message}` : 'Report failed.';
            }
          },
        },
      }),
    );
  }

  void (async () => {
    try {
      const { deliveries } = await call<{ deliveries: DeliverySummary[] }>('GET', '/v1/deliveries');
      replace(list, deliveries.length === 0 ? h('p', { class: 'hint', text: 'No delivery yet.' }) : deliveries.map(row));
    } catch (error) {
      replace(list, h('p', { class: 'error', attrs: { role: 'alert' }, text: (error as Error).message }));
    }
  })();
  return element;
}
