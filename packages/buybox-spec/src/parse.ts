// The buy-box text language of D12 (`POST /v1/buyboxes/parse`): one statement per line —
// `market: …`, `must: …`, `prefer: … weight N`, `pursue: N`, `monitor: N` — or a bare phrasing
// ("at least 50 acres"), which is a must. Parsing never fails: what cannot be read becomes a
// warning naming its line, so a user pasting a buy box from an email gets a draft to correct
// plus a list of what to look at.

import { DRAFT_LIMITS } from './normalise.js';
import { valueShapeError } from './ops.js';
import { NEGATED } from './parse/lexicon.js';
import { gradeProblem, ZERO_AT_BOUND } from './grade.js';
import { quantityFor, readQuantity, stripComment, unquote } from './parse/literals.js';
import { parseRuleText, type ParsedRule, type RuleContext } from './parse/rule-text.js';
import { suggestField, unknownFieldSentence } from './suggest.js';
import type { Cutoffs, DiscoveryDraft, PreferredRule, Rule, UnknownPolicy } from './types.js';

export interface ParseOptions {
  /** Whether a rule may name this field (catalog plus parcel schema). */
  knownField(field: string): boolean;
  /** The known field names, for did-you-mean and for phrasings that name a field loosely. */
  fieldNames: readonly string[];
  /** The unit a field is stored in, when the catalog does not say (typed parcel columns). */
  unitOf?(field: string): string | null | undefined;
}

export interface ParseResult {
  draft: DiscoveryDraft;
  warnings: string[];
}

/** Cutoffs a text without `pursue:`/`monitor:` lines gets (and is warned about). */
export const DEFAULT_CUTOFFS: Readonly<Cutoffs> = Object.freeze({ pursue: 70, monitor: 40 });

/** A preferred rule written without `weight N` weighs 1. */
export const DEFAULT_WEIGHT = 1;

type Statement =
  | { kind: 'market'; body: string }
  | { kind: 'must' | 'must_not' | 'prefer'; body: string }
  | { kind: 'pursue' | 'monitor'; body: string }
  | { kind: 'unknown_key'; key: string; body: string };

const KEYS: Readonly<Record<string, Statement['kind']>> = {
  market: 'market',
  markets: 'market',
  must: 'must',
  'must have': 'must',
  require: 'must',
  required: 'must',
  requires: 'must',
  requirement: 'must',
  need: 'must',
  needs: 'must',
  'must not': 'must_not',
  'must not have': 'must_not',
  never: 'must_not',
  prefer: 'prefer',
  prefers: 'prefer',
  preferred: 'prefer',
  preference: 'prefer',
  'nice to have': 'prefer',
  want: 'prefer',
  bonus: 'prefer',
  pursue: 'pursue',
  'pursue cutoff': 'pursue',
  'pursue at': 'pursue',
  monitor: 'monitor',
  'monitor cutoff': 'monitor',
  'monitor at': 'monitor',
};

function keyOf(words: string): string {
  return words.toLowerCase().replace(/[-_]+/g, ' ').replace(/\s+/g, ' ').trim();
}

/** What a line says: a keyed statement (`must: …`, or `must …` without the colon) or a bare rule. */
function statementOf(line: string): Statement {
  const keyed = /^([A-Za-z][A-Za-z _-]*?)\s*:\s*(.*)$/.exec(line);
  if (keyed) {
    const kind = KEYS[keyOf(keyed[1])];
    if (kind) return { kind, body: keyed[2] } as Statement;
    return { kind: 'unknown_key', key: keyed[1].trim(), body: keyed[2] };
  }
  // The same keywords without the colon. `market` and the cutoffs only with a value of their
  // own shape, so that a rule such as "market value over 500000" is not read as a market name.
  const rule = /^(must\s+not|must|prefer(?:red)?)\s+(.+)$/i.exec(line);
  if (rule) return { kind: KEYS[keyOf(rule[1])], body: rule[2] } as Statement;
  const market = /^markets?\s*=?\s*([A-Za-z0-9][\w-]*)$/i.exec(line);
  if (market) return { kind: 'market', body: market[1] };
  const cutoff = /^(pursue|monitor)\s*((?:=|>=|≥|at|above|from)?\s*[-+]?[\d.]+\s*%?)$/i.exec(line);
  if (cutoff) return { kind: cutoff[1].toLowerCase() as 'pursue' | 'monitor', body: cutoff[2] };
  return { kind: 'must', body: line };
}

interface Modifiers {
  text: string;
  policy: UnknownPolicy | null;
  weight: number | null;
  /** D41: where a preference falls to 0, as written (`8000`, `8 km`); read in the field's unit later. */
  grade: string | null;
}

// Modifiers come at the end of a rule, in either order: `… unknown review weight 3`.
const POLICY_TAIL = /[\s,;(]*\b(?:(?:if|when|on)\s+)?unknown\s*[:=]?\s*(review|exclude)\s*\)?\s*$/i;
const POLICY_TAIL_REVERSED = /[\s,;(]*\b(review|exclude)\s+(?:if|when)\s+(?:unknown|missing)\s*\)?\s*$/i;
const WEIGHT_TAIL = /[\s,;(]*\b(?:weight|weighted|w)\s*[:=]?\s*([-+]?(?:\d+(?:\.\d+)?|\.\d+))\s*\)?\s*$/i;
// D41: `grade 8000`, `grade: 8 km`, `falling to 0 at 8 km`, `fading to zero by 5 miles`. The amount
// must start like a number, so that words of a field phrase are never taken for a grade.
const QUANTITY_TEXT = '([-+]?\\$?\\s*(?:\\d|\\.\\d)[^,;()]*?)';
const GRADE_TAIL = new RegExp(`[\\s,;(]*\\bgraded?\\s*(?:to\\s+(?:0|zero)\\s+at\\s+)?[:=]?\\s*${QUANTITY_TEXT}\\s*\\)?\\s*$`, 'i');
const FALLING_TAIL = new RegExp(
  `[\\s,;(]*\\b(?:falling|fading|dropping|declining|decreasing|tapering)(?:\\s+(?:off|linearly))?\\s+to\\s+(?:0|zero|nothing)\\s+(?:at|by|from)\\s+${QUANTITY_TEXT}\\s*\\)?\\s*$`,
  'i',
);

function stripModifiers(body: string): Modifiers {
  const result: Modifiers = { text: body.trim(), policy: null, weight: null, grade: null };
  for (;;) {
    const policy = POLICY_TAIL.exec(result.text) ?? POLICY_TAIL_REVERSED.exec(result.text);
    if (policy) {
      result.policy ??= policy[1].toLowerCase() as UnknownPolicy;
      result.text = result.text.slice(0, policy.index).trim();
      continue;
    }
    const weight = WEIGHT_TAIL.exec(result.text);
    if (weight) {
      result.weight ??= Number(weight[1]);
      result.text = result.text.slice(0, weight.index).trim();
      continue;
    }
    const grade = GRADE_TAIL.exec(result.text) ?? FALLING_TAIL.exec(result.text);
    if (grade) {
      result.grade ??= grade[1].trim();
      result.text = result.text.slice(0, grade.index).trim();
      continue;
    }
    return result;
  }
}

/** The opposite of a rule, for `must not:` lines; null when no single rule says it. */
function negate(rule: ParsedRule): ParsedRule | null {
  if (rule.op === 'exists') return { ...rule, value: !rule.value };
  // eq true/false on a boolean fact: flip the value rather than writing `ne`, which reads worse.
  if (rule.op === 'eq' && typeof rule.value === 'boolean') return { ...rule, value: !rule.value };
  const op = NEGATED[rule.op];
  return op === undefined ? null : { ...rule, op };
}

// The draft a text gives must be one a buy box can be saved with (DRAFT_LIMITS.scoreInput).
const withinBound = (value: number) => Math.abs(value) <= DRAFT_LIMITS.scoreInput;
const BOUND_TEXT = `±${DRAFT_LIMITS.scoreInput.toLocaleString('en-US')}`;

class TextParser {
  readonly warnings: string[] = [];
  readonly must: Rule[] = [];
  readonly preferred: PreferredRule[] = [];
  market: { value: string; line: number } | null = null;
  readonly cutoffs: { pursue?: { value: number; line: number }; monitor?: { value: number; line: number } } = {};
  private readonly context: RuleContext;

  constructor(private readonly options: ParseOptions) {
    this.context = { knownField: options.knownField, fieldNames: options.fieldNames, unitOf: options.unitOf };
  }

  warn(line: number, message: string): void {
    this.warnings.push(`line ${line}: ${message}`);
  }

  line(number: number, raw: string): void {
    // Bullets and numbering of a pasted list ("- ", "* ", "1. ") are not part of the statement.
    const text = stripComment(raw)
      .trim()
      .replace(/^(?:[-*•]\s+|\d+[.)]\s+)/, '')
      .trim();
    if (text === '') return;
    const statement = statementOf(text);
    switch (statement.kind) {
      case 'market':
        return this.marketLine(number, statement.body);
      case 'pursue':
      case 'monitor':
        return this.cutoffLine(number, statement.kind, statement.body);
      case 'must':
      case 'must_not':
      case 'prefer':
        return this.ruleLine(number, statement.kind, statement.body, text);
      case 'unknown_key': {
        // "slope: under 5 degrees" is a rule written with a colon; anything else is not ours.
        const modifiers = stripModifiers(`${statement.key} ${statement.body}`);
        const parsed = parseRuleText(modifiers.text, this.context);
        if (parsed !== null && !('error' in parsed)) return this.addRule(number, 'must', parsed, modifiers);
        this.warn(
          number,
          `'${statement.key}:' is not part of the buy-box language (market, must, must not, prefer, pursue, monitor); ignored`,
        );
        return;
      }
    }
  }

  private marketLine(number: number, body: string): void {
    const names = body
      .split(',')
      .map((name) => (unquote(name) ?? name).trim())
      .filter((name) => name !== '');
    if (names.length === 0) return this.warn(number, 'market: names no market; ignored');
    if (names.length > 1) this.warn(number, `a buy box has exactly one market; using '${names[0]}'`);
    const name = names[0];
    if (name.length > 100) return this.warn(number, 'a market name has at most 100 characters; ignored');
    if (this.market !== null) {
      this.warn(number, `market given again (first on line ${this.market.line}); using '${name}'`);
    }
    this.market = { value: name, line: number };
  }

  private cutoffLine(number: number, which: 'pursue' | 'monitor', body: string): void {
    const match = /^(?:>=|≥|=|at|above|from)?\s*([-+]?(?:\d+(?:\.\d+)?|\.\d+))\s*%?$/i.exec(body.trim());
    if (!match) return this.warn(number, `${which}: expects a number (a score from 0 to 100), e.g. '${which}: ${DEFAULT_CUTOFFS[which]}'`);
    const value = Number(match[1]);
    if (!withinBound(value)) return this.warn(number, `${which}: ${match[1]} is beyond ${BOUND_TEXT}; ignored`);
    const previous = this.cutoffs[which];
    if (previous) this.warn(number, `${which} cutoff given again (first on line ${previous.line}); using ${match[1]}`);
    this.cutoffs[which] = { value, line: number };
  }

  private ruleLine(number: number, kind: 'must' | 'must_not' | 'prefer', body: string, whole: string): void {
    const modifiers = stripModifiers(body);
    const parsed = parseRuleText(modifiers.text, this.context);
    if (parsed === null) return this.warn(number, `could not understand "${whole}"`);
    if ('error' in parsed) return this.warn(number, `${parsed.error} (in "${whole}")`);
    if (kind === 'must_not') {
      const negated = negate(parsed);
      if (negated === null) return this.warn(number, `'must not' cannot be applied to ${parsed.op}; write the rule the other way round`);
      return this.addRule(number, 'must', negated, modifiers);
    }
    this.addRule(number, kind, parsed, modifiers);
  }

  private addRule(number: number, kind: 'must' | 'prefer', rule: ParsedRule, modifiers: Modifiers): void {
    const problem = valueShapeError(rule.op, rule.value);
    if (problem !== null) return this.warn(number, `${problem}; rule ignored`);
    if (kind === 'prefer' && modifiers.weight !== null && !withinBound(modifiers.weight)) {
      return this.warn(number, `the weight is beyond ${BOUND_TEXT}; rule ignored`);
    }
    if (!this.options.knownField(rule.field)) {
      this.warn(number, unknownFieldSentence(rule.field, suggestField(rule.field, this.options.fieldNames)));
    }
    for (const note of rule.notes) this.warn(number, note);
    if (kind === 'must') {
      if (modifiers.weight !== null) this.warn(number, 'weight applies to prefer: rules only; ignored');
      if (modifiers.grade !== null) this.warn(number, 'a grade applies to prefer: rules only; ignored');
      this.must.push({
        field: rule.field,
        op: rule.op,
        value: rule.value,
        ...(modifiers.policy !== null ? { unknown: modifiers.policy } : {}),
      });
      return;
    }
    if (modifiers.policy !== null) {
      this.warn(number, 'an unknown policy applies to must: rules only (an unknown preferred fact scores 0); ignored');
    }
    if (modifiers.weight === 0) this.warn(number, 'weight 0 makes this preference count for nothing');
    const grade = modifiers.grade === null ? null : this.grade(number, rule, modifiers.grade);
    this.preferred.push({
      field: rule.field,
      op: rule.op,
      value: rule.value,
      weight: modifiers.weight ?? DEFAULT_WEIGHT,
      ...(grade !== null ? { grade: { zero_at: grade } } : {}),
    });
  }

  /** D41: a preference's zero_at in the field's unit, or null (with a warning) when it cannot be one. */
  private grade(number: number, rule: ParsedRule, written: string): number | null {
    const quantity = readQuantity(written);
    if (quantity === null || quantity.rest !== '') {
      this.warn(number, `the grade '${written}' is not a number; the preference is scored all or nothing`);
      return null;
    }
    const converted = quantityFor(quantity, rule.field, this.context);
    if ('error' in converted) {
      this.warn(number, `${converted.error}; the grade is ignored`);
      return null;
    }
    for (const note of converted.notes) this.warn(number, note);
    const zeroAt = converted.value;
    if (Math.abs(zeroAt) > ZERO_AT_BOUND) {
      this.warn(number, `the grade ${written} is beyond ±${ZERO_AT_BOUND}; ignored`);
      return null;
    }
    const problem = gradeProblem(rule.op, rule.value, zeroAt);
    if (problem === null) return zeroAt;
    const why =
      problem.where === 'grade'
        ? problem.sentence
        : `a preference that falls to 0 at ${zeroAt} must name a point ${problem.mustBe === 'greater_than' ? 'above' : 'below'} ${problem.bound}`;
    this.warn(number, `${why}; the grade is ignored`);
    return null;
  }

  finish(): ParseResult {
    if (this.market === null) this.warnings.push("no market given; add a line such as 'market: travis-tx'");
    for (const which of ['pursue', 'monitor'] as const) {
      if (this.cutoffs[which] === undefined) {
        this.warnings.push(`no '${which}:' line; the ${which} cutoff defaults to ${DEFAULT_CUTOFFS[which]}`);
      }
    }
    const cutoffs: Cutoffs = {
      pursue: this.cutoffs.pursue?.value ?? DEFAULT_CUTOFFS.pursue,
      monitor: this.cutoffs.monitor?.value ?? DEFAULT_CUTOFFS.monitor,
    };
    if (cutoffs.monitor > cutoffs.pursue) {
      this.warnings.push(`the monitor cutoff (${cutoffs.monitor}) is above the pursue cutoff (${cutoffs.pursue}); no parcel will be MONITOR`);
    }
    if (this.must.length === 0 && this.preferred.length === 0) {
      this.warnings.push('no must or prefer rules: every parcel of the market would match with score 100');
    }
    return {
      draft: {
        markets: this.market === null ? [] : [this.market.value],
        must: this.must,
        preferred: this.preferred,
        verdict_cutoffs: cutoffs,
      },
      warnings: this.warnings,
    };
  }
}

/** Parses buy-box text into a draft plus warnings (D12). Never throws. */
export function parseBuyBoxText(text: string, options: ParseOptions): ParseResult {
  const parser = new TextParser(options);
  const lines = typeof text === 'string' ? text.split(/\r\n|\r|\n/) : [];
  lines.forEach((line, index) => {
    try {
      parser.line(index + 1, line);
    } catch {
      // A reader bug must not cost the user the rest of the text; the line is reported instead.
      parser.warn(index + 1, `could not understand "${line.trim()}"`);
    }
  });
  return parser.finish();
}
