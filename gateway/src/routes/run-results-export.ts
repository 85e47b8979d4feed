import type { ExportFormat } from '@landscreen/feature-export';
import type { asCaller } from './call.js';
import { runColumns, runFeatures } from '../views/run-export.js';
import { checkExportSize, exportAnswer } from './export-answer.js';
import type { GatewayDeps, RouteResult } from './route.js';

const decoder = new TextDecoder();

/**
 * A run's results as KML, a zipped Shapefile or a GeoPackage (D40): read as the NDJSON pages the
 * catalog stores (about 4 MiB each, the first before answering so that 404 and 409 are plain
 * errors), a Point per location in input order.
 */
export async function runResultsExport(deps: GatewayDeps, runId: string, format: ExportFormat, options: ReturnType<typeof asCaller>): Promise<RouteResult> {
  const first = await deps.clients.catalog.readRunResults({ runId, format: 'ndjson', fromChunk: 0 }, options);
  const { run } = await deps.clients.catalog.getRun({ runId }, options);
  checkExportSize(format, run?.total ?? 0);
  const columns = runColumns(run?.fields ?? []);
  async function* pages() {
    let page = first;
    yield runFeatures(decoder.decode(page.data), columns);
    while (!page.done) {
      page = await deps.clients.catalog.readRunResults({ runId, format: 'ndjson', fromChunk: page.nextChunk }, options);
      yield runFeatures(decoder.decode(page.data), columns);
    }
  }
  return exportAnswer(format, { name: 'run_results', columns, pages: pages() }, `run-${runId}`);
}
