import type { LocalScope, PythonExpr } from "../python/python_module.ts";

/** A function whose names a renaming may follow. */
export interface RenamingScope {
  /** Unique among the scopes compared (file and qualname). */
  id: string;
  /** What the function binds itself; undefined renames nothing. */
  scope: LocalScope | undefined;
  /**
   * Parameters a renaming may follow, each with the slot that fills it
   * (`g0` for the rightmost one `@given` fills by position, `p0` for a
   * helper's first): a renamed parameter must keep its slot. A test's
   * other parameters are pytest fixtures, found by name.
   */
  params: ReadonlyMap<string, string>;
}

/** Nodes whose children bind names for their own body only. */
const BINDERS = new Set([
  "lambda",
  "generator_expression",
  "list_comprehension",
  "set_comprehension",
  "dictionary_comprehension",
]);

/**
 * A consistent renaming between the base's and the head's spelling of
 * the same functions: per pair of functions, a bijection from the base's
 * locals and parameters to the head's, grown as expressions are compared.
 * A local is renamed only to a local bound by the same statements under
 * the renaming, a parameter only to the parameter in its slot; module
 * names, attributes and keywords are never renamed. A name kept as it is
 * is taken as the same name, as a comparison by spelling takes it.
 *
 * Every change is logged, so a failed attempt can be undone
 * ({@linkcode Renaming.mark}, {@linkcode Renaming.rollback}).
 */
export class Renaming {
  #pairings = new Pairings();

  /** A point to roll back to. */
  mark(): number {
    return this.#pairings.log.length;
  }

  /** Undo every pairing made since `mark`. */
  rollback(mark: number): void {
    const log = this.#pairings.log;
    while (log.length > mark) {
      const [map, key] = log.pop() as [Map<string, string>, string];
      map.delete(key);
    }
  }

  /**
   * Whether `head` (in `scopes.head`) is `base` (in `scopes.base`) up to
   * the renaming, extending it where needed. On `false` the renaming may hold
   * partial pairings: roll back to a mark taken before.
   */
  same(
    base: PythonExpr,
    head: PythonExpr,
    scopes: { base: RenamingScope; head: RenamingScope },
  ): boolean {
    return new Unifier(this.#pairings, scopes.base, scopes.head).equal(
      base,
      head,
    );
  }
}

/** The pairings of every pair of scopes, and the log that undoes them. */
class Pairings {
  forward = new Map<string, string>();
  backward = new Map<string, string>();
  // Stryker disable next-line ArrayDeclaration: marks come only from mark(), which counts a first entry too, so no rollback reaches it
  log: [Map<string, string>, string][] = [];

  image(pair: string, base: string): string | undefined {
    return this.forward.get(`${pair}\0${base}`);
  }

  preimage(pair: string, head: string): string | undefined {
    return this.backward.get(`${pair}\0${head}`);
  }

  add(pair: string, base: string, head: string): void {
    const forward = `${pair}\0${base}`;
    const backward = `${pair}\0${head}`;
    this.forward.set(forward, head);
    this.backward.set(backward, base);
    this.log.push([this.forward, forward], [this.backward, backward]);
  }
}

/** Names a lambda or comprehension binds: base → head, head → base. */
interface Frame {
  forward: Map<string, string>;
  backward: Map<string, string>;
}

/** One comparison of two expressions in a pair of scopes. */
class Unifier {
  #pairings: Pairings;
  #base: RenamingScope;
  #head: RenamingScope;
  #pair: string;
  /** Names bound by the enclosing lambdas and comprehensions. */
  #frames: Frame[] = [];

  constructor(pairings: Pairings, base: RenamingScope, head: RenamingScope) {
    this.#pairings = pairings;
    this.#base = base;
    this.#head = head;
    this.#pair = `${base.id}\0${head.id}`;
  }

  equal(b: PythonExpr, h: PythonExpr): boolean {
    if (b.type !== h.type) return false;
    if (b.children === undefined || h.children === undefined) {
      if (b.children !== h.children) return false;
      return b.type === "name"
        ? this.#names(b.text ?? "", h.text ?? "")
        : b.text === h.text;
    }
    if (b.children.length !== h.children.length) return false;
    if (BINDERS.has(b.type)) return this.#binder(b, h);
    for (let i = 0; i < b.children.length; i++) {
      const bc = b.children[i] as PythonExpr;
      const hc = h.children[i] as PythonExpr;
      // An attribute's name and a keyword's name are spelled, not bound.
      const spelled = (b.type === "attribute" && i > 0) ||
        (b.type === "keyword_argument" && i === 0);
      if (spelled ? !sameLeaf(bc, hc) : !this.equal(bc, hc)) return false;
    }
    return true;
  }

  /** A lambda or comprehension: its bound names pair by position. */
  #binder(b: PythonExpr, h: PythonExpr): boolean {
    const bBound = boundNames(b);
    const hBound = boundNames(h);
    // Stryker disable next-line ConditionalExpression: the bound names are name leaves of the children compared below, so two binders binding different numbers of names differ in shape there, which equal() refuses
    if (bBound.length !== hBound.length) return false;
    // The first iterable is read in the enclosing scope.
    const bOuter = firstIterable(b);
    const hOuter = firstIterable(h);
    // Stryker disable next-line ConditionalExpression,BooleanLiteral: a lambda never holds a for clause and a comprehension always does, and both sides have one type here
    if ((bOuter === undefined) !== (hOuter === undefined)) return false;
    if (bOuter !== undefined && !this.equal(bOuter, hOuter as PythonExpr)) {
      return false;
    }
    const frame: Frame = { forward: new Map(), backward: new Map() };
    // Stryker disable next-line EqualityOperator: the extra round pairs undefined with undefined, and no name read is undefined
    for (let i = 0; i < bBound.length; i++) {
      const bn = bBound[i] as string;
      const hn = hBound[i] as string;
      // A name bound twice must be bound twice alike.
      // Stryker disable next-line ConditionalExpression,LogicalOperator,BlockStatement: every bound name is compared below as its own target, where the frame's one image per name refuses a name bound twice otherwise: this check only refuses sooner
      if (frame.forward.has(bn) || frame.backward.has(hn)) {
        // Stryker disable next-line ConditionalExpression: every bound name is compared below as its own target, where the frame's one image per name refuses a name bound twice otherwise: this check only refuses sooner
        if (frame.forward.get(bn) !== hn) return false;
        continue;
      }
      frame.forward.set(bn, hn);
      frame.backward.set(hn, bn);
    }
    this.#frames.push(frame);
    try {
      const kids = b.children as PythonExpr[];
      return kids.every((c, i) =>
        this.equal(c, (h.children as PythonExpr[])[i] as PythonExpr)
      );
    } finally {
      this.#frames.pop();
    }
  }

  /** Two dotted names: the first part by the renaming, the rest as spelled. */
  #names(b: string, h: string): boolean {
    const bDot = b.indexOf(".");
    const hDot = h.indexOf(".");
    const bFirst = bDot === -1 ? b : b.slice(0, bDot);
    const hFirst = hDot === -1 ? h : h.slice(0, hDot);
    if (b.slice(bFirst.length) !== h.slice(hFirst.length)) return false;
    for (let i = this.#frames.length - 1; i >= 0; i--) {
      const frame = this.#frames[i] as Frame;
      const bBound = frame.forward.get(bFirst);
      const hBound = frame.backward.get(hFirst);
      if (bBound !== undefined || hBound !== undefined) {
        // Stryker disable next-line LogicalOperator,ConditionalExpression: a frame is a bijection (a name already bound is never bound again above), so one half holds exactly when the other does
        return bBound === hFirst && hBound === bFirst;
      }
    }
    const bKind = kindOf(bFirst, this.#base);
    const hKind = kindOf(hFirst, this.#head);
    const pairings = this.#pairings;
    // Stryker disable next-line ConditionalExpression: only names with a kind are ever paired (below), and a scope's id names one function, so a name without a kind has no image
    const image = bKind === undefined
      ? undefined
      : pairings.image(this.#pair, bFirst);
    // Stryker disable next-line ConditionalExpression: only names with a kind are ever paired (below), and a scope's id names one function, so a name without a kind has no preimage
    const preimage = hKind === undefined
      ? undefined
      : pairings.preimage(this.#pair, hFirst);
    if (image !== undefined || preimage !== undefined) {
      // Stryker disable next-line LogicalOperator,ConditionalExpression: add() pairs only two names unpaired so far, each with a kind, so the pairings are a bijection and one half holds exactly when the other does
      return image === hFirst && preimage === bFirst;
    }
    if (bFirst === hFirst) {
      // Kept as spelled: the same name, as spelling compares it, unless one
      // side binds it as its own local and the other reads it from outside
      // (a constant, a fixture), or it is a parameter moved to another
      // slot: one spelling for two different values.
      if (bKind !== hKind) return false;
      // Stryker disable next-line ConditionalExpression: a pairing of a name without a kind is never read, as image() and preimage() are asked only for names with a kind (above)
      if (bKind !== undefined) pairings.add(this.#pair, bFirst, hFirst);
      return true;
    }
    // Stryker disable next-line LogicalOperator,ConditionalExpression: a name with a kind on one side only differs in kind, which #renamedAlike() refuses first; the pairing left behind is one a false answer allows
    if (bKind === undefined || hKind === undefined) return false;
    pairings.add(this.#pair, bFirst, hFirst);
    return this.#renamedAlike(bFirst, bKind, hFirst, hKind);
  }

  /** A renamed local is bound alike; a renamed parameter keeps its slot. */
  #renamedAlike(b: string, bKind: string, h: string, hKind: string): boolean {
    if (bKind !== hKind) return false;
    // Stryker disable next-line ConditionalExpression: a parameter a renaming follows has no bindings (one bound again in the body is fixed), so the check below passes for two of them
    if (bKind !== "local") return true; // the same slot
    // Stryker disable next-line OptionalChaining,ArrayDeclaration: kindOf() calls a name a local only when its scope binds it, so the scope and the name's bindings are there
    const bBindings = this.#base.scope?.bindings.get(b) ?? [];
    // Stryker disable next-line OptionalChaining,ArrayDeclaration: kindOf() calls a name a local only when its scope binds it, so the scope and the name's bindings are there
    const hBindings = this.#head.scope?.bindings.get(h) ?? [];
    return bBindings.length === hBindings.length &&
      bBindings.every((statement, i) =>
        this.equal(statement, hBindings[i] as PythonExpr)
      );
  }
}

/**
 * `local` for a local a renaming may follow, the slot for such a
 * parameter, undefined for a name that must keep its spelling.
 */
function kindOf(name: string, scope: RenamingScope): string | undefined {
  const local = scope.scope;
  if (local === undefined || local.fixed.includes(name)) return undefined;
  if (local.params.includes(name)) return scope.params.get(name);
  return local.bindings.has(name) ? "local" : undefined;
}

function sameLeaf(b: PythonExpr, h: PythonExpr): boolean {
  return b.type === h.type && b.text === h.text &&
    b.children === undefined && h.children === undefined;
}

/** Names a lambda's parameters or a comprehension's `for` targets bind, in order. */
function boundNames(binder: PythonExpr): string[] {
  // Stryker disable next-line ArrayDeclaration: both sides' names gain the same first entry, paired with itself, and no Python name is spelled with spaces
  const out: string[] = [];
  // Stryker disable next-line ArrayDeclaration: #binder() is reached only for a node with children
  for (const child of binder.children ?? []) {
    if (child.type === "lambda_parameters") {
      // Stryker disable next-line ArrayDeclaration: tree-sitter writes lambda_parameters only around a parameter, and a stand-in string holds no name leaf either
      for (const p of child.children ?? []) {
        // A default is read where the lambda is written, not bound by it.
        out.push(
          // Stryker disable next-line OptionalChaining: a default_parameter always has its name and its value
          ...leafNames(p.type === "default_parameter" ? p.children?.[0] : p),
        );
      }
    }
    const target = forTarget(child);
    // Stryker disable next-line ConditionalExpression: leafNames() of no target is empty
    if (target !== undefined) out.push(...leafNames(target));
  }
  return out;
}

/** The target of a comprehension's `for` clause (`x` in `for x in xs`). */
function forTarget(clause: PythonExpr): PythonExpr | undefined {
  if (clause.type !== "for_in_clause") return undefined;
  // Stryker disable next-line ArrayDeclaration: a for_in_clause always has children, and a stand-in string has no type "for" and no name leaf either
  const kids = clause.children ?? [];
  return kids[kids.findIndex((c) => c.type === "for") + 1];
}

/** The iterable of a comprehension's first `for`: read outside it. */
function firstIterable(binder: PythonExpr): PythonExpr | undefined {
  // Stryker disable next-line OptionalChaining: #binder() is reached only for a node with children
  const clause = binder.children?.find((c) => c.type === "for_in_clause");
  // Stryker disable next-line ArrayDeclaration: a comprehension's clause has children, and for a lambda both sides get the same stand-in in place of a first iterable, equal to itself
  const kids = clause?.children ?? [];
  return kids[kids.findIndex((c) => c.type === "in") + 1];
}

function leafNames(expr: PythonExpr | undefined): string[] {
  // Stryker disable next-line ConditionalExpression,ArrayDeclaration: leafNames() is never given undefined: a default_parameter always has its name, and a missing target is skipped above
  if (expr === undefined) return [];
  if (expr.type === "name") return [(expr.text ?? "").split(".")[0] as string];
  return (expr.children ?? []).flatMap(leafNames);
}
