import type { ExportFormat } from '@landscreen/feature-export';
import type { discoveryv1 } from '@landscreen/proto';
import { rankingColumns, rankingFeature, specFields } from '../views/ranking-export.js';
import { asCaller, toJsonBytes } from './call.js';
import { checkExportSize, exportAnswer } from './export-answer.js';
import type { GatewayDeps, RouteResult } from './route.js';

/** Parcels per Query page while an export reads a ranking: the most a page may hold. */
const PAGE = 200;

export interface RankingExport {
  buyBox: string;
  draft?: unknown;
  /** Facts to show; undefined: those the buy box's rules read. */
  fields?: readonly string[];
  format: ExportFormat;
}

/**
 * A ranking as a file (D40): discovery's Query paged to its end with signed cursors (each page
 * read as the client takes the last, so a market of any size streams with a page in memory),
 * written in rank order. The first page is read before answering, so a missing buy box, a market
 * not entitled or an unknown field is a plain 404, 403 or 422. A ranking whose vintage is replaced
 * while it streams ends with the cursor refused: the file is cut off rather than mixed.
 */
export async function rankingExport(deps: GatewayDeps, caller: Parameters<typeof asCaller>[0], requestId: string, asked: RankingExport): Promise<RouteResult> {
  const options = asCaller(caller, requestId);
  const draftJson = asked.draft ? toJsonBytes(asked.draft) : undefined;
  const query = (fields: readonly string[], cursor: string | undefined, limit = PAGE) =>
    deps.clients.discovery.query({ buyBox: asked.buyBox, draftJson, limit, cursor, fields: [...fields] }, options);
  // Without chosen fields, a first look names the spec's, so that every page carries those alone.
  const fields = asked.fields ?? specFields((await query(['acres'], undefined, 1)).appliedSpec);
  // No fields at all would ask for every fact (what a query without `fields` shows): ask for one.
  const read = fields.length > 0 ? fields : ['acres'];
  const first = await query(read, undefined);
  checkExportSize(asked.format, first.eligibleTotal);
  const columns = rankingColumns(fields, first.results);
  async function* pages() {
    let page: discoveryv1.QueryResponse = first;
    let rank = 0;
    for (;;) {
      yield page.results.map((result) => rankingFeature(result, ++rank, columns));
      if (page.nextCursor === undefined) return;
      page = await query(read, page.nextCursor);
    }
  }
  return exportAnswer(asked.format, { name: 'ranking', columns, pages: pages() }, `ranking-${asked.buyBox}`);
}
