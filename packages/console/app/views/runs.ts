import { call } from '../api.js';
import { h, labelled, replace } from '../dom.js';
import { fieldCatalog, humanise } from '../fields.js';
import { formatNumber } from '../format.js';
import type { ViewContext } from '../view-context.js';
import { statusPill } from './badges.js';
import { download, EXPORT_FORMATS } from './downloads.js';

interface Run {
  run_id: string;
  status: string;
  fields: string[];
  progress: { done: number; total: number };
  credits: { per_location: number; charged: number; refunded: number };
  created_at: string;
}

/** The run results formats: D35's, and those D40's exports add. */
const RESULT_FORMATS = [{ format: 'ndjson', label: 'NDJSON' }, ...EXPORT_FORMATS];

/**
 * Runs and usage: upload a CSV of locations, pick the fields, see the price before running (the
 * dry run of D35), follow the progress, download the results; the month's credits by operation.
 */
export function runsView(_context: ViewContext) {
  const usage = h('section', { class: 'usage', attrs: { 'aria-label': 'Usage' } });
  const runsList = h('section', { class: 'runs-list', attrs: { 'aria-label': 'Runs' } });
  const upload = h('section', { class: 'upload', attrs: { 'aria-label': 'New run' } });
  const element = h('div', { class: 'runs-view' }, h('h1', { text: 'Runs and usage' }), usage, upload, runsList);
  let disposed = false;
  let timer: ReturnType<typeof setTimeout> | undefined;

  async function loadUsage() {
    const u = await call('GET', '/v1/usage');
    const rows = Object.entries(u.by_operation as Record<string, number>);
    replace(
      usage,
      h('h2', { text: `Credits in ${u.month}` }),
      h('p', { text: `${formatNumber(u.charged)} used of ${formatNumber(u.included)} on the ${u.plan} plan; ${formatNumber(u.remaining)} left.` }),
      h('div', { class: 'meter', attrs: { role: 'meter', 'aria-label': 'Credits used', 'aria-valuemin': 0, 'aria-valuemax': u.included, 'aria-valuenow': u.charged } }, h('span', { attrs: { style: `width: ${u.included ? Math.min(100, (100 * u.charged) / u.included) : 0}%` } })),
      h('table', { class: 'by-operation' }, h('caption', { text: 'By operation' }), h('tbody', {}, rows.length === 0 ? h('tr', {}, h('td', { attrs: { colspan: 2 }, text: 'Nothing charged this month.' })) : rows.map(([operation, credits]) => h('tr', {}, h('th', { attrs: { scope: 'row' }, text: humanise(operation) }), h('td', { text: formatNumber(credits) }))))),
    );
  }

  function runRow(run: Run): HTMLElement {
    const share = run.progress.total ? run.progress.done / run.progress.total : 0;
    return h(
      'li',
      { class: 'run', attrs: { 'data-run-id': run.run_id } },
      h('span', { class: 'run-title', text: `${formatNumber(run.progress.total)} locations × ${run.fields.length} fields` }),
      statusPill(run.status),
      h('progress', { attrs: { max: 1, value: share, 'aria-label': `Progress of run ${run.run_id.slice(0, 8)}` } }),
      h('span', { class: 'hint', text: `${formatNumber(run.progress.done)} done · ${formatNumber(run.credits.charged - run.credits.refunded)} credits` }),
      run.status === 'succeeded'
        ? h(
            'span',
            { class: 'downloads' },
            'Download ',
            RESULT_FORMATS.map(({ format, label }) =>
              h('button', { class: 'small', attrs: { type: 'button' }, text: label, on: { click: () => void download('GET', `/v1/runs/${run.run_id}/results?format=${format}`, `run-${run.run_id.slice(0, 8)}.${format}`) } }),
            ),
          )
        : null,
    );
  }

  async function loadRuns() {
    const { runs } = await call<{ runs: Run[] }>('GET', '/v1/runs');
    replace(runsList, h('h2', { text: 'Runs' }), runs.length === 0 ? h('p', { text: 'No run yet.' }) : h('ul', {}, runs.map(runRow)));
    // Follow runs still going until they finish.
    clearTimeout(timer);
    if (!disposed && runs.some((run) => run.status === 'queued' || run.status === 'running')) {
      timer = setTimeout(() => void Promise.all([loadRuns(), loadUsage()]).catch(() => undefined), 1000);
    }
  }

  void (async () => {
    const catalog = await fieldCatalog();
    const file = h('input', { attrs: { type: 'file', accept: '.csv,text/csv', name: 'locations' } });
    const fields = h('select', { attrs: { multiple: true, size: 8, name: 'fields' } }, [...catalog.values()].filter((f) => f.layer !== 'parcel record').map((f) => h('option', { attrs: { value: f.name }, text: `${humanise(f.name)}${f.unit ? ` (${f.unit})` : ''}` })));
    const quote = h('p', { class: 'quote', attrs: { role: 'status' } });
    const run = h('button', { class: 'primary', attrs: { type: 'button', disabled: true }, text: 'Run' });
    const chosen = () => [...fields.selectedOptions].map((option) => option.value).join(',');
    const submit = async (dryRun: boolean) => {
      const csv = file.files?.[0];
      if (!csv || chosen() === '') {
        quote.textContent = 'Choose a CSV file (lat, lon and an optional id per line) and at least one field.';
        return undefined;
      }
      return call('POST', '/v1/runs', undefined, {
        query: { fields: chosen(), dry_run: dryRun ? 'true' : undefined },
        headers: { 'content-type': 'text/csv', ...(dryRun ? {} : { 'idempotency-key': crypto.randomUUID() }) },
        raw: await csv.text(),
      });
    };
    const price = async () => {
      run.disabled = true;
      try {
        const answer = await submit(true);
        if (!answer) return;
        quote.textContent = `This run costs ${formatNumber(answer.credits.required)} credits (${formatNumber(answer.credits.per_location)} a location); you have ${formatNumber(answer.credits.balance)}.`;
        run.disabled = answer.credits.required > answer.credits.balance;
      } catch (error) {
        quote.textContent = (error as Error).message;
      }
    };
    file.addEventListener('change', () => void price());
    fields.addEventListener('change', () => void price());
    run.addEventListener('click', async () => {
      run.disabled = true;
      try {
        await submit(false);
        quote.textContent = 'Queued: its progress is below.';
        await Promise.all([loadRuns(), loadUsage()]);
      } catch (error) {
        quote.textContent = (error as Error).message;
      }
    });
    replace(upload, h('h2', { text: 'New run' }), labelled('Locations (CSV)', file), labelled('Fields', fields, 'Hold Ctrl or ⌘ to pick several.'), quote, run);
  })().catch((error) => replace(upload, h('p', { class: 'error', attrs: { role: 'alert' }, text: (error as Error).message })));

  void loadUsage().catch((error) => replace(usage, h('p', { class: 'error', attrs: { role: 'alert' }, text: (error as Error).message })));
  void loadRuns().catch((error) => replace(runsList, h('p', { class: 'error', attrs: { role: 'alert' }, text: (error as Error).message })));
  return {
    element,
    dispose: () => {
      disposed = true;
      clearTimeout(timer);
    },
  };
}
