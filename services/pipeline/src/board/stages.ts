/** D18: the stages, in board order. */
export const STAGES = ['new', 'researching', 'contacted', 'negotiating', 'under_contract', 'closed', 'archived'] as const;
export type Stage = (typeof STAGES)[number];

/**
 * A stage's place in board order: the items table's generated `stage_rank` (the same order, written
 * in the migration), which leads the board index — filter on it, not on `stage`, to use the index.
 */
export const stageRank = (stage: Stage): number => STAGES.indexOf(stage);

export const isStage = (value: string): value is Stage => (STAGES as readonly string[]).includes(value);

export interface StagePatch {
  stage?: Stage;
  archived?: boolean;
}

/**
 * The spec's pipeline stage state table, row by row: an explicit known stage wins over
 * `archived`; `archived: true` archives; `archived: false` brings an archived card back to `new`
 * and leaves any other card where it is; a patch with neither (notes only) changes nothing.
 * (An unknown stage never gets here: it is a 422 at the gateway.)
 */
export function nextStage(current: Stage, patch: StagePatch): Stage {
  if (patch.stage !== undefined) return patch.stage;
  if (patch.archived === true) return 'archived';
  if (patch.archived === false && current === 'archived') return 'new';
  return current;
}
