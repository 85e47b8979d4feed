import type { Contact, PropertyDiligence } from '@landscreen/api-schemas';
import type { diligencev1 } from '@landscreen/proto';
import { customerContactJson } from './contact.js';
import { openJson } from './open-json.js';

/** The customer-readable diligence of a property (D28): per step its status, a summary and citations. */
export function propertyDiligenceResultJson(diligence: diligencev1.PropertyDiligence): PropertyDiligence {
  return {
    job_id: diligence.jobId,
    status: diligence.status as PropertyDiligence['status'],
    updated_at: diligence.updatedAt,
    steps: diligence.steps.map((step) => ({
      name: step.name,
      status: step.status as PropertyDiligence['steps'][number]['status'],
      summary: step.summary,
      citations: openJson(step.citationsJson, []),
      completed_at: step.completedAt ?? null,
    })),
  };
}

/**
 * The property page's `contacts` and `diligence` (D28) from DiligenceService's
 * GetPropertyDiligence answer, which the pipeline passes through.
 */
export function propertyDiligenceJson(answer: diligencev1.GetPropertyDiligenceResponse | undefined): { contacts: Contact[]; diligence: PropertyDiligence | null } {
  if (!answer) return { contacts: [], diligence: null };
  return {
    contacts: answer.contacts.map(customerContactJson),
    diligence: answer.diligence ? propertyDiligenceResultJson(answer.diligence) : null,
  };
}
