import { deliveryFileName, fileNamePart } from '@landscreen/reports';
import { deliveryReport } from '../reports/delivery-report-data.js';
import { propertyReport } from '../reports/site-report-data.js';
import { asCaller } from './call.js';
import type { RouteHandler, RouteResult } from './route.js';

/**
 * A PDF answer: the bytes, a file name a browser saves it under (ASCII, no quotes or paths), and
 * a Server-Timing header splitting the time between gathering the data and rendering it.
 */
function pdfAnswer(bytes: Buffer, fileName: string, gatherMs: number, renderMs: number): RouteResult {
  return {
    status: 200,
    body: bytes,
    headers: {
      'content-type': 'application/pdf',
      'content-disposition': `attachment; filename="${fileName}"`,
      'cache-control': 'private, no-store',
      'server-timing': `gather;dur=${gatherMs.toFixed(1)}, render;dur=${renderMs.toFixed(1)}`,
    },
  };
}

/** GET /v1/properties/{property_id}/pdf — the site report (D30), rendered on a render worker. */
export const propertyPdfHandler: RouteHandler = async ({ request, caller, raw, deps, reports }) => {
  const started = performance.now();
  const report = await propertyReport(deps.clients, request.path.property_id, asCaller(caller, raw.id), deps.clock.now());
  const gathered = performance.now();
  const bytes = await reports.site(report);
  return pdfAnswer(bytes, `${fileNamePart(report.reference)}-site-report.pdf`, gathered - started, performance.now() - gathered);
};

/** GET /v1/deliveries/{delivery_id}/pdf — a cover with the buy box and summary, then a page per lead (D30), rendered on a render worker. */
export const deliveryPdfHandler: RouteHandler = async ({ request, caller, raw, deps, reports }) => {
  const started = performance.now();
  const report = await deliveryReport(deps.clients, request.path.delivery_id, asCaller(caller, raw.id), deps.clock.now());
  const gathered = performance.now();
  const bytes = await reports.delivery(report);
  return pdfAnswer(bytes, deliveryFileName({ id: request.path.delivery_id, createdAt: report.createdAt }), gathered - started, performance.now() - gathered);
};
