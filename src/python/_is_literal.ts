import type { Node } from "web-tree-sitter";
import { realChildren } from "./_real_children.ts";
import { unwrapParentheses } from "./_unwrap_parentheses.ts";

const SCALARS = new Set(["integer", "float", "true", "false", "none"]);
const CONTAINERS = new Set(["list", "tuple", "set", "dictionary"]);

/**
 * Whether an expression is a literal value written out in full: a number,
 * string or bytes (not an f-string with fields), `None`, `True`, `False`, a
 * signed number, or a list, tuple, set or dict made only of literals.
 */
export function isLiteral(expression: Node): boolean {
  const node = unwrapParentheses(expression);
  if (SCALARS.has(node.type)) return true;
  switch (node.type) {
    case "string":
      return !node.namedChildren.some((part) => part?.type === "interpolation");
    case "concatenated_string":
      return realChildren(node).every(isLiteral);
    case "unary_operator": {
      const argument = node.childForFieldName("argument");
      const operator = node.childForFieldName("operator")?.type;
      if (argument === null || operator === "~") return false;
      const inner = unwrapParentheses(argument);
      return inner.type === "integer" || inner.type === "float";
    }
    case "pair": {
      const key = node.childForFieldName("key");
      const value = node.childForFieldName("value");
      return key !== null && value !== null && isLiteral(key) &&
        isLiteral(value);
    }
    default:
      return CONTAINERS.has(node.type) && realChildren(node).every(isLiteral);
  }
}
