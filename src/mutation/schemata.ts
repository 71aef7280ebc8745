/**
 * Mutant schemata: every mutant of a file compiled into one copy of it,
 * the active one chosen at call time by the builtin `__pawl_active__` (a
 * mutant id, or None for the original code).
 *
 * This is the interim builder the warm mutant engine runs against until
 * the full compiler takes its place: it compiles in only the mutants of
 * undecorated top-level functions. The file's text stays as it is, so every
 * line of the original keeps its number; after it come one copy of each
 * such function per mutant (the mutant applied, under a name of its own)
 * and a trampoline bound to the function's name that calls the active
 * mutant's copy, or the original. Every other mutant is `excluded` and
 * runs the old way, on a copy of the tree with the mutant applied. Pure.
 *
 * @module
 */
import type { Node } from "web-tree-sitter";
import type { PythonParser } from "../python/load_python_parser.ts";
import { applyMutant, type Mutant } from "./mutant.ts";

/** A file with mutants compiled in. */
export interface Schemata {
  /** The file with every compiled-in mutant; `__pawl_active__` chooses at call time. */
  text: string;
  /** Mutant id → why it was not compiled in (it runs the old way). */
  excluded: ReadonlyMap<string, string>;
  /** Mutant id → 1-based lines of `text`, in the code the original runs, whose execution means a test covers the mutant. */
  coverLines: ReadonlyMap<string, readonly number[]>;
}

const PRELUDE = `

# pawl: mutant schemata
import builtins as __pawl_builtins
import functools as __pawl_functools


def __pawl_trampoline(original, variants):
    @__pawl_functools.wraps(original)
    def trampoline(*args, **kwargs):
        active = getattr(__pawl_builtins, "__pawl_active__", None)
        return variants.get(active, original)(*args, **kwargs)
    return trampoline
`;

/** Compile `mutants` of `file` (whose text is `text`) into one copy of it. */
export function buildSchemata(
  parser: PythonParser,
  file: string,
  text: string,
  mutants: readonly Mutant[],
): Schemata {
  const tree = parser.parse(text);
  try {
    const functions = topLevelFunctions(tree.rootNode);
    const excluded = new Map<string, string>();
    const coverLines = new Map<string, number[]>();
    const variants = new Map<Node, Mutant[]>();
    for (const m of mutants) {
      const fn = m.file === file
        ? functions.find((f) => f.startIndex <= m.start && m.end <= f.endIndex)
        : undefined;
      if (fn === undefined) {
        excluded.set(m.id, "not in an undecorated top-level function");
        continue;
      }
      variants.set(fn, [...(variants.get(fn) ?? []), m]);
      coverLines.set(m.id, lines(m.line, m.endLine));
    }
    if (variants.size === 0) return { text, excluded, coverLines };
    const out = [text.endsWith("\n") ? text : `${text}\n`, PRELUDE];
    for (const [fn, list] of variants) out.push(compiled(text, fn, list));
    return { text: out.join(""), excluded, coverLines };
  } finally {
    tree.delete();
  }
}

function topLevelFunctions(root: Node): Node[] {
  return root.namedChildren.filter((n): n is Node =>
    n !== null && n.type === "function_definition"
  );
}

/** One copy of `fn` per mutant and the trampoline bound to its name. */
function compiled(text: string, fn: Node, mutants: readonly Mutant[]): string {
  const name = fn.childForFieldName("name");
  if (name === null) return "";
  const entries: string[] = [];
  const copies: string[] = [];
  for (const m of mutants) {
    const own = `__pawl_${name.text}_${m.id}`;
    const mutated = applyMutant(text, m).slice(
      fn.startIndex,
      fn.endIndex + m.replacement.length - (m.end - m.start),
    );
    const at = name.startIndex - fn.startIndex;
    copies.push(
      `\n\n${mutated.slice(0, at)}${own}${
        mutated.slice(at + name.text.length)
      }\n`,
    );
    entries.push(`${JSON.stringify(m.id)}: ${own}`);
  }
  return `${
    copies.join("")
  }\n\n${name.text} = __pawl_trampoline(${name.text}, {${
    entries.join(", ")
  }})\n`;
}

function lines(from: number, to: number): number[] {
  return Array.from({ length: to - from + 1 }, (_, i) => from + i);
}
