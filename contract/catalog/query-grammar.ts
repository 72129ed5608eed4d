// Lexer and parser for the `q` search grammar (README "Card Data catalog"): the
// contract's `q` field (query.ts) parses with it, so its syntax errors and caps are
// the contract's; the emulator binds the AST to a game's fields (areas/catalog/query).
//
//   query   := or EOF
//   or      := and ( "OR" and )*
//   and     := unary ( ["AND"] unary )*        (whitespace = AND; an explicit uppercase AND is accepted too)
//   unary   := "-" unary | primary
//   primary := "(" or ")" | term
//   term    := ["!"] [field ":"] value
//   value   := bare | '"' quoted '"' | ("[" | "{") bound " TO " bound ("]" | "}")
//
// Positions are 0-based UTF-16 offsets into q. A term's `fieldPosition` is where
// its field name starts (for a bare term: where its value starts); a value's
// `position` is where the value starts (its opening quote or bracket).
import { parseError, tooComplex } from "./query-errors.ts";
import { isSpace } from "./query-text.ts";

/** `q`: at most this many characters, terms and nesting levels (400 query_too_complex). */
export const MAX_QUERY_LENGTH = 512;
export const MAX_TERMS = 20;
export const MAX_DEPTH = 5;

export interface TextValue {
  kind: "text";
  /** Unquoted/unescaped text, original case. */
  text: string;
  quoted: boolean;
  position: number;
}

export interface RangeBound {
  /** Bound text; `*` when open. */
  text: string;
  open: boolean;
  position: number;
}

export interface RangeValue {
  kind: "range";
  lower: RangeBound;
  upper: RangeBound;
  lowerInclusive: boolean;
  upperInclusive: boolean;
  position: number;
}

export interface TermNode {
  kind: "term";
  /** Lower-cased field name, or null for a bare term (matches `name`). */
  field: string | null;
  /** Field name as written (for messages). */
  rawField: string | null;
  fieldPosition: number;
  /** `!field:value`: whole-value match. */
  exact: boolean;
  value: TextValue | RangeValue;
  /** Start of the term (its `!` when present). */
  position: number;
}

export interface NotNode {
  kind: "not";
  child: QueryNode;
  position: number;
}

export interface AndNode {
  kind: "and";
  children: QueryNode[];
}

export interface OrNode {
  kind: "or";
  children: QueryNode[];
}

export type QueryNode = TermNode | NotNode | AndNode | OrNode;

type Token =
  | { t: "("; pos: number }
  | { t: ")"; pos: number }
  | { t: "OR"; pos: number }
  | { t: "AND"; pos: number }
  | { t: "-"; pos: number }
  | { t: "term"; pos: number; node: TermNode }
  | { t: "eof"; pos: number };

const LPAREN = 40;
const RPAREN = 41;
const QUOTE = 34;
const BACKSLASH = 92;
const MINUS = 45;
const BANG = 33;
const COLON = 58;

function isDelimiter(q: string, i: number): boolean {
  if (i >= q.length) return true;
  const c = q.charCodeAt(i);
  return isSpace(c) || c === LPAREN || c === RPAREN;
}

function isFieldChar(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 95 || c === 46;
}

function isWord(q: string, i: number, word: string): boolean {
  return q.startsWith(word, i) && isDelimiter(q, i + word.length);
}

class Lexer {
  private i = 0;
  constructor(private readonly q: string) {}

  tokens(): Token[] {
    const out: Token[] = [];
    const q = this.q;
    for (;;) {
      while (this.i < q.length && isSpace(q.charCodeAt(this.i))) this.i++;
      const pos = this.i;
      if (pos >= q.length) {
        out.push({ t: "eof", pos });
        return out;
      }
      const c = q.charCodeAt(pos);
      if (c === LPAREN) {
        out.push({ t: "(", pos });
        this.i++;
      } else if (c === RPAREN) {
        out.push({ t: ")", pos });
        this.i++;
      } else if (isWord(q, pos, "OR")) {
        out.push({ t: "OR", pos });
        this.i += 2;
      } else if (isWord(q, pos, "AND")) {
        out.push({ t: "AND", pos });
        this.i += 3;
      } else if (c === MINUS) {
        if (pos + 1 >= q.length || isSpace(q.charCodeAt(pos + 1)) || q.charCodeAt(pos + 1) === RPAREN) {
          throw parseError(`"-" must be followed by a term or a group`, pos);
        }
        out.push({ t: "-", pos });
        this.i++;
      } else {
        out.push({ t: "term", pos, node: this.term() });
      }
    }
  }

  private term(): TermNode {
    const q = this.q;
    const position = this.i;
    let exact = false;
    if (q.charCodeAt(this.i) === BANG) {
      const next = q.charCodeAt(this.i + 1);
      if (isDelimiter(q, this.i + 1) || next === MINUS || next === BANG) {
        throw parseError(`"!" must be followed by field:value`, position);
      }
      exact = true;
      this.i++;
    }
    let field: string | null = null;
    let rawField: string | null = null;
    const fieldPosition = this.i;
    let j = this.i;
    while (j < q.length && isFieldChar(q.charCodeAt(j))) j++;
    if (j > this.i && q.charCodeAt(j) === COLON) {
      rawField = q.slice(this.i, j);
      field = rawField.toLowerCase();
      this.i = j + 1;
      if (isDelimiter(q, this.i)) throw parseError(`empty value for field "${rawField}"`, this.i);
    } else if (q.charCodeAt(this.i) === COLON) {
      throw parseError('missing field name before ":"', this.i);
    }
    const value = this.value();
    return {
      kind: "term",
      field,
      rawField,
      fieldPosition: field === null ? value.position : fieldPosition,
      exact,
      value,
      position,
    };
  }

  private value(): TextValue | RangeValue {
    const q = this.q;
    const position = this.i;
    const c = q.charCodeAt(position);
    if (c === QUOTE) {
      let text = "";
      let k = position + 1;
      for (;;) {
        if (k >= q.length) throw parseError("unterminated quoted value", position);
        const ch = q.charCodeAt(k);
        if (ch === QUOTE) break;
        if (ch === BACKSLASH && k + 1 < q.length) {
          text += q[k + 1];
          k += 2;
          continue;
        }
        text += q[k];
        k++;
      }
      this.i = k + 1;
      if (!isDelimiter(q, this.i)) throw parseError("unexpected character after closing quote", this.i);
      if (text.trim().length === 0) throw parseError("empty quoted value", position);
      return { kind: "text", text, quoted: true, position };
    }
    if (c === 91 /* [ */ || c === 123 /* { */) return this.range();
    let k = position;
    while (!isDelimiter(q, k)) k++;
    this.i = k;
    return { kind: "text", text: q.slice(position, k), quoted: false, position };
  }

  private range(): RangeValue {
    const q = this.q;
    const position = this.i;
    let k = position + 1;
    while (k < q.length && q[k] !== "]" && q[k] !== "}") k++;
    if (k >= q.length) throw parseError("unterminated range", position);
    const parts: { text: string; position: number }[] = [];
    let p = position + 1;
    while (p < k) {
      while (p < k && isSpace(q.charCodeAt(p))) p++;
      const start = p;
      while (p < k && !isSpace(q.charCodeAt(p))) p++;
      if (p > start) parts.push({ text: q.slice(start, p), position: start });
    }
    if (parts.length !== 3 || parts[1].text !== "TO") {
      throw parseError(`a range must look like [a TO b] or {a TO b}`, position);
    }
    this.i = k + 1;
    if (!isDelimiter(q, this.i)) throw parseError("unexpected character after range", this.i);
    const bound = (b: { text: string; position: number }): RangeBound => ({ ...b, open: b.text === "*" });
    return {
      kind: "range",
      lower: bound(parts[0]),
      upper: bound(parts[2]),
      lowerInclusive: q[position] === "[",
      upperInclusive: q[k] === "]",
      position,
    };
  }
}

function startsUnary(t: Token): boolean {
  return t.t === "term" || t.t === "(" || t.t === "-";
}

class Parser {
  private i = 0;
  constructor(private readonly toks: Token[]) {}

  private peek(offset = 0): Token {
    return this.toks[Math.min(this.i + offset, this.toks.length - 1)];
  }
  private next(): Token {
    const t = this.toks[this.i];
    if (this.i < this.toks.length - 1) this.i++;
    return t;
  }

  parse(): QueryNode | null {
    if (this.peek().t === "eof") return null;
    const node = this.or(0);
    const t = this.peek();
    if (t.t !== "eof")
      throw parseError(t.t === ")" ? 'unbalanced parentheses: unmatched ")"' : "unexpected token", t.pos);
    return node;
  }

  private or(depth: number): QueryNode {
    const parts = [this.and(depth)];
    while (this.peek().t === "OR") {
      const op = this.next();
      if (!startsUnary(this.peek())) throw parseError("OR needs a term or group on each side", op.pos);
      parts.push(this.and(depth));
    }
    return parts.length === 1 ? parts[0] : { kind: "or", children: parts };
  }

  private and(depth: number): QueryNode {
    const items: QueryNode[] = [];
    for (;;) {
      const t = this.peek();
      if (t.t === "AND") {
        if (items.length === 0 || !startsUnary(this.peek(1)))
          throw parseError("AND needs a term or group on each side", t.pos);
        this.next();
        continue;
      }
      if (!startsUnary(t)) break;
      items.push(this.unary(depth));
    }
    if (items.length === 0) {
      const t = this.peek();
      if (t.t === "OR") throw parseError("OR needs a term or group on each side", t.pos);
      if (t.t === ")") throw parseError('unbalanced parentheses: unmatched ")"', t.pos);
      throw parseError("expected a term", t.pos);
    }
    return items.length === 1 ? items[0] : { kind: "and", children: items };
  }

  private unary(depth: number): QueryNode {
    const t = this.peek();
    if (t.t === "-") {
      this.next();
      if (!startsUnary(this.peek())) throw parseError(`"-" must be followed by a term or a group`, t.pos);
      return { kind: "not", child: this.unary(depth), position: t.pos };
    }
    return this.primary(depth);
  }

  private primary(depth: number): QueryNode {
    const t = this.next();
    if (t.t === "term") return t.node;
    if (t.t !== "(") throw parseError("expected a term", t.pos);
    if (depth + 1 > MAX_DEPTH) throw tooComplex(`query nests parentheses deeper than ${MAX_DEPTH} levels`);
    const inner = this.peek();
    if (inner.t === ")") throw parseError("empty group", inner.pos);
    if (inner.t === "eof") throw parseError('unbalanced parentheses: unclosed "("', t.pos);
    const node = this.or(depth + 1);
    if (this.peek().t !== ")") throw parseError('unbalanced parentheses: unclosed "("', t.pos);
    this.next();
    return node;
  }
}

/**
 * Parses q into an AST (null for an empty / blank query). Check order: length
 * cap, lexical errors, term-count cap, then syntax and nesting depth.
 */
export function parseQuery(q: string): QueryNode | null {
  if (q.length > MAX_QUERY_LENGTH) throw tooComplex(`q is longer than ${MAX_QUERY_LENGTH} characters`);
  const toks = new Lexer(q).tokens();
  let terms = 0;
  for (const t of toks) if (t.t === "term") terms++;
  if (terms > MAX_TERMS) throw tooComplex(`q has ${terms} terms; at most ${MAX_TERMS} are allowed`);
  return new Parser(toks).parse();
}

/** Visits every term with whether it sits under an odd number of negations. */
export function forEachTerm(
  node: QueryNode | null,
  visit: (term: TermNode, negated: boolean) => void,
  negated = false,
): void {
  if (node === null) return;
  switch (node.kind) {
    case "term":
      visit(node, negated);
      return;
    case "not":
      forEachTerm(node.child, visit, !negated);
      return;
    case "and":
    case "or":
      for (const c of node.children) forEachTerm(c, visit, negated);
      return;
  }
}
