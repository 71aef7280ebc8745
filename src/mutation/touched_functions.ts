/**
 * The functions of a file the pull request touched: those whose source
 * at head differs from the base's function of the same qualified name, or
 * that the base lacks.
 *
 * @module
 */
import type { PythonParser } from "../python/load_python_parser.ts";
import { functionsOf } from "./generate_mutants.ts";

/** Qualified names of the head's functions in `headText` that differ from `baseText`'s (all of them when the base has no such file). */
export function touchedFunctions(
  parser: PythonParser,
  baseText: string | undefined,
  headText: string,
): Set<string> {
  const base = baseText === undefined
    ? new Map<string, string>()
    : sources(parser, baseText);
  const touched = new Set<string>();
  for (const [name, source] of sources(parser, headText)) {
    if (base.get(name) !== source) touched.add(name);
  }
  return touched;
}

function sources(parser: PythonParser, text: string): Map<string, string> {
  return parser.withTree(text, (tree) => {
    const out = new Map<string, string>();
    // A name defined twice is every definition of it: the last is the one
    // called, and an earlier one may have been used before it was replaced.
    for (const fn of functionsOf(tree.rootNode, [])) {
      const before = out.get(fn.qualname);
      out.set(
        fn.qualname,
        before === undefined ? fn.node.text : `${before}\n${fn.node.text}`,
      );
    }
    return out;
  });
}
