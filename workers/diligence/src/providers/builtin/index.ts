import type { StepProvider } from '../provider.js';
import { hostingCapacityProvider } from './hosting-capacity.js';
import { ownerContactProvider } from './owner-contact.js';
import { parcelRecordProvider } from './parcel-record.js';
import { pointDataProvider } from './point-data.js';
import { reportProvider } from './report.js';
import { utilityFindingsProvider } from './utility-findings.js';

export { BUILTIN_PROVIDER } from './builtin-result.js';

/** The built-in provider of each default step (D22): computed from stored facts, no outside call. */
export const BUILTIN_PROVIDERS: Readonly<Record<string, StepProvider>> = {
  parcel_record: parcelRecordProvider,
  point_data: pointDataProvider,
  hosting_capacity: hostingCapacityProvider,
  utility_findings: utilityFindingsProvider,
  owner_contact: ownerContactProvider,
  report: reportProvider,
};
