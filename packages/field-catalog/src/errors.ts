// One error class with a typed code, so the gateway can translate catalog errors to its
// validation answer (D1) with a single check; subclasses carry the offending names.

import { closestMatch } from './suggest.js';

export type CatalogErrorCode = 'unknown_field' | 'unknown_preset' | 'unknown_plan';

export class CatalogError extends Error {
  constructor(
    readonly code: CatalogErrorCode,
    message: string,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

export interface Suggestion {
  /** The name as the caller sent it. */
  readonly name: string;
  /** The closest known name, or null when none is close. */
  readonly did_you_mean: string | null;
}

function suggestionsFor(names: readonly string[], known: Iterable<string>): Suggestion[] {
  const candidates = [...known];
  return names.map((name) => ({ name, did_you_mean: closestMatch(name, candidates) }));
}

function describe(kind: string, suggestions: readonly Suggestion[]): string {
  const parts = suggestions.map(({ name, did_you_mean }) =>
    did_you_mean === null ? `"${name}"` : `"${name}" (did you mean "${did_you_mean}"?)`,
  );
  return `unknown ${kind}${suggestions.length === 1 ? '' : 's'}: ${parts.join(', ')}`;
}

export class UnknownFieldError extends CatalogError {
  readonly names: readonly string[];
  readonly suggestions: readonly Suggestion[];

  constructor(names: readonly string[], knownFields: Iterable<string>) {
    const suggestions = suggestionsFor(names, knownFields);
    super('unknown_field', describe('field', suggestions));
    this.names = [...names];
    this.suggestions = suggestions;
  }
}

export class UnknownPresetError extends CatalogError {
  readonly names: readonly string[];
  readonly suggestions: readonly Suggestion[];

  constructor(name: string, knownPresets: Iterable<string>) {
    const suggestions = suggestionsFor([name], knownPresets);
    super('unknown_preset', describe('preset', suggestions));
    this.names = [name];
    this.suggestions = suggestions;
  }
}

export class UnknownPlanError extends CatalogError {
  readonly planId: string;

  constructor(planId: string) {
    super('unknown_plan', `unknown plan: "${planId}"`);
    this.planId = planId;
  }
}
