// The plain-SQL peer of a ranking: the facts a buy box reads, copied from the vintage's ranking
// index into a PostgreSQL table with one typed column per field (not timed), then the ranking as
// one statement over it — must rules as a WHERE (an unknown fact kept where the rule says
// `review`), the weighted preferences summed into a score, the first page ordered by score and
// parcel_key — timed best and median of a few runs. What PostgreSQL itself takes for the work
// discovery's columnar ranking does, on the same machine in the same run.

import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { discoveryDb, loadVintageIndex, valueAt } from '@landscreen/discovery-service';
import { openDatabase } from '@landscreen/db';

interface Rule {
  field: string;
  op: string;
  value: unknown;
  unknown?: string;
  weight?: number;
}

export interface BuyBoxDraft {
  must: Rule[];
  preferred: Rule[];
}

export interface SqlPeer {
  /** Rows passing the must rules, as PostgreSQL counted them. */
  eligible: number;
  /** Median and best of the runs, ms. */
  medianMs: number;
  bestMs: number;
  /** Copying the facts into the typed table (not part of the peer's time). */
  copyMs: number;
}

const BATCH = 10_000;
const quote = (name: string) => `"${name.replace(/"/g, '""')}"`;
const literal = (value: unknown): string =>
  typeof value === 'number' || typeof value === 'boolean' ? String(value) : `'${String(value).replace(/'/g, "''")}'`;

function condition(rule: Rule): string {
  const column = quote(rule.field);
  switch (rule.op) {
    case 'in':
      return `${column} in (${(rule.value as unknown[]).map(literal).join(', ')})`;
    case 'between': {
      const [low, high] = rule.value as [number, number];
      return `${column} between ${low} and ${high}`;
    }
    default:
      return `${column} ${rule.op} ${literal(rule.value)}`;
  }
}

/** The spec's fields of a market's current vintage in a typed table `table` (dropped first). */
async function typedFacts(databaseUrl: string, market: string, fields: string[], table: string): Promise<void> {
  const handle = await openDatabase({ databaseUrl });
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ id: string }>(
      'select v.id from discovery.markets m join discovery.vintages v on v.id = m.current_vintage_id where m.slug = $1',
      [market],
    );
    const index = await loadVintageIndex(discoveryDb(handle.db), rows[0]!.id);
    const columns = fields.map((field) => index.column(field));
    // The type each column takes from its first value (a field with no value at all is text).
    const types = columns.map((column) => {
      for (let row = 0; row < index.size; row++) {
        const value = valueAt(column, row);
        if (value !== null) return typeof value === 'number' ? 'float8' : typeof value === 'boolean' ? 'bool' : 'text';
      }
      return 'text';
    });
    await client.query(`drop table if exists ${table}`);
    await client.query(`create unlogged table ${table} (parcel_key text not null, ${fields.map((field, f) => `${quote(field)} ${types[f]}`).join(', ')})`);
    const unnest = ['$1::text[]', ...types.map((type, f) => `$${f + 2}::${type}[]`)].join(', ');
    for (let start = 0; start < index.size; start += BATCH) {
      const end = Math.min(index.size, start + BATCH);
      const keys: string[] = [];
      const values: unknown[][] = fields.map(() => []);
      for (let row = start; row < end; row++) {
        keys.push(index.keys.at(row)!);
        columns.forEach((column, f) => values[f]!.push(valueAt(column, row)));
      }
      await client.query(`insert into ${table} select * from unnest(${unnest})`, [keys, ...values]);
    }
    await client.query(`analyze ${table}`);
  } finally {
    await client.end();
    await handle.close();
  }
}

export async function sqlRankingPeer(databaseUrl: string, market: string, draft: BuyBoxDraft, runs = 5): Promise<SqlPeer> {
  const fields = [...new Set([...draft.must, ...draft.preferred].map((rule) => rule.field))];
  const table = 'public.bench_sql_ranking_peer';
  let started = performance.now();
  await typedFacts(databaseUrl, market, fields, table);
  const copyMs = performance.now() - started;
  const where = draft.must.map((rule) => (rule.unknown === 'review' ? `(${quote(rule.field)} is null or ${condition(rule)})` : `coalesce(${condition(rule)}, false)`)).join(' and ');
  const total = draft.preferred.reduce((sum, rule) => sum + (rule.weight ?? 1), 0);
  const score = draft.preferred.map((rule) => `case when ${condition(rule)} then ${rule.weight ?? 1} else 0 end`).join(' + ');
  const statement = `with eligible as (select parcel_key, (${score}) * 100.0 / ${total} as score from ${table} where ${where})
    select (select count(*) from eligible) as eligible, page.* from (select parcel_key, score from eligible order by score desc, parcel_key limit 50) page`;
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const times: number[] = [];
    let eligible = 0;
    for (let run = 0; run < runs; run++) {
      started = performance.now();
      const { rows } = await client.query<{ eligible: string }>(statement);
      times.push(performance.now() - started);
      eligible = Number(rows[0]?.eligible ?? 0);
    }
    await client.query(`drop table if exists ${table}`);
    times.sort((a, b) => a - b);
    return { eligible, medianMs: times[Math.floor(times.length / 2)]!, bestMs: times[0]!, copyMs };
  } finally {
    await client.end();
  }
}
