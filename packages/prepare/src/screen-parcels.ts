// One page of parcels screened on the engine: point fields at the parcel's representative point
// (the lat/lon its record stores: parcel-io's representativePoint, the centroid of the largest
// polygon's outer ring), parcel-overlay fields on its own polygon (the parcel matched to itself,
// exact_intersect). Each answer becomes a derived fact, nulls included (D14: rules see unknown).
//
// Provenance: every parcel's fact of a field comes from the same layer versions, so it is kept
// once per field (PreparedProvenances, stored on the vintage) and a parcel stores only what
// differs — the reason of a null that is not the field's usual one, or a whole entry (a parcel
// without a location). Discovery's readers put the two back together (field-provenance.ts).

import type { ColumnarPage, FieldProvenance, PreparedProvenance } from '@landscreen/discovery-service';
import type { AnswerRowSink, EngineAnswer, FieldValue, PolygonalGeometry, Provenance } from '@landscreen/point-engine';
import type { ParcelRecord } from '@landscreen/parcel-io';
import type { PageEvaluator } from './engine-pool.js';

export type { PreparedProvenance };

export interface ScreenContext {
  /** The engine, in process or on workers (engine-pool.ts). */
  evaluator: PageEvaluator;
  fields: readonly string[];
  /** The vintage the parcels are read from: the parcel overlays' provenance. */
  baseVintageId: string;
  /** The source each field reads, for the provenance of a null with no layer behind it. */
  sourceOf: (field: string) => string | null;
  provenances: PreparedProvenances;
  /** Called once, when the page that decides the provenances has decided them (before its facts are kept). */
  onDecided?(provenances: PreparedProvenances): Promise<void>;
}

/**
 * The provenance of each prepared field, decided on the first page with a located parcel: the
 * engine provenance of that page's first located parcel, and the null reason most of the page's
 * nulls of that provenance give. Any parcel differing from it stores its difference.
 */
export class PreparedProvenances {
  /** Per field: the engine provenance the vintage's entry stands for (null: no layer); undefined until decided. */
  private readonly chosen: (Provenance | null | undefined)[];
  private readonly usualReason: (string | null)[];
  private readonly entries: (PreparedProvenance | undefined)[];
  private readonly made = new Map<string | null, Map<string, PreparedProvenance>>();
  readonly preparedFields: ReadonlySet<string>;

  constructor(
    private readonly fields: readonly string[],
    private readonly sourceOf: (field: string) => string | null,
  ) {
    this.chosen = new Array(fields.length).fill(undefined);
    this.usualReason = new Array(fields.length).fill(null);
    this.entries = new Array(fields.length).fill(undefined);
    this.preparedFields = new Set(fields);
  }

  get decided(): boolean {
    return this.chosen[0] !== undefined || this.fields.length === 0;
  }

  /** What decide() chose, as stored data: another process adopts it (adopt) to store alike. */
  decision(): ProvenanceDecision {
    return this.fields.map((_, f) => ({ provenance: plainProvenance(this.chosen[f] ?? null), reason: this.usualReason[f] }));
  }

  /**
   * Takes another process's decision (of the same fields) instead of this one's: every chunk of
   * a vintage prepared over workers stores its parcels' provenance against the same entries.
   */
  adopt(decision: ProvenanceDecision): void {
    this.fields.forEach((field, f) => {
      const { provenance, reason } = decision[f]!;
      this.chosen[f] = provenance;
      this.usualReason[f] = reason;
      this.entries[f] = this.entry(field, provenance, null);
    });
  }

  decide(answer: EngineAnswer): void {
    if (this.decided || answer.size === 0) return;
    this.fields.forEach((field, f) => {
      const chosen = answer.provenance(0, f);
      const counts = new Map<string, number>();
      for (let n = 0; n < answer.size; n++) {
        if (answer.provenance(n, f) !== chosen) continue;
        const reason = answer.reason(n, f);
        if (reason !== null) counts.set(reason, (counts.get(reason) ?? 0) + 1);
      }
      let usual: string | null = null;
      for (const [reason, count] of counts) if (usual === null || count > counts.get(usual)!) usual = reason;
      this.chosen[f] = chosen;
      this.usualReason[f] = usual;
      this.entries[f] = this.entry(field, chosen, null);
    });
  }

  /**
   * Per field, the id in `answer` of the provenance the vintage stores for it (0 when none: no
   * value then takes the fast path of screenParcels).
   */
  usualIds(answer: EngineAnswer): Uint32Array {
    const ids = new Uint32Array(this.fields.length);
    const idOf = new Map<string, number>();
    answer.provenances.forEach((provenance, i) => idOf.set(keyOf(provenance), i + 1));
    this.chosen.forEach((chosen, f) => {
      // Undecided: an id no value has, so every value goes the long way.
      ids[f] = chosen === undefined ? 0xffffffff : chosen === null ? 0 : (idOf.get(keyOf(chosen)) ?? 0xffffffff);
    });
    return ids;
  }

  /** What a parcel stores for field f: nothing (undefined), a null reason, or a whole entry. */
  stored(f: number, provenance: Provenance | null, reason: string | null): string | PreparedProvenance | undefined {
    if (this.chosen[f] !== undefined && sameProvenance(provenance, this.chosen[f])) {
      return reason === null || reason === this.usualReason[f] ? undefined : reason;
    }
    return this.entry(this.fields[f], provenance, reason);
  }

  /** The vintage's provenance per field, for the fields it could decide. */
  fieldProvenance(): FieldProvenance {
    const out: FieldProvenance = {};
    this.fields.forEach((field, f) => {
      const entry = this.entries[f];
      if (!entry) return;
      out[field] = this.usualReason[f] === null ? entry : { ...entry, null_reason: this.usualReason[f]! };
    });
    return out;
  }

  /** The stored entry of a provenance and reason (one object per field, provenance and reason). */
  entry(field: string, provenance: Provenance | null, reason: string | null): PreparedProvenance {
    const provenanceKey = provenance === null ? null : keyOf(provenance);
    let byKey = this.made.get(provenanceKey);
    if (!byKey) this.made.set(provenanceKey, (byKey = new Map()));
    const key = `${field}\u0000${reason ?? ''}`;
    let made = byKey.get(key);
    if (!made) {
      made = entryOf(provenance, this.sourceOf(field));
      if (reason !== null) made = { ...made, null_reason: reason };
      byKey.set(key, made);
    }
    return made;
  }
}

/** Per prepared field: the provenance the vintage stores for it and the null reason it stands for. */
export type ProvenanceDecision = { provenance: Provenance | null; reason: string | null }[];

/** What identifies a provenance (what entryOf reads of it): the engine's objects and stored copies compare alike. */
const keys = new WeakMap<Provenance, string>();
function keyOf(provenance: Provenance): string {
  let key = keys.get(provenance);
  if (key === undefined) keys.set(provenance, (key = JSON.stringify(plainProvenance(provenance))));
  return key;
}

const sameProvenance = (a: Provenance | null, b: Provenance | null) => a === b || (a !== null && b !== null && keyOf(a) === keyOf(b));

function plainProvenance(provenance: Provenance | null): Provenance | null {
  if (provenance === null) return null;
  return { layers: provenance.layers.map(({ source, layer_version }) => ({ source, layer_version })), formula_version: provenance.formula_version } as Provenance;
}

function entryOf(provenance: Provenance | null, sourceWithoutLayer: string | null): PreparedProvenance {
  if (provenance === null || provenance.layers.length === 0) return { source: sourceWithoutLayer, layer_version: null, formula_version: provenance?.formula_version ?? null };
  const layers = provenance.layers.map(({ source, layer_version }) => ({ source, layer_version }));
  const primary = layers.find((layer) => layer.source !== 'parcel_vendor') ?? layers[0];
  return {
    source: primary?.source ?? null,
    layer_version: primary?.layer_version ?? null,
    formula_version: provenance.formula_version,
    ...(layers.length > 1 ? { layers } : {}),
  };
}

export async function screenParcels(context: ScreenContext, records: ParcelRecord[]): Promise<void> {
  await screen(context, records, true);
}

/**
 * screenParcels with the facts left in the engine's answer: the records get their provenance
 * only, and the page hands the facts over as columns (no Map entry per parcel and field).
 */
export async function screenParcelsAsColumns(context: ScreenContext, records: ParcelRecord[]): Promise<ColumnarPage> {
  const { answer, located } = await screen(context, records, false);
  return {
    records,
    fields: context.fields,
    writeFacts(set) {
      const sink = new ColumnFacts(set);
      located.forEach((record, n) => {
        sink.record = record;
        answer.readRow(n, sink);
      });
    },
  };
}

async function screen(context: ScreenContext, records: ParcelRecord[], factsInRecords: boolean) {
  const { fields, provenances } = context;
  const located: number[] = [];
  records.forEach((record, n) => {
    if (record.lat !== null && record.lon !== null) located.push(n);
  });
  const answer = await context.evaluator.evaluate({
    vintage: context.baseVintageId,
    locations: located.map((n) => ({ lat: records[n]!.lat!, lon: records[n]!.lon! })),
    keys: located.map((n) => records[n]!.parcelKey),
    geometries: located.map((n) => polygonal(records[n]!.geometry)),
  });
  const undecided = !provenances.decided;
  provenances.decide(answer);
  if (undecided && provenances.decided) await context.onDecided?.(provenances);
  const facts = new ParcelFacts(answer, fields, provenances, factsInRecords);
  located.forEach((index, n) => {
    const record = records[index]!;
    facts.start(record, n);
    answer.readRow(n, facts);
    record.computed = facts.computed as ParcelRecord['computed'];
  });
  for (const record of records) {
    if (record.lat !== null && record.lon !== null) continue;
    const computed = keptProvenance(record, provenances.preparedFields);
    for (const field of fields) {
      if (factsInRecords) record.derived.set(field, null);
      computed[field] = { source: context.sourceOf(field), layer_version: null, formula_version: null, null_reason: 'no_location' };
    }
    record.computed = computed as ParcelRecord['computed'];
  }
  return { answer, located };
}

/** A located parcel's answers handed over as columns: each non-null value by record and field index. */
class ColumnFacts implements AnswerRowSink {
  record = 0;
  constructor(private readonly set: (record: number, field: number, value: unknown) => void) {}
  number(f: number, value: number): void {
    this.set(this.record, f, value);
  }
  string(f: number, value: string): void {
    this.set(this.record, f, value);
  }
  bool(f: number, value: boolean): void {
    this.set(this.record, f, value);
  }
  null(): void {}
}

/**
 * Takes one located parcel's answers at a time (EngineAnswer.readRow) into its derived facts, and
 * the provenance it stores of them: nothing for a value of the provenance the vintage stores for
 * its field (the common case, compared by provenance id), else what PreparedProvenances says.
 */
class ParcelFacts implements AnswerRowSink {
  private readonly usual: Uint32Array;
  private derived!: ParcelRecord['derived'];
  private location = 0;
  computed: Record<string, unknown> = {};

  constructor(
    private readonly answer: EngineAnswer,
    private readonly fields: readonly string[],
    private readonly provenances: PreparedProvenances,
    /** False: the facts stay in the answer (screenParcelsAsColumns); only provenance is kept here. */
    private readonly intoRecord = true,
  ) {
    this.usual = provenances.usualIds(answer);
  }

  start(record: ParcelRecord, location: number): void {
    this.derived = record.derived;
    this.location = location;
    this.computed = keptProvenance(record, this.provenances.preparedFields);
  }

  number(f: number, value: number): void {
    this.keep(f, value, null);
  }

  string(f: number, value: string): void {
    this.keep(f, value, null);
  }

  bool(f: number, value: boolean): void {
    this.keep(f, value, null);
  }

  null(f: number, reason: string | null): void {
    this.keep(f, null, reason);
  }

  private keep(f: number, value: FieldValue, reason: string | null): void {
    if (this.intoRecord) this.derived.set(this.fields[f], value);
    if (value !== null && this.answer.hasProvenanceId(this.location, f, this.usual[f])) return;
    const stored = this.provenances.stored(f, this.answer.provenance(this.location, f), reason);
    if (stored !== undefined) this.computed[this.fields[f]] = stored;
  }
}

/** The parcel's stored provenance of the facts prepare does not redo (an import's `acres`, fields prepared before). */
function keptProvenance(record: ParcelRecord, prepared: ReadonlySet<string>): Record<string, unknown> {
  const kept: Record<string, unknown> = {};
  for (const field in record.computed) if (!prepared.has(field)) kept[field] = (record.computed as Record<string, unknown>)[field];
  return kept;
}

function polygonal(geometry: ParcelRecord['geometry']): PolygonalGeometry | null {
  return geometry?.type === 'Polygon' || geometry?.type === 'MultiPolygon' ? (geometry as PolygonalGeometry) : null;
}
