/** The JetStream stream that carries the diligence events (docs/design.md D27). */
export const DILIGENCE_STREAM = 'DILIGENCE';

/** Subjects captured by {@link DILIGENCE_STREAM}. */
export const DILIGENCE_SUBJECTS: string[] = ['diligence.>'];

export const DILIGENCE_JOB_EVENTS = ['created', 'authorized', 'claimed', 'completed', 'failed'] as const;
export const DILIGENCE_STEP_EVENTS = ['completed', 'failed'] as const;

export type DiligenceJobEvent = (typeof DILIGENCE_JOB_EVENTS)[number];
export type DiligenceStepEvent = (typeof DILIGENCE_STEP_EVENTS)[number];
export type DiligenceSubject = `diligence.job.${DiligenceJobEvent}` | `diligence.step.${DiligenceStepEvent}`;

/**
 * The subject of a D27 event; typed so a misspelt event name is a compile error, e.g.
 * `diligenceSubject('job', 'created')` → `'diligence.job.created'`.
 */
export function diligenceSubject<E extends DiligenceJobEvent>(kind: 'job', event: E): `diligence.job.${E}`;
export function diligenceSubject<E extends DiligenceStepEvent>(kind: 'step', event: E): `diligence.step.${E}`;
export function diligenceSubject(kind: 'job' | 'step', event: string): string {
  return `diligence.${kind}.${event}`;
}

/** Every D27 subject, e.g. to check a relay only publishes known subjects. */
export const DILIGENCE_EVENT_SUBJECTS: readonly DiligenceSubject[] = [
  ...DILIGENCE_JOB_EVENTS.map((event) => diligenceSubject('job', event)),
  ...DILIGENCE_STEP_EVENTS.map((event) => diligenceSubject('step', event)),
];

/**
 * NATS subject matching: tokens are separated by `.`, `*` matches exactly one token and `>`
 * (only as the last token) matches one or more remaining tokens.
 */
export function subjectMatches(filter: string, subject: string): boolean {
  const filterTokens = filter.split('.');
  const subjectTokens = subject.split('.');
  for (let i = 0; i < filterTokens.length; i++) {
    const token = filterTokens[i];
    if (token === '>') return i === filterTokens.length - 1 && subjectTokens.length > i;
    if (i >= subjectTokens.length) return false;
    if (token !== '*' && token !== subjectTokens[i]) return false;
  }
  return filterTokens.length === subjectTokens.length;
}

/** True when `subject` is concrete (no wildcard tokens, no empty tokens): publishable. */
export function isConcreteSubject(subject: string): boolean {
  return subject.length > 0 && subject.split('.').every((t) => t !== '' && t !== '*' && t !== '>' && !/\s/.test(t));
}

/** True when `filter` is a well-formed subject filter (`>` only last, no empty tokens). */
export function isValidFilter(filter: string): boolean {
  const tokens = filter.split('.');
  return tokens.every((t, i) => t !== '' && !/\s/.test(t) && (t !== '>' || i === tokens.length - 1));
}
