import type { StepProvider } from '../provider.js';
import { BUILTIN_PROVIDER, builtinResult } from './builtin-result.js';

/**
 * report: the job's other steps as they stand, one line each (their summaries), with the counts
 * by outcome. Always ready: it reports what the other steps found, whatever that was.
 */
export const reportProvider: StepProvider = {
  name: BUILTIN_PROVIDER,
  async run(input) {
    const others = input.job.steps.filter((step) => step.name !== input.step.name).sort((a, b) => a.position - b.position);
    const lines = others.map((step) => ({
      step: step.name,
      status: step.status,
      summary: typeof step.data?.summary === 'string' ? step.data.summary : null,
    }));
    const byStatus: Record<string, number> = {};
    for (const line of lines) byStatus[line.status] = (byStatus[line.status] ?? 0) + 1;
    const counts = Object.entries(byStatus)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([status, n]) => `${n} ${status.replace('_', ' ')}`)
      .join(', ');
    const summary = `Diligence of parcel ${input.job.parcel_key}: ${lines.length} steps (${counts || 'none'}).`;
    return builtinResult(input, 'ready', summary, { steps: lines, by_status: byStatus }, []);
  },
};
