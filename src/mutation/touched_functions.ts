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
    ? new Map<string, string[]>()
    : sources(parser, baseText);
  const touched = new Set<string>();
  for (const [name, texts] of sources(parser, headText)) {
    const was = base.get(name);
    if (
      was === undefined || was.length !== texts.length ||
      texts.some((text, i) => text !== was[i])
    ) {
      touched.add(name);
    }
  }
  return touched;
}

/**
 * Each qualified name's definitions, in order. A name defined twice is every
 * definition of it: the last is the one called, and an earlier one may have
 * been used before it was replaced.
 */
function sources(parser: PythonParser, text: string): Map<string, string[]> {
  return parser.withTree(text, (tree) => {
    const texts = new Map<string, string[]>();
    for (const fn of functionsOf(tree.rootNode, [])) {
      const known = texts.get(fn.qualname);
      if (known === undefined) texts.set(fn.qualname, [fn.node.text]);
      else known.push(fn.node.text);
    }
    return texts;
  });
}
