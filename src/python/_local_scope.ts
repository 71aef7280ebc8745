import type { Node } from "web-tree-sitter";
import type { ImportAliases } from "./_import_aliases.ts";
import type { LocalScope, PythonExpr } from "./python_module.ts";
import { NESTED_SCOPES } from "./_nested_scopes.ts";
import { pythonExpr } from "./_python_expr.ts";
import { realChildren } from "./_real_children.ts";
import { walk } from "./_walk.ts";

/** Targets that only group the names they bind. */
const PATTERNS = new Set([
  "pattern_list",
  "tuple_pattern",
  "list_pattern",
  "list_splat_pattern",
  "expression_list",
  "parenthesized_expression",
  "tuple",
  "list",
]);

/**
 * The names a function binds itself: its parameters and the locals its
 * body binds, each with the statements that bind it, so that a renaming
 * of them can be checked against what they are bound to.
 */
export function localScope(
  definition: Node,
  aliases: ImportAliases,
): LocalScope {
  const params = parameterNames(definition);
  const bindings = new Map<string, PythonExpr[]>();
  const fixed = new Set<string>();
  const bind = (target: Node | null, statement: () => PythonExpr) => {
    let expr: PythonExpr | undefined;
    for (const name of targetNames(target)) {
      expr ??= statement();
      const list = bindings.get(name);
      if (list === undefined) bindings.set(name, [expr]);
      else list.push(expr);
    }
  };
  const body = definition.childForFieldName("body");
  if (body === null) return { params, bindings, fixed: [] };
  walk(body, (node, _parent, type, parentType) => {
    if (NESTED_SCOPES.has(type)) {
      const def = type === "decorated_definition"
        ? node.childForFieldName("definition")
        : node;
      const name = def?.childForFieldName("name")?.text;
      if (type !== "lambda" && name !== undefined) fixed.add(name);
      return false;
    }
    switch (type) {
      case "assignment":
      case "augmented_assignment":
        bind(node.childForFieldName("left"), () => pythonExpr(node, aliases));
        return;
      case "named_expression":
        bind(node.firstNamedChild, () => pythonExpr(node, aliases));
        return;
      case "for_statement":
        bind(node.childForFieldName("left"), () => forBinding(node, aliases));
        return;
      case "as_pattern": {
        const target = realChildren(node).find((c) =>
          c.type === "as_pattern_target"
        )?.firstNamedChild ?? null;
        if (parentType === "with_item") {
          bind(target, () => pythonExpr(node, aliases));
        } else for (const name of targetNames(target)) fixed.add(name);
        return;
      }
      case "case_pattern":
      case "import_statement":
      case "import_from_statement":
      case "global_statement":
      case "nonlocal_statement":
        walk(node, (inner, _p, innerType) => {
          if (innerType === "identifier") fixed.add(inner.text);
        });
        return false;
    }
  });
  for (const name of params) if (bindings.has(name)) fixed.add(name);
  return { params, bindings, fixed: [...fixed].sort() };
}

/** `for <left> in <right>` as one expression, for comparison. */
function forBinding(node: Node, aliases: ImportAliases): PythonExpr {
  const left = node.childForFieldName("left");
  const right = node.childForFieldName("right");
  const children = [left, right].flatMap((n) =>
    n === null ? [] : [pythonExpr(n, aliases)]
  );
  return { type: "for_binding", line: node.startPosition.row + 1, children };
}

/** Names a target binds: `x`, each name of `x, (y, *z)`; none for `a.b` or `a[i]`. */
function targetNames(target: Node | null): string[] {
  if (target === null) return [];
  if (target.type === "identifier") return [target.text];
  if (PATTERNS.has(target.type)) {
    return realChildren(target).flatMap(targetNames);
  }
  return [];
}

/** Parameter names in order. */
function parameterNames(definition: Node): string[] {
  const parameters = definition.childForFieldName("parameters");
  if (parameters === null) return [];
  const out: string[] = [];
  for (const parameter of realChildren(parameters)) {
    if (parameter.type === "identifier") out.push(parameter.text);
    else {
      const name = realChildren(parameter).find((c) => c.type === "identifier");
      if (name !== undefined) out.push(name.text);
    }
  }
  return out;
}
