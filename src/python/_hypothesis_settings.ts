import type { Node } from "web-tree-sitter";
import type { HypothesisSettings } from "./python_module.ts";
import { integerValue } from "./_integer_value.ts";
import { realChildren } from "./_real_children.ts";
import { unwrapParentheses } from "./_unwrap_parentheses.ts";

/**
 * Read a `settings(...)` call: every keyword argument as source text, and
 * `max_examples` when it is an integer literal. `max_examples` counts as
 * dynamic when it is any other expression, or when it is absent but a
 * parent settings object or a `**` splat could supply it.
 */
export function hypothesisSettings(
  call: Node,
  line: number,
  textOf: (node: Node) => string,
): HypothesisSettings {
  const settings: HypothesisSettings = { line, keywords: {} };
  const list = call.childForFieldName("arguments");
  if (list === null || list.type !== "argument_list") {
    settings.maxExamplesDynamic = true;
    return settings;
  }
  let inherited = false;
  let maxExamples: Node | undefined;
  for (const argument of realChildren(list)) {
    if (argument.type !== "keyword_argument") {
      inherited = true;
      continue;
    }
    const name = argument.childForFieldName("name");
    const value = argument.childForFieldName("value");
    if (name === null || value === null) continue;
    settings.keywords[name.text] = textOf(value);
    if (name.text === "max_examples") maxExamples = value;
  }
  if (maxExamples === undefined) {
    if (inherited) settings.maxExamplesDynamic = true;
    return settings;
  }
  const literal = unwrapParentheses(maxExamples);
  const value = literal.type === "integer"
    ? integerValue(literal.text)
    : undefined;
  if (value !== undefined && value <= BigInt(Number.MAX_SAFE_INTEGER)) {
    settings.maxExamples = Number(value);
  } else {
    settings.maxExamplesDynamic = true;
  }
  return settings;
}
