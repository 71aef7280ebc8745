import type { Node } from "web-tree-sitter";
import type { ImportAliases } from "./_import_aliases.ts";
import type { ReturnedExpr } from "./python_module.ts";
import { pythonExpr } from "./_python_expr.ts";
import { realChildren } from "./_real_children.ts";
import { isDocstring } from "./_significant_tokens.ts";
import { walk } from "./_walk.ts";

/**
 * What a `def` returns when calling it is the same as writing its one
 * returned expression: no decorator, not `async`, plain parameters, and a
 * body of one `return <expr>` (after a docstring) that neither yields nor
 * awaits. Undefined otherwise.
 */
export function returnedExpr(
  statement: Node,
  aliases: ImportAliases,
): ReturnedExpr | undefined {
  if (statement.type !== "function_definition") return undefined;
  if (statement.children.some((c) => c?.type === "async")) return undefined;
  const params: string[] = [];
  const parameters = statement.childForFieldName("parameters");
  for (const p of parameters === null ? [] : realChildren(parameters)) {
    if (p.type !== "identifier") return undefined;
    params.push(p.text);
  }
  const body = statement.childForFieldName("body");
  const statements = body === null ? [] : realChildren(body);
  if (statements[0] !== undefined && isDocstring(statements[0])) {
    statements.shift();
  }
  const only = statements[0];
  if (statements.length !== 1 || only?.type !== "return_statement") {
    return undefined;
  }
  const value = realChildren(only)[0];
  if (value === undefined) return undefined;
  let suspends = false;
  walk(value, (_node, _parent, type) => {
    if (type === "yield" || type === "await") suspends = true;
    return !suspends;
  });
  if (suspends) return undefined;
  return { params, expr: pythonExpr(value, aliases) };
}
