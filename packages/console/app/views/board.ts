import { call } from '../api.js';
import { h, replace } from '../dom.js';
import { humanise } from '../fields.js';
import type { ViewContext } from '../view-context.js';
import { scoreText, statusPill, verdictBadge } from './badges.js';
import { deliveriesPanel } from './deliveries.js';
import { exportButtons } from './downloads.js';

/** D18's stages, in board order. */
const STAGES = ['new', 'researching', 'contacted', 'negotiating', 'under_contract', 'closed', 'archived'] as const;

interface Item {
  id: string;
  property_id: string;
  stage: string;
  position: number;
  notes: string | null;
  screen_status: string | null;
  property: { parcel_key: string; apn: string | null; address: string | null; acres: number | null; verdict: string | null; score: number | null; buy_box: string | null };
}

/**
 * The pipeline board (D18): a column per stage, cards dragged between stages and within one (the
 * server places them: PATCH stage and position), notes, and each card's diligence progress.
 * A viewer sees the board; only analysts and admins move cards or write notes.
 */
export function boardView(context: ViewContext) {
  const columns = h('div', { class: 'board' });
  const status = h('p', { class: 'notice', attrs: { role: 'status' } });
  const element = h(
    'div',
    { class: 'board-view' },
    h('div', { class: 'board-head' }, h('h1', { text: 'Pipeline board' }), exportButtons('Export the board', (format) => ({ method: 'GET', path: `/v1/pipeline?format=${format}`, fileName: `board.${format}` }), status)),
    status,
    columns,
    deliveriesPanel(),
  );
  let dragged: string | null = null;

  async function move(itemId: string, stage: string, position: number) {
    status.textContent = 'Moving…';
    try {
      await call('PATCH', `/v1/pipeline/${itemId}`, { stage, position });
      status.textContent = `Moved to ${humanise(stage)}.`;
    } catch (error) {
      status.textContent = (error as Error).message;
    }
    await load();
  }

  function card(item: Item): HTMLElement {
    const p = item.property;
    const notes = h('p', { class: 'card-notes', text: item.notes ?? '' });
    const stageSelect = h(
      'select',
      { attrs: { 'aria-label': `Stage of ${p.apn ?? p.parcel_key}` }, on: { change: () => void move(item.id, stageSelect.value, 1_000_000) } },
      STAGES.map((stage) => h('option', { attrs: { value: stage, selected: stage === item.stage }, text: humanise(stage) })),
    );
    const editNotes = h('button', {
      class: 'small quiet',
      attrs: { type: 'button' },
      text: 'Notes',
      on: {
        click: () => {
          const area = h('textarea', { attrs: { 'aria-label': 'Notes', rows: 3 } });
          area.value = item.notes ?? '';
          const save = h('button', {
            class: 'small',
            attrs: { type: 'button' },
            text: 'Save',
            on: {
              click: async () => {
                await call('PATCH', `/v1/pipeline/${item.id}`, { notes: area.value || null });
                await load();
              },
            },
          });
          replace(notes, area, save);
          area.focus();
        },
      },
    });
    const element = h(
      'li',
      {
        class: 'card-item',
        attrs: { draggable: context.canWrite ? 'true' : undefined, 'data-item-id': item.id, 'data-parcel-key': p.parcel_key, tabindex: 0 },
        on: {
          dragstart: (event) => {
            dragged = item.id;
            event.dataTransfer?.setData('text/plain', item.id);
            element.classList.add('dragging');
          },
          dragend: () => element.classList.remove('dragging'),
        },
      },
      h('span', { class: 'card-title', text: p.apn ? `APN ${p.apn}` : p.parcel_key }),
      p.address ? h('span', { class: 'card-sub', text: p.address }) : null,
      h('span', { class: 'card-line' }, p.verdict ? verdictBadge(p.verdict) : null, p.score != null ? scoreText(p.score) : null, p.acres != null ? ` ${p.acres} acres` : ''),
      h('span', { class: 'card-line' }, 'Diligence ', statusPill(item.screen_status ?? 'none')),
      notes,
      context.canWrite ? h('span', { class: 'card-tools' }, stageSelect, editNotes) : null,
    );
    return element;
  }

  function column(stage: string, items: Item[]): HTMLElement {
    const list = h('ol', { class: 'cards', attrs: { 'aria-label': `${humanise(stage)} cards` } }, items.map(card));
    const element = h('section', { class: 'column', attrs: { 'data-stage': stage, 'aria-label': humanise(stage) } }, h('h2', {}, humanise(stage), h('span', { class: 'count', text: ` ${items.length}` })), list);
    if (context.canWrite) {
      element.addEventListener('dragover', (event) => {
        event.preventDefault();
        element.classList.add('drop-target');
      });
      element.addEventListener('dragleave', () => element.classList.remove('drop-target'));
      element.addEventListener('drop', (event) => {
        event.preventDefault();
        element.classList.remove('drop-target');
        const itemId = event.dataTransfer?.getData('text/plain') || dragged;
        if (!itemId) return;
        // The card goes before the first card whose middle is below the drop point.
        const others = [...list.querySelectorAll<HTMLElement>('.card-item')].filter((el) => el.dataset.itemId !== itemId);
        const position = others.filter((el) => el.getBoundingClientRect().top + el.getBoundingClientRect().height / 2 < event.clientY).length;
        void move(itemId, stage, position);
      });
    }
    return element;
  }

  async function load() {
    try {
      const board = await call<{ items: Item[] }>('GET', '/v1/pipeline', undefined, { query: { archived: true } });
      replace(columns, STAGES.map((stage) => column(stage, board.items.filter((item) => item.stage === stage))));
    } catch (error) {
      replace(columns, h('p', { class: 'error', attrs: { role: 'alert' }, text: (error as Error).message }));
    }
  }
  void load();
  return { element };
}
