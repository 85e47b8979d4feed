// A PDF render worker (render-pool.ts): the report fonts are parsed and a sample report is
// rendered before the worker says it is ready, so the first report after a start costs what
// every later one does — the sample's contact is written in every script a fallback font sets,
// so none of those fonts is first read by a customer's report. Each task is one document: its model in, its bytes out (transferred).

import { renderDeliveryReport, renderSiteReport, reportFonts, type DeliveryReport, type SiteReport } from '@landscreen/reports';
import { serveTasks } from '../worker-pool/serve.js';
import type { RenderTask } from './render-pool.js';

const SAMPLE: SiteReport = {
  title: 'APN 000-000',
  reference: '000-000',
  facts: [{ label: 'Acres', value: '12.5' }],
  factSheet: [],
  map: { geometry: { type: 'Polygon', coordinates: [[[-97.74, 30.27], [-97.73, 30.27], [-97.73, 30.28], [-97.74, 30.27]]] }, point: { lat: 30.275, lon: -97.735 }, grid: [], gridLoaded: [] },
  screen: null,
  diligence: null,
  contacts: [{ lines: [{ label: 'Name', value: '王小明' }, { label: 'Name', value: '김민준' }, { label: 'Name', value: 'สมชาย' }, { label: 'Name', value: 'राजेश' }] }],
  vintage: [{ label: 'Parcel vintage', value: 'sample' }],
  generatedAt: new Date(0),
};

reportFonts();
await renderSiteReport(SAMPLE);

/** Thrown for a document over the byte budget; the pool answers it as report_too_large. */
class ReportTooLarge extends Error {
  readonly code = 'report_too_large';
}

serveTasks<RenderTask & { id: number }>(async (task) => {
  const bytes = task.kind === 'site' ? await renderSiteReport(task.report as SiteReport) : await renderDeliveryReport(task.report as DeliveryReport);
  if (bytes.length > task.maxBytes) throw new ReportTooLarge(`the document is ${bytes.length} bytes, over the ${task.maxBytes}-byte budget`);
  // A fresh ArrayBuffer of exactly the document, handed over rather than copied.
  const owned = new Uint8Array(bytes.length);
  owned.set(bytes);
  return { result: owned, transfer: [owned.buffer] };
});
