/**
 * The expressions of `custom` merge rules: a small language with JavaScript's syntax for
 * what a rule needs, parsed and evaluated here over plain data — never handed to a JS engine.
 *
 * - literals: numbers, 'strings' or "strings", true, false, null
 * - names: the context's roots (see merge-rules.ts) and arrow parameters; `a.b`, `a[0]`, `a['b']`
 * - operators: ! and unary -, + and -, < <= > >=, == != (=== !== are the same: equality is
 *   always strict), && and || (short-circuit, answering booleans)
 * - methods: on lists `some`, `every`, `filter`, `find` (each with `x => …`), `includes`;
 *   on strings `includes`, `startsWith`, `endsWith`, `trim`, `toLowerCase`; `length` on both
 *
 * Only own properties of plain data are read (no prototype, no functions), and evaluation has
 * a step budget, so no expression can reach the process or run long.
 */
export type Expr =
  | { t: 'lit'; v: Value }
  | { t: 'name'; name: string }
  | { t: 'member'; obj: Expr; key: Expr }
  | { t: 'call'; obj: Expr; method: string; args: Expr[] }
  | { t: 'arrow'; param: string; body: Expr }
  | { t: 'unary'; op: string; arg: Expr }
  | { t: 'binary'; op: string; left: Expr; right: Expr };

export type Value = null | boolean | number | string | Value[] | { [key: string]: Value };

export class RuleExpressionError extends Error {}

const TOKEN = /\s*(?:(\d+(?:\.\d+)?)|('(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*")|([A-Za-z_$][\w$]*)|(===|!==|==|!=|<=|>=|=>|&&|\|\||[-+!<>.()[\],]))/y;
const METHODS = new Set(['some', 'every', 'filter', 'find', 'includes', 'startsWith', 'endsWith', 'trim', 'toLowerCase']);
const MAX_STEPS = 100_000;

type Token = { kind: 'num' | 'str' | 'ident' | 'op'; text: string };

function tokenize(source: string): Token[] {
  const tokens: Token[] = [];
  TOKEN.lastIndex = 0;
  while (TOKEN.lastIndex < source.length) {
    if (/^\s*$/.test(source.slice(TOKEN.lastIndex))) break;
    const at = TOKEN.lastIndex;
    const m = TOKEN.exec(source);
    if (!m) throw new RuleExpressionError(`unexpected character at ${at + 1}: ${source.slice(at).trimStart().slice(0, 10)}`);
    if (m[1]) tokens.push({ kind: 'num', text: m[1] });
    else if (m[2]) tokens.push({ kind: 'str', text: m[2].slice(1, -1).replace(/\\(.)/g, '$1') });
    else if (m[3]) tokens.push({ kind: 'ident', text: m[3] });
    else tokens.push({ kind: 'op', text: m[4]! });
  }
  return tokens;
}

const LEVELS: string[][] = [['||'], ['&&'], ['==', '!=', '===', '!=='], ['<', '<=', '>', '>='], ['+', '-']];

/** Parses an expression, or throws RuleExpressionError saying what is wrong with it. */
export function parseRuleExpression(source: string): Expr {
  const tokens = tokenize(source);
  let i = 0;
  const peek = (text: string) => tokens[i]?.kind === 'op' && tokens[i]!.text === text;
  const expect = (text: string) => {
    if (!peek(text)) throw new RuleExpressionError(`expected "${text}" ${tokens[i] ? `before "${tokens[i]!.text}"` : 'at the end'}`);
    i++;
  };
  const binary = (level: number): Expr => {
    if (level === LEVELS.length) return unary();
    let left = binary(level + 1);
    while (tokens[i]?.kind === 'op' && LEVELS[level]!.includes(tokens[i]!.text)) {
      const op = tokens[i++]!.text;
      left = { t: 'binary', op, left, right: binary(level + 1) };
    }
    return left;
  };
  const unary = (): Expr => (peek('!') || peek('-') ? { t: 'unary', op: tokens[i++]!.text, arg: unary() } : postfix(primary()));
  const postfix = (expr: Expr): Expr => {
    for (;;) {
      if (peek('.')) {
        i++;
        const name = tokens[i++];
        if (name?.kind !== 'ident') throw new RuleExpressionError('expected a property name after "."');
        if (peek('(')) {
          if (!METHODS.has(name.text)) throw new RuleExpressionError(`unknown method ${name.text}()`);
          i++;
          const args: Expr[] = [];
          while (!peek(')')) {
            args.push(argument());
            if (!peek(')')) expect(',');
          }
          i++;
          expr = { t: 'call', obj: expr, method: name.text, args };
        } else expr = { t: 'member', obj: expr, key: { t: 'lit', v: name.text } };
      } else if (peek('[')) {
        i++;
        const key = binary(0);
        expect(']');
        expr = { t: 'member', obj: expr, key };
      } else return expr;
    }
  };
  const argument = (): Expr => {
    if (tokens[i]?.kind === 'ident' && tokens[i + 1]?.text === '=>') {
      const param = tokens[i]!.text;
      i += 2;
      return { t: 'arrow', param, body: binary(0) };
    }
    return binary(0);
  };
  const primary = (): Expr => {
    const token = tokens[i++];
    if (!token) throw new RuleExpressionError('unexpected end of expression');
    if (token.kind === 'num') return { t: 'lit', v: Number(token.text) };
    if (token.kind === 'str') return { t: 'lit', v: token.text };
    if (token.kind === 'ident') {
      const literals: Record<string, Value> = { true: true, false: false, null: null };
      return token.text in literals ? { t: 'lit', v: literals[token.text]! } : { t: 'name', name: token.text };
    }
    if (token.text === '(') {
      const inner = binary(0);
      expect(')');
      return inner;
    }
    throw new RuleExpressionError(`unexpected "${token.text}"`);
  };
  if (tokens.length === 0) throw new RuleExpressionError('the expression is empty');
  const expr = binary(0);
  if (i < tokens.length) throw new RuleExpressionError(`unexpected "${tokens[i]!.text}"`);
  return expr;
}

/** The names an expression reads that no arrow parameter binds: the context roots it needs. */
export function freeNames(expr: Expr, bound: ReadonlySet<string> = new Set()): Set<string> {
  switch (expr.t) {
    case 'lit':
      return new Set();
    case 'name':
      return bound.has(expr.name) ? new Set() : new Set([expr.name]);
    case 'member':
      return new Set([...freeNames(expr.obj, bound), ...freeNames(expr.key, bound)]);
    case 'unary':
      return freeNames(expr.arg, bound);
    case 'binary':
      return new Set([...freeNames(expr.left, bound), ...freeNames(expr.right, bound)]);
    case 'arrow':
      return freeNames(expr.body, new Set([...bound, expr.param]));
    case 'call':
      return new Set([...freeNames(expr.obj, bound), ...expr.args.flatMap((a) => [...freeNames(a, bound)])]);
  }
}

/** Evaluates a parsed expression over `context` (its roots are the names an expression may use). */
export function evaluateRuleExpression(expr: Expr, context: Record<string, Value>): Value {
  let steps = 0;
  const run = (e: Expr, scope: Record<string, Value>): Value => {
    if (++steps > MAX_STEPS) throw new RuleExpressionError('the expression takes too long to evaluate');
    switch (e.t) {
      case 'lit':
        return e.v;
      case 'name':
        if (!Object.hasOwn(scope, e.name)) throw new RuleExpressionError(`unknown name ${e.name}`);
        return scope[e.name]!;
      case 'member':
        return member(run(e.obj, scope), run(e.key, scope));
      case 'unary': {
        const v = run(e.arg, scope);
        return e.op === '!' ? !truthy(v) : typeof v === 'number' ? -v : null;
      }
      case 'binary':
        return binaryOp(e.op, run(e.left, scope), () => run(e.right, scope));
      case 'arrow':
        throw new RuleExpressionError('a function is only allowed as the argument of some, every, filter or find');
      case 'call':
        return call(run(e.obj, scope), e.method, e.args, (arg, item) =>
          arg.t === 'arrow' ? run(arg.body, { ...scope, [arg.param]: item ?? null }) : run(arg, scope),
        );
    }
  };
  return run(expr, context);
}

function member(obj: Value, key: Value): Value {
  if (typeof obj === 'string' || Array.isArray(obj)) {
    if (key === 'length') return obj.length;
    if (Array.isArray(obj) && typeof key === 'number') return obj[key] ?? null;
    return null;
  }
  if (obj !== null && typeof obj === 'object' && typeof key === 'string' && Object.hasOwn(obj, key)) return obj[key]!;
  return null;
}

function binaryOp(op: string, left: Value, right: () => Value): Value {
  if (op === '&&') return truthy(left) ? truthy(right()) : false;
  if (op === '||') return truthy(left) ? true : truthy(right());
  const r = right();
  if (op === '==' || op === '===') return equal(left, r);
  if (op === '!=' || op === '!==') return !equal(left, r);
  if (op === '+' && (typeof left === 'string' || typeof r === 'string')) return `${text(left)}${text(r)}`;
  const comparable = (typeof left === 'number' && typeof r === 'number') || (typeof left === 'string' && typeof r === 'string');
  if (!comparable) return op === '+' || op === '-' ? null : false;
  const [a, b] = [left, r] as [number, number];
  return op === '<' ? a < b : op === '<=' ? a <= b : op === '>' ? a > b : op === '>=' ? a >= b : op === '+' ? a + b : a - b;
}

function call(obj: Value, method: string, args: Expr[], arg: (e: Expr, item?: Value) => Value): Value {
  if (Array.isArray(obj)) {
    const test = (item: Value) => (args[0] ? truthy(arg(args[0], item)) : false);
    if (method === 'some') return obj.some(test);
    if (method === 'every') return obj.every(test);
    if (method === 'filter') return obj.filter(test);
    if (method === 'find') return obj.find(test) ?? null;
    if (method === 'includes') return args[0] ? obj.some((item) => equal(item, arg(args[0]!))) : false;
  }
  if (typeof obj === 'string') {
    const s = args[0] ? arg(args[0]) : null;
    if (method === 'trim') return obj.trim();
    if (method === 'toLowerCase') return obj.toLowerCase();
    if (typeof s !== 'string') return false;
    if (method === 'includes') return obj.includes(s);
    if (method === 'startsWith') return obj.startsWith(s);
    if (method === 'endsWith') return obj.endsWith(s);
  }
  return null;
}

export function truthy(v: Value): boolean {
  return !(v === null || v === false || v === 0 || v === '');
}

function equal(a: Value, b: Value): boolean {
  return a === b || (a !== null && b !== null && typeof a === 'object' && typeof b === 'object' && JSON.stringify(a) === JSON.stringify(b));
}

function text(v: Value): string {
  return typeof v === 'string' ? v : JSON.stringify(v);
}
