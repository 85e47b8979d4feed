// `--where`: a small, safe filter on a file's attributes, in the SQL subset ogr2ogr users know:
//
//   expr    := or
//   or      := and ("OR" and)*
//   and     := not ("AND" not)*
//   not     := "NOT" not | primary
//   primary := "(" expr ")" | field compare
//   compare := op value | ["NOT"] "IN" "(" value ("," value)* ")" | ["NOT"] "LIKE" 'pattern'
//            | "IS" ["NOT"] "NULL"
//   op      := = | != | <> | < | <= | > | >=
//   value   := 'text' ('' for a quote) | number
//   field   := NAME | "quoted name"
//
// Parsed once into a closure; nothing is evaluated as code. Keywords are case-insensitive,
// LIKE is case-sensitive with % and _ wildcards, as in SQL. A comparison with an absent or null
// attribute is false (SQL's unknown), so `NOT` of it is false too. Nesting is bounded, so a
// hostile expression cannot exhaust the stack.

export type WherePredicate = (properties: Record<string, unknown>) => boolean;

export interface WhereExpression {
  readonly text: string;
  /** The attribute names it reads, for checking them against a file. */
  readonly fields: readonly string[];
  readonly test: WherePredicate;
}

export class WhereSyntaxError extends Error {
  override readonly name = 'WhereSyntaxError';
}

const MAX_NESTING = 32;

type Token =
  | { kind: 'name'; value: string; at: number; quoted: boolean }
  | { kind: 'string'; value: string; at: number }
  | { kind: 'number'; value: number; at: number }
  | { kind: 'op'; value: string; at: number }
  | { kind: 'punct'; value: '(' | ')' | ','; at: number }
  | { kind: 'end'; at: number };

type Value = string | number;
/** SQL's three values: true, false, or unknown (null) where an attribute is missing. */
type Truth = boolean | null;
type Node = (properties: Record<string, unknown>) => Truth;

export function parseWhere(text: string): WhereExpression {
  const tokens = tokenize(text);
  const fields = new Set<string>();
  let index = 0;
  let depth = 0;
  const peek = () => tokens[index];
  const next = () => tokens[index++];
  const fail = (message: string, at = peek().at): never => {
    throw new WhereSyntaxError(`--where ${JSON.stringify(text)}: ${message} at character ${at + 1}`);
  };
  const keyword = (word: string): boolean => {
    const token = peek();
    if (token.kind === 'name' && !token.quoted && token.value.toUpperCase() === word) {
      index++;
      return true;
    }
    return false;
  };

  const or = (): Node => {
    const parts = [and()];
    while (keyword('OR')) parts.push(and());
    return parts.length === 1 ? parts[0] : (p) => anyOf(parts, p);
  };
  const and = (): Node => {
    const parts = [not()];
    while (keyword('AND')) parts.push(not());
    return parts.length === 1 ? parts[0] : (p) => allOf(parts, p);
  };
  const not = (): Node => {
    if (keyword('NOT')) {
      const inner = nested(not);
      return (p) => {
        const value = inner(p);
        return value === null ? null : !value;
      };
    }
    return primary();
  };
  const nested = (parse: () => Node): Node => {
    if (++depth > MAX_NESTING) fail(`nested more than ${MAX_NESTING} levels`);
    const node = parse();
    depth--;
    return node;
  };
  const primary = (): Node => {
    const token = peek();
    if (token.kind === 'punct' && token.value === '(') {
      next();
      const inner = nested(or);
      expectPunct(')');
      return inner;
    }
    if (token.kind !== 'name' || (!token.quoted && KEYWORDS.has(token.value.toUpperCase()))) {
      return fail(`expected an attribute name, found ${describe(token)}`);
    }
    next();
    fields.add(token.value);
    return comparison(token.value);
  };
  const comparison = (field: string): Node => {
    const token = peek();
    if (token.kind === 'op' && token.value !== '-') {
      next();
      const operand = value();
      return compareWith(field, token.value, operand);
    }
    if (keyword('IS')) {
      const negated = keyword('NOT');
      if (!keyword('NULL')) fail('expected NULL after IS');
      return (p) => isNull(p[field]) !== negated;
    }
    const negated = keyword('NOT');
    if (keyword('IN')) {
      expectPunct('(');
      const values = [value()];
      while (peek().kind === 'punct' && (peek() as { value: string }).value === ',') {
        next();
        values.push(value());
      }
      expectPunct(')');
      return (p) => {
        const raw = p[field];
        if (isNull(raw)) return null;
        const found = values.some((candidate) => equals(raw, candidate));
        return found !== negated;
      };
    }
    if (keyword('LIKE')) {
      const pattern = value();
      if (typeof pattern !== 'string') fail('LIKE takes a quoted pattern');
      const regex = likeRegex(pattern as string);
      return (p) => {
        const raw = p[field];
        if (isNull(raw)) return null;
        return regex.test(String(raw)) !== negated;
      };
    }
    return fail(`expected a comparison (=, !=, <, <=, >, >=, IN, LIKE, IS NULL) after ${field}, found ${describe(peek())}`);
  };
  const value = (): Value => {
    const token = next();
    if (token.kind === 'string' || token.kind === 'number') return token.value;
    if (token.kind === 'op' && token.value === '-') {
      const number = next();
      if (number.kind === 'number') return -number.value;
    }
    return fail(`expected a quoted text or a number, found ${describe(token)}`, token.at);
  };
  const expectPunct = (punct: '(' | ')') => {
    const token = next();
    if (token.kind !== 'punct' || token.value !== punct) fail(`expected "${punct}", found ${describe(token)}`, token.at);
  };

  if (peek().kind === 'end') fail('the expression is empty');
  const root = or();
  if (peek().kind !== 'end') fail(`unexpected ${describe(peek())}`);
  return { text, fields: [...fields], test: (properties) => root(properties) === true };
}

const KEYWORDS = new Set(['AND', 'OR', 'NOT', 'IN', 'LIKE', 'IS', 'NULL']);

function anyOf(parts: readonly Node[], properties: Record<string, unknown>): Truth {
  let unknown = false;
  for (const part of parts) {
    const value = part(properties);
    if (value === true) return true;
    if (value === null) unknown = true;
  }
  return unknown ? null : false;
}

function allOf(parts: readonly Node[], properties: Record<string, unknown>): Truth {
  let unknown = false;
  for (const part of parts) {
    const value = part(properties);
    if (value === false) return false;
    if (value === null) unknown = true;
  }
  return unknown ? null : true;
}

function isNull(raw: unknown): boolean {
  return raw === null || raw === undefined;
}

/** A number compares as a number with a number or numeric text; text compares as text. */
function comparable(raw: unknown, operand: Value): [Value, Value] | null {
  if (typeof operand === 'number') {
    const value = typeof raw === 'number' ? raw : typeof raw === 'string' && raw.trim() !== '' ? Number(raw) : Number.NaN;
    return Number.isNaN(value) ? null : [value, operand];
  }
  return [typeof raw === 'string' ? raw : String(raw), operand];
}

function equals(raw: unknown, operand: Value): boolean {
  const pair = comparable(raw, operand);
  return pair !== null && pair[0] === pair[1];
}

function compareWith(field: string, op: string, operand: Value): Node {
  return (properties) => {
    const raw = properties[field];
    if (isNull(raw)) return null;
    const pair = comparable(raw, operand);
    if (pair === null) return op === '!=' || op === '<>';
    const [a, b] = pair;
    switch (op) {
      case '=':
        return a === b;
      case '!=':
      case '<>':
        return a !== b;
      case '<':
        return a < b;
      case '<=':
        return a <= b;
      case '>':
        return a > b;
      default:
        return a >= b;
    }
  };
}

function likeRegex(pattern: string): RegExp {
  let source = '';
  for (const char of pattern) {
    if (char === '%') source += '[\\s\\S]*';
    else if (char === '_') source += '[\\s\\S]';
    else source += char.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${source}$`);
}

function describe(token: Token): string {
  switch (token.kind) {
    case 'end':
      return 'the end';
    case 'string':
      return `'${token.value}'`;
    case 'number':
      return String(token.value);
    default:
      return JSON.stringify(token.value);
  }
}

function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  const fail = (message: string, at: number): never => {
    throw new WhereSyntaxError(`--where ${JSON.stringify(text)}: ${message} at character ${at + 1}`);
  };
  while (i < text.length) {
    const char = text[i];
    if (/\s/.test(char)) {
      i++;
    } else if (char === "'" || char === '"') {
      const start = i;
      let value = '';
      i++;
      for (;;) {
        if (i >= text.length) fail(`unclosed ${char === "'" ? 'text' : 'name'}`, start);
        if (text[i] === char) {
          if (text[i + 1] === char) {
            value += char;
            i += 2;
            continue;
          }
          i++;
          break;
        }
        value += text[i++];
      }
      tokens.push(char === "'" ? { kind: 'string', value, at: start } : { kind: 'name', value, at: start, quoted: true });
    } else if (/[0-9.]/.test(char)) {
      const match = /^(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?/.exec(text.slice(i));
      if (match === null) fail(`unexpected "${char}"`, i);
      tokens.push({ kind: 'number', value: Number(match![0]), at: i });
      i += match![0].length;
    } else if (/[A-Za-z_]/.test(char)) {
      const match = /^[A-Za-z_][A-Za-z0-9_]*/.exec(text.slice(i))!;
      tokens.push({ kind: 'name', value: match[0], at: i, quoted: false });
      i += match[0].length;
    } else if (char === '(' || char === ')' || char === ',') {
      tokens.push({ kind: 'punct', value: char, at: i });
      i++;
    } else {
      const match = /^(<=|>=|<>|!=|=|<|>|-)/.exec(text.slice(i));
      if (match === null) fail(`unexpected "${char}"`, i);
      tokens.push({ kind: 'op', value: match![0], at: i });
      i += match![0].length;
    }
  }
  tokens.push({ kind: 'end', at: text.length });
  return tokens;
}
