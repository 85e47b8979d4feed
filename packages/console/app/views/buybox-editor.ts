import { ApiFailure, call } from '../api.js';
import { debounce, h, labelled, replace } from '../dom.js';
import { fieldCatalog, humanise, type CatalogField } from '../fields.js';
import { formatNumber, opLabel } from '../format.js';
import type { ViewContext } from '../view-context.js';

interface Rule {
  field: string;
  op: string;
  value: unknown;
  unknown?: 'exclude' | 'review';
  weight?: number;
  /** D41: full weight at the rule's value, falling linearly to none at zero_at. */
  grade?: { zero_at: number };
}

interface Draft {
  markets: string[];
  must: Rule[];
  preferred: Rule[];
  verdict_cutoffs: { pursue: number; monitor: number };
}

const OPS = ['gte', 'gt', 'lte', 'lt', 'eq', 'ne', 'in', 'not_in', 'between', 'contains', 'exists'];
const EMPTY: Draft = { markets: [], must: [], preferred: [], verdict_cutoffs: { pursue: 70, monitor: 40 } };

/** A rule's value from what was typed: numbers, booleans, lists (comma-separated) as the op needs. */
function parseValue(text: string, op: string, field: CatalogField | undefined): unknown {
  const one = (part: string): unknown => {
    const trimmed = part.trim();
    if (trimmed === 'true' || trimmed === 'false') return trimmed === 'true';
    if (trimmed !== '' && !Number.isNaN(Number(trimmed)) && field?.type !== 'string' && field?.type !== 'str') return Number(trimmed);
    return trimmed;
  };
  if (op === 'exists') return text.trim() !== 'false';
  if (op === 'in' || op === 'not_in' || op === 'between') return text.split(',').map(one);
  return one(text);
}

const valueText = (value: unknown) => (Array.isArray(value) ? value.join(', ') : value === undefined || value === null ? '' : String(value));

/**
 * The buy box editor: rules picked from the field catalog (searchable, with units and the values
 * a field allows), weights and cutoffs, the text parser of POST /v1/buyboxes/parse, and a live
 * count of eligible parcels as you edit (POST /v1/leads/find with count_only). The server checks
 * everything: an unknown market or field comes back with its did-you-mean, shown on the spot.
 */
export function buyBoxView(context: ViewContext) {
  const listPane = h('nav', { class: 'box-list', attrs: { 'aria-label': 'Buy boxes' } });
  const editor = h('section', { class: 'box-editor', attrs: { 'aria-label': 'Buy box editor' } });
  const element = h('div', { class: 'buybox-view' }, listPane, editor);

  void (async () => {
    const catalog = await fieldCatalog();
    const fieldList = h('datalist', { attrs: { id: 'catalog-fields' } }, [...catalog.values()].map((field) => h('option', { attrs: { value: field.name }, text: `${humanise(field.name)}${field.unit ? ` (${field.unit})` : ''}` })));
    let boxes: { name: string; description: string | null; spec: Draft }[] = [];
    let editing: string | null = null;
    let draft: Draft = structuredClone(EMPTY);

    const name = h('input', { attrs: { type: 'text', name: 'name', required: true, maxlength: 255 } });
    const market = h('input', { attrs: { type: 'text', name: 'market', placeholder: 'e.g. travis-tx' } });
    const pursue = h('input', { attrs: { type: 'number', name: 'pursue', min: 0, max: 100, step: 'any' } });
    const monitor = h('input', { attrs: { type: 'number', name: 'monitor', min: 0, max: 100, step: 'any' } });
    const mustRows = h('tbody');
    const preferredRows = h('tbody');
    const count = h('p', { class: 'live-count', attrs: { role: 'status', 'aria-live': 'polite' } });
    const problems = h('div', { class: 'problems', attrs: { role: 'alert' } });
    const status = h('p', { class: 'notice', attrs: { role: 'status' } });
    const text = h('textarea', { attrs: { rows: 6, name: 'text', placeholder: 'market: travis-tx\nmust: at least 50 acres\nmust: not in a floodplain\nprefer: within 2 km of a substation weight 3\npursue: 70\nmonitor: 40' } });
    const warnings = h('ul', { class: 'warnings' });

    const ruleRow = (list: Rule[], rule: Rule, preferred: boolean): HTMLElement => {
      const field = h('input', { attrs: { type: 'text', list: 'catalog-fields', 'aria-label': 'Field', value: rule.field } });
      const op = h('select', { attrs: { 'aria-label': 'Comparison' } }, OPS.map((o) => h('option', { attrs: { value: o, selected: o === rule.op }, text: opLabel(o) })));
      const known = () => catalog.get(field.value);
      const unit = h('span', { class: 'unit', text: known()?.unit ?? '' });
      // A field with a closed set of values is picked from it.
      const value = h('input', { attrs: { type: 'text', 'aria-label': 'Value', value: valueText(rule.value) } });
      const values = h('datalist', { attrs: { id: `values-${Math.random().toString(36).slice(2)}` } });
      value.setAttribute('list', values.id);
      const fillValues = () => replace(values, (known()?.enum ?? []).map((v) => h('option', { attrs: { value: String(v) } })));
      fillValues();
      const policy = h('select', { attrs: { 'aria-label': 'When unknown' } }, h('option', { attrs: { value: 'exclude', selected: rule.unknown !== 'review' }, text: 'exclude' }), h('option', { attrs: { value: 'review', selected: rule.unknown === 'review' }, text: 'keep for review' }));
      const weight = h('input', { attrs: { type: 'number', 'aria-label': 'Weight', step: 'any', value: rule.weight ?? 1 } });
      // D41: a preference may be graded, its weight falling linearly from the rule's value to none at this one.
      const zeroUnit = h('span', { class: 'unit', text: known()?.unit ?? '' });
      const zeroAt = h('input', { attrs: { type: 'number', 'aria-label': 'Worth nothing at', step: 'any', placeholder: 'all or nothing', value: rule.grade?.zero_at } });
      const sync = () => {
        rule.field = field.value.trim();
        rule.op = op.value;
        rule.value = parseValue(value.value, op.value, known());
        if (preferred) {
          rule.weight = Number(weight.value);
          if (zeroAt.value.trim() === '') delete rule.grade;
          else rule.grade = { zero_at: Number(zeroAt.value) };
        } else rule.unknown = policy.value as 'exclude' | 'review';
        unit.textContent = zeroUnit.textContent = known()?.unit ?? '';
        fillValues();
        recount();
      };
      for (const control of [field, op, value, policy, weight, zeroAt]) control.addEventListener('input', sync);
      const remove = h('button', { class: 'small quiet', attrs: { type: 'button', 'aria-label': `Remove the rule on ${rule.field || 'a field'}` }, text: '✕', on: { click: () => { list.splice(list.indexOf(rule), 1); row.remove(); recount(); } } });
      const row = h('tr', {}, h('td', {}, field), h('td', {}, op), h('td', {}, value, values, ' ', unit), h('td', {}, preferred ? weight : policy), preferred ? h('td', {}, zeroAt, ' ', zeroUnit) : null, h('td', {}, remove));
      return row;
    };

    const draw = () => {
      name.value = editing ?? name.value;
      market.value = draft.markets[0] ?? '';
      pursue.value = String(draft.verdict_cutoffs.pursue);
      monitor.value = String(draft.verdict_cutoffs.monitor);
      replace(mustRows, draft.must.map((rule) => ruleRow(draft.must, rule, false)));
      replace(preferredRows, draft.preferred.map((rule) => ruleRow(draft.preferred, rule, true)));
      recount();
    };

    const current = (): Draft => ({
      ...draft,
      markets: market.value.trim() ? [market.value.trim()] : [],
      verdict_cutoffs: { pursue: Number(pursue.value), monitor: Number(monitor.value) },
    });

    const showProblems = (error: unknown) => {
      if (error instanceof ApiFailure && Array.isArray(error.body?.detail)) {
        replace(problems, h('ul', {}, error.body.detail.map((issue: any) => h('li', { text: `${issue.loc.slice(2).join(' › ') || 'draft'}: ${issue.msg}` }))));
      } else replace(problems, error instanceof Error ? error.message : '');
    };

    // The live count: the parcels the draft keeps, by verdict, as you type.
    let asked = 0;
    const recount = debounce(async () => {
      const spec = current();
      if (spec.markets.length === 0) {
        count.textContent = 'Name a market to count its parcels.';
        return;
      }
      const ask = ++asked;
      try {
        const answer = await call('POST', '/v1/leads/find', { draft: spec }, { query: { count_only: true } });
        if (ask !== asked) return;
        replace(problems);
        const v = answer.by_verdict;
        count.textContent = `${formatNumber(answer.count)} eligible parcels: ${formatNumber(v.PURSUE)} PURSUE, ${formatNumber(v.MONITOR)} MONITOR, ${formatNumber(v.HOLD)} HOLD`;
      } catch (error) {
        if (ask !== asked) return;
        count.textContent = 'No count: the draft has a problem.';
        showProblems(error);
      }
    }, 250);
    for (const control of [market, pursue, monitor]) control.addEventListener('input', recount);

    const parse = h('button', {
      attrs: { type: 'button' },
      text: 'Turn the text into rules',
      on: {
        click: async () => {
          try {
            const parsed = await call('POST', '/v1/buyboxes/parse', { text: text.value });
            draft = { ...EMPTY, ...parsed.draft, markets: parsed.draft.markets.length ? parsed.draft.markets : current().markets };
            replace(warnings, parsed.warnings.map((warning: string) => h('li', { text: warning })));
            draw();
          } catch (error) {
            showProblems(error);
          }
        },
      },
    });

    const save = h('button', {
      class: 'primary',
      attrs: { type: 'submit', disabled: !context.canWrite },
      text: 'Save the buy box',
    });
    const form = h(
      'form',
      {
        on: {
          submit: async (event) => {
            event.preventDefault();
            status.textContent = 'Saving…';
            try {
              if (editing) await call('PUT', `/v1/buyboxes/${encodeURIComponent(editing)}`, { spec: current() });
              else await call('POST', '/v1/buyboxes', { name: name.value, spec: current() });
              editing = name.value;
              status.textContent = 'Saved.';
              replace(problems);
              await loadList();
            } catch (error) {
              status.textContent = 'Not saved.';
              showProblems(error);
            }
          },
        },
      },
      h('h1', { text: 'Buy box' }),
      fieldList,
      h('div', { class: 'row-fields' }, labelled('Name', name), labelled('Market', market, 'A market your organization is entitled to.')),
      h('h2', { text: 'Must-haves' }),
      h('table', { class: 'rules' }, h('thead', {}, h('tr', {}, ['Field', 'Comparison', 'Value', 'When unknown', ''].map((t) => h('th', { text: t })))), mustRows),
      h('button', { class: 'small', attrs: { type: 'button' }, text: 'Add a must-have', on: { click: () => { const rule: Rule = { field: '', op: 'gte', value: '', unknown: 'exclude' }; draft.must.push(rule); mustRows.append(ruleRow(draft.must, rule, false)); } } }),
      h('h2', { text: 'Preferences' }),
      h('table', { class: 'rules' }, h('thead', {}, h('tr', {}, ['Field', 'Comparison', 'Value', 'Weight', 'Worth nothing at', ''].map((t) => h('th', { text: t })))), preferredRows),
      h('button', { class: 'small', attrs: { type: 'button' }, text: 'Add a preference', on: { click: () => { const rule: Rule = { field: '', op: 'lte', value: '', weight: 1 }; draft.preferred.push(rule); preferredRows.append(ruleRow(draft.preferred, rule, true)); } } }),
      h('h2', { text: 'Verdict cutoffs' }),
      h('div', { class: 'row-fields' }, labelled('PURSUE from score', pursue), labelled('MONITOR from score', monitor)),
      count,
      problems,
      h('div', { class: 'actions' }, save, status),
      h('details', { class: 'parser' }, h('summary', { text: 'Write it as text' }), labelled('Buy box text', text), parse, warnings),
    );
    replace(editor, form);

    async function loadList() {
      boxes = await call('GET', '/v1/buyboxes');
      replace(
        listPane,
        h('h2', { text: 'Saved' }),
        h('ul', {}, boxes.map((box) => h('li', {}, h('button', { class: `link${box.name === editing ? ' current' : ''}`, attrs: { type: 'button' }, text: box.name, on: { click: () => { editing = box.name; name.value = box.name; draft = structuredClone(box.spec); draw(); void loadList(); } } })))),
        h('button', { class: 'small', attrs: { type: 'button' }, text: 'New buy box', on: { click: () => { editing = null; name.value = ''; draft = structuredClone(EMPTY); draw(); } } }),
      );
    }
    await loadList();
    if (boxes[0]) {
      editing = boxes[0].name;
      draft = structuredClone(boxes[0].spec);
    }
    draw();
  })().catch((error) => replace(editor, h('p', { class: 'error', attrs: { role: 'alert' }, text: (error as Error).message })));
  return { element };
}
