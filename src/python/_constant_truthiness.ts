import type { Node } from "web-tree-sitter";
import { integerValue } from "./_integer_value.ts";
import { realChildren } from "./_real_children.ts";
import { unwrapParentheses } from "./_unwrap_parentheses.ts";

/** Element node types that may expand to nothing (`[*xs]`, `{**d}`). */
const SPLATS = new Set([
  "list_splat",
  "dictionary_splat",
  "parenthesized_list_splat",
]);

/**
 * Whether an expression is truthy (`true`) or falsy (`false`) whatever the
 * code under test does, or `undefined` when that depends on run time.
 * Reads literals, `not`, `and`/`or`, conditional expressions and
 * containers; `assert (x, "msg")` is a non-empty tuple and so always true.
 */
export function constantTruthiness(expression: Node): boolean | undefined {
  const node = unwrapParentheses(expression);
  switch (node.type) {
    case "true":
    case "ellipsis":
    case "lambda":
      return true;
    case "false":
    case "none":
      return false;
    case "integer":
      return numberTruthiness(node.text);
    case "float":
      return floatTruthiness(node.text);
    case "string":
      return stringTruthiness(node);
    case "concatenated_string":
      return anyTrue(realChildren(node).map(constantTruthiness));
    case "tuple":
    case "list":
    case "set":
    case "dictionary":
      return containerTruthiness(node);
    case "not_operator": {
      const argument = node.childForFieldName("argument");
      const inner = argument === null
        ? undefined
        : constantTruthiness(argument);
      return inner === undefined ? undefined : !inner;
    }
    case "unary_operator": {
      const operator = node.childForFieldName("operator")?.type;
      const argument = node.childForFieldName("argument");
      if (argument === null || (operator !== "-" && operator !== "+")) {
        return undefined;
      }
      const inner = unwrapParentheses(argument);
      return inner.type === "integer" || inner.type === "float"
        ? constantTruthiness(inner)
        : undefined;
    }
    case "boolean_operator": {
      const left = node.childForFieldName("left");
      const right = node.childForFieldName("right");
      const operator = node.childForFieldName("operator")?.type;
      if (left === null || right === null) return undefined;
      const values = [constantTruthiness(left), constantTruthiness(right)];
      // `a or b` is truthy as soon as either side always is; `a and b` is
      // falsy as soon as either side always is.
      return operator === "or" ? anyTrue(values) : allTrue(values);
    }
    case "conditional_expression": {
      const [consequence, , alternative] = realChildren(node);
      if (consequence === undefined || alternative === undefined) {
        return undefined;
      }
      const a = constantTruthiness(consequence);
      const b = constantTruthiness(alternative);
      return a === b ? a : undefined;
    }
    default:
      return undefined;
  }
}

function numberTruthiness(text: string): boolean | undefined {
  const value = integerValue(text);
  if (value !== undefined) return value !== 0n;
  return floatTruthiness(text);
}

function floatTruthiness(text: string): boolean | undefined {
  const plain = text.replaceAll("_", "").replace(/[jJ]$/, "");
  const value = Number(plain.startsWith(".") ? `0${plain}` : plain);
  return Number.isNaN(value) ? undefined : value !== 0;
}

function stringTruthiness(node: Node): boolean | undefined {
  let interpolated = false;
  for (const part of node.namedChildren) {
    if (part === null) continue;
    if (part.type === "interpolation") interpolated = true;
    else if (
      part.type !== "string_start" && part.type !== "string_end" &&
      part.endIndex > part.startIndex
    ) return true;
  }
  return interpolated ? undefined : false;
}

function containerTruthiness(node: Node): boolean | undefined {
  const elements = realChildren(node);
  if (elements.length === 0) return false;
  return elements.some((element) => !SPLATS.has(element.type))
    ? true
    : undefined;
}

/** True if any is true, false if all are false, otherwise unknown. */
function anyTrue(values: (boolean | undefined)[]): boolean | undefined {
  if (values.includes(true)) return true;
  return values.every((value) => value === false) ? false : undefined;
}

/** False if any is false, true if all are true, otherwise unknown. */
function allTrue(values: (boolean | undefined)[]): boolean | undefined {
  if (values.includes(false)) return false;
  return values.every((value) => value === true) ? true : undefined;
}
