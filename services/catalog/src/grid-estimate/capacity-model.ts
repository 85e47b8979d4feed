// The hosting-capacity model, version 1 (docs/decisions.md, "Hosting-capacity estimate"): a grid
// feature of a voltage class supports a typical injection range, scaled down linearly with the
// distance to it and gone at the grid search radius. Pure: the numbers are hand-checkable.

import { SEARCH_RADII_M } from '@landscreen/field-catalog';

export const MODEL_VERSION = 1;

/** Beyond this distance a feature supports nothing (the grid fields' search radius). */
export const REACH_M = SEARCH_RADII_M.substations;

export interface MwRange {
  low: number;
  high: number;
}

/** Typical injection capacity by voltage class, highest class first (lower bound in kV). */
export const VOLTAGE_CLASSES: readonly { minKv: number; mw: MwRange }[] = [
  { minKv: 500, mw: { low: 300, high: 1000 } },
  { minKv: 345, mw: { low: 150, high: 500 } },
  { minKv: 230, mw: { low: 75, high: 250 } },
  { minKv: 115, mw: { low: 30, high: 100 } },
  { minKv: 69, mw: { low: 10, high: 40 } },
  // Distribution voltages, and features whose layer does not give a voltage.
  { minKv: 0, mw: { low: 2, high: 10 } },
];

/** The class range of a voltage; an unknown voltage counts as distribution. */
export function classRange(voltageKv: number | null): MwRange {
  const kv = voltageKv ?? 0;
  return (VOLTAGE_CLASSES.find((voltageClass) => kv >= voltageClass.minKv) ?? VOLTAGE_CLASSES[VOLTAGE_CLASSES.length - 1]).mw;
}

/** 1 at the feature, 0 at and beyond REACH_M. */
export function distanceFactor(distanceM: number): number {
  return Math.max(0, 1 - distanceM / REACH_M);
}

/** What one feature supports: its class range times the distance factor, to 0.1 MW. */
export function featureEstimate(voltageKv: number | null, distanceM: number): MwRange {
  const range = classRange(voltageKv);
  const factor = distanceFactor(distanceM);
  return { low: round(range.low * factor), high: round(range.high * factor) };
}

const round = (mw: number) => Math.round(mw * 10) / 10;
