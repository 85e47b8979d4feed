import { describe, expect, it } from 'vitest';
import { nextStage, STAGES, type Stage, type StagePatch } from './stages.js';

// The spec's "Pipeline stage" table, one row per case (the 422 row is the gateway's).
const TABLE: [Stage, StagePatch, Stage, string][] = [
  ['new', { stage: 'researching' }, 'researching', 'a known stage moves the card'],
  ['archived', { stage: 'contacted' }, 'contacted', 'a known stage moves an archived card'],
  ['new', { stage: 'closed', archived: true }, 'closed', 'explicit stage wins over archived=true'],
  ['archived', { stage: 'negotiating', archived: false }, 'negotiating', 'explicit stage wins over archived=false'],
  ['researching', { archived: true }, 'archived', 'archived=true archives'],
  ['archived', { archived: true }, 'archived', 'archiving twice stays archived'],
  ['archived', { archived: false }, 'new', 'archived=false returns an archived card to new'],
  ['contacted', { archived: false }, 'contacted', 'archived=false leaves a live card where it is'],
  ['under_contract', {}, 'under_contract', 'notes only: stage unchanged'],
];

describe('the pipeline stage state table', () => {
  it.each(TABLE)('%s + %j → %s (%s)', (current, patch, expected) => {
    expect(nextStage(current, patch)).toBe(expected);
  });

  it('orders the stages as the board shows them (D18)', () => {
    expect(STAGES).toEqual(['new', 'researching', 'contacted', 'negotiating', 'under_contract', 'closed', 'archived']);
  });
});
