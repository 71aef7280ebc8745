/**
 * What Python decides about a function's own scope when it compiles it: the
 * names the body binds, whether it is a generator, and its `global` and
 * `nonlocal` declarations. A mutant compiled into a copy of the body shares
 * these facts with every other copy, so a mutant that would change them is
 * told apart here.
 *
 * @module
 */
import type { Node } from "web-tree-sitter";

/** A span of the file's text (UTF-16 offsets, end exclusive). */
export interface Span {
  /** Start offset. */
  start: number;
  /** End offset. */
  end: number;
}

/** A name bound in the function's own scope, at the identifier that binds it. */
export interface Binding extends Span {
  /** The bound name. */
  name: string;
}

/** The compile-time facts of one function's own scope. */
export interface FunctionScope {
  /** Every place the body (or a parameter) binds a name in this scope. */
  bindings: Binding[];
  /** Every `yield` of this scope (nested scopes' own excluded). */
  yields: Span[];
  /** The `global` and `nonlocal` statements of this scope, in text order. */
  declarations: Node[];
  /** Names declared `global` or `nonlocal`: never local, whatever binds them. */
  declared: Set<string>;
  /** `async def`. */
  isAsync: boolean;
}

/** Nodes whose body is a scope of its own. */
const SCOPES = new Set(["function_definition", "class_definition", "lambda"]);

/** Targets that only group the names they bind. */
const PATTERNS = new Set([
  "pattern_list",
  "tuple_pattern",
  "list_pattern",
  "list_splat_pattern",
  "list_splat",
  "expression_list",
  "parenthesized_expression",
  "tuple",
  "list",
]);

/**
 * The own-scope facts of `fn` (a `function_definition`). Binding forms it
 * does not know count as no binding, which can only make a caller think a
 * name is bound in fewer places than it is: the cautious side.
 */
export function functionScope(fn: Node): FunctionScope {
  const scope: FunctionScope = {
    bindings: [],
    yields: [],
    declarations: [],
    declared: new Set(),
    // Stryker disable next-line OptionalChaining: tree-sitter gives no null child or field where the grammar always has one
    isAsync: fn.children.some((c) => c?.type === "async"),
  };
  const parameters = fn.childForFieldName("parameters");
  // Stryker disable next-line ConditionalExpression: tree-sitter gives no null child or field where the grammar always has one
  if (parameters !== null) {
    for (const p of parameters.namedChildren) {
      // Stryker disable next-line ConditionalExpression: tree-sitter gives no null child or field where the grammar always has one
      if (p === null) continue;
      const name = parameterName(p);
      if (name !== null) bind(scope, name);
    }
  }
  const body = fn.childForFieldName("body");
  // Stryker disable next-line ConditionalExpression: tree-sitter gives no null child or field where the grammar always has one
  if (body !== null) visit(body, scope);
  scope.declarations.sort((a, b) => a.startIndex - b.startIndex);
  return scope;
}

/**
 * The name a parameter binds: itself, or the name its first part holds
 * (`x=1`, `x: int`, `*args`, `*args: int`, `**kw`); null for the `/` and
 * `*` markers.
 */
function parameterName(p: Node): Node | null {
  if (p.type === "identifier") return p;
  const first = p.firstNamedChild;
  return first === null ? null : parameterName(first);
}

/**
 * The names the module binds at its own level (inside `if`, `try`, `for`
 * and `with` too, not inside functions or classes), with its `global` and
 * star-import facts left to the caller.
 */
export function moduleScope(root: Node): FunctionScope {
  const scope: FunctionScope = {
    bindings: [],
    yields: [],
    declarations: [],
    declared: new Set(),
    isAsync: false,
  };
  visit(root, scope);
  return scope;
}

function visit(node: Node, scope: FunctionScope): void {
  const stack: Node[] = [node];
  while (stack.length > 0) {
    const n = stack.pop() as Node;
    if (SCOPES.has(n.type)) {
      const name = n.childForFieldName("name");
      // A lambda has no name.
      if (name !== null) bind(scope, name);
      // Defaults, annotations and bases run in this scope, the body not.
      for (const field of ["parameters", "return_type", "superclasses"]) {
        const part = n.childForFieldName(field);
        if (part !== null) stack.push(part);
      }
      continue;
    }
    if (!collect(n, scope)) continue;
    // Stryker disable next-line ConditionalExpression: tree-sitter gives no null child or field where the grammar always has one
    for (const child of n.namedChildren) if (child !== null) stack.push(child);
  }
}

/** Record what `n` binds or declares; false when its children need no visit. */
function collect(n: Node, scope: FunctionScope): boolean {
  switch (n.type) {
    case "assignment":
    case "augmented_assignment":
      targets(n.childForFieldName("left"), scope);
      return true;
    case "named_expression":
      targets(n.childForFieldName("name"), scope);
      return true;
    case "for_statement":
      targets(n.childForFieldName("left"), scope);
      return true;
    case "as_pattern_target":
      targets(n.firstNamedChild, scope);
      // Stryker disable next-line BooleanLiteral: its child binds nothing a visit collects: the target above is all it binds
      return false;
    case "as_pattern": {
      // The alias is its last part: `case [x] as whole`.
      const alias = n.lastNamedChild;
      // Stryker disable next-line OptionalChaining: tree-sitter gives no null child or field where the grammar always has one
      if (alias?.type === "identifier") bind(scope, alias);
      return true;
    }
    case "delete_statement":
      for (const t of n.namedChildren) targets(t, scope);
      return true;
    case "aliased_import":
      targets(n.childForFieldName("alias"), scope);
      // Stryker disable next-line BooleanLiteral: its children are dotted names and the alias, which bind nothing a visit collects
      return false;
    case "import_statement":
    case "import_from_statement":
      for (const name of n.childrenForFieldName("name")) {
        // Stryker disable next-line ConditionalExpression: tree-sitter gives no null child or field where the grammar always has one
        if (name === null) continue;
        // `import a.b` binds `a`; `from m import a` binds `a`.
        if (name.type === "dotted_name") targets(name.firstNamedChild, scope);
        else collect(name, scope);
      }
      return false;
    case "global_statement":
    case "nonlocal_statement":
      scope.declarations.push(n);
      for (const name of n.namedChildren) {
        // Stryker disable next-line ConditionalExpression,OptionalChaining: every name a global or nonlocal statement lists is an identifier
        if (name?.type === "identifier") scope.declared.add(name.text);
      }
      // Stryker disable next-line BooleanLiteral: its children are identifiers, which bind nothing a visit collects
      return false;
    case "yield":
      scope.yields.push({ start: n.startIndex, end: n.endIndex });
      return true;
    case "splat_pattern":
    case "keyword_pattern":
    case "case_pattern": {
      // A capture in a `case` pattern binds: `case [x, *rest]`, `case P(k=v)`.
      const capture = n.namedChildren.at(-1);
      if (capture?.type === "identifier") bind(scope, capture);
      if (capture?.type === "dotted_name" && capture.namedChildCount === 1) {
        targets(capture.namedChildren[0] ?? null, scope);
      }
      return true;
    }
    default:
      return true;
  }
}

function targets(target: Node | null, scope: FunctionScope): void {
  // Stryker disable next-line ConditionalExpression: tree-sitter gives no null child or field where the grammar always has one
  if (target === null) return;
  if (target.type === "identifier") bind(scope, target);
  else if (PATTERNS.has(target.type)) {
    for (const c of target.namedChildren) targets(c, scope);
  }
}

function bind(scope: FunctionScope, name: Node): void {
  scope.bindings.push({
    name: name.text,
    start: name.startIndex,
    end: name.endIndex,
  });
}
