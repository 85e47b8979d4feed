import { describe, expect, it } from 'vitest';
import { DILIGENCE_EVENT_SUBJECTS, DILIGENCE_SUBJECTS, diligenceSubject, subjectMatches } from './subjects.js';

describe('subjectMatches', () => {
  it.each([
    ['a.b.c', 'a.b.c', true],
    ['a.b.c', 'a.b', false],
    ['a.b', 'a.b.c', false],
    ['a.*.c', 'a.b.c', true],
    ['a.*.c', 'a.b.x', false],
    ['a.*', 'a.b.c', false],
    ['*', 'a', true],
    ['*', 'a.b', false],
    ['a.>', 'a.b', true],
    ['a.>', 'a.b.c.d', true],
    ['a.>', 'a', false],
    ['>', 'a.b', true],
    ['*.b.>', 'x.b.c', true],
    ['*.b.>', 'x.c.c', false],
    ['diligence.job.*', 'diligence.job.created', true],
    ['diligence.job.*', 'diligence.step.completed', false],
  ])('%s ~ %s → %s', (filter, subject, expected) => {
    expect(subjectMatches(filter, subject)).toBe(expected);
  });
});

describe('diligence subjects', () => {
  it('names the D27 subjects, all captured by the stream', () => {
    expect(diligenceSubject('job', 'authorized')).toBe('diligence.job.authorized');
    expect(diligenceSubject('step', 'failed')).toBe('diligence.step.failed');
    expect(DILIGENCE_EVENT_SUBJECTS).toHaveLength(7);
    for (const s of DILIGENCE_EVENT_SUBJECTS) expect(DILIGENCE_SUBJECTS.some((f) => subjectMatches(f, s))).toBe(true);
  });
});
