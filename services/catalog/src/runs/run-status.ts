// A run's states: on their own, so the table types (schema.ts) and the run rows' readers
// (run-rows.ts, which needs the table types) both name them without importing each other.

/** A run's states (D35): queued → running → succeeded | failed, and cancelled from queued or running. */
export const RUN_STATUSES = ['queued', 'running', 'succeeded', 'cancelled', 'failed'] as const;
export type RunStatus = (typeof RUN_STATUSES)[number];

/** States a run never leaves. */
export const FINAL_STATUSES: readonly RunStatus[] = ['succeeded', 'cancelled', 'failed'];
