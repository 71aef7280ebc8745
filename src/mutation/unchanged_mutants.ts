/**
 * Mutants of the code a pull request did not change, placed in both
 * commits: every mutant of a file whose text is the same at base and head,
 * and, in a file the pull request changed, every mutant of a function
 * whose source is the same in both (the same qualified name, the same
 * text). Each mutant keeps its head id; its base copy is the same change
 * moved to where the function sits in the base's text. A mutant of a
 * changed file outside any function, or of a function the base has twice
 * or changed, is left out: its place in the base is not the same code.
 *
 * Also what the pull request changed in the same files: the functions it
 * added or changed, and the statements outside any function it added or
 * changed (a class attribute such as a field left out of the comparison),
 * where a surviving mutant's path is likely to run through.
 *
 * @module
 */
import type { PythonParser } from "../python/load_python_parser.ts";
import { functionsOf, generateMutants } from "./generate_mutants.ts";
import type { Mutant, MutationOperator } from "./mutant.ts";

/** One code file at both commits. */
export interface FileAtBoth {
  /** Repository-relative path. */
  file: string;
  /** The base's text. */
  base: string;
  /** The head's text. */
  head: string;
}

/** A function or a statement outside any function that the pull request added or changed. */
export interface ChangedFunction {
  /** Repository-relative path. */
  file: string;
  /** Qualified name (`Class.method`), or the statement's line as written (shortened). */
  qualname: string;
  /** 1-based line of its `def` (or of the statement) at head. */
  line: number;
}

/** Characters of a changed statement's line shown. */
const STATEMENT_CHARS = 60;

/** The mutants of unchanged code, and what changed around them. */
export interface UnchangedMutants {
  /** Mutants at their head places (ids as the head's), in file order. */
  mutants: Mutant[];
  /** Each mutant's copy at its base place, by id. */
  atBase: Map<string, Mutant>;
  /** Files whose text differs between base and head (of those given). */
  changedFiles: Set<string>;
  /** Functions added or changed at head, in file and line order. */
  changed: ChangedFunction[];
  /** Every name the changed functions and statements use: the code they call or build. */
  referenced: Set<string>;
}

/**
 * Whether a mutant lies in code the changed code names: its function, or
 * a class it is a method of.
 */
export function namedByChange(u: UnchangedMutants, m: Mutant): boolean {
  return m.function.split(".").some((part) => u.referenced.has(part));
}

/** Where each function of a text starts, by qualified name (null: defined more than once). */
interface Placed {
  start: number;
  line: number;
  text: string;
}

/**
 * The mutants of `files` that lie in code the pull request did not change.
 *
 * @example
 * ```ts
 * import { loadPythonParser } from "../python/load_python_parser.ts";
 * import { unchangedMutants } from "./unchanged_mutants.ts";
 * const parser = await loadPythonParser();
 * const base = "def f(a):\n    return a + 1\n";
 * const head = "import os\n\n" + base + "\ndef g():\n    return 2\n";
 * const u = unchangedMutants(parser, [{ file: "m.py", base, head }], {
 *   operators: ["arithmetic"],
 * });
 * const m = u.mutants.find((x) => x.function === "f")!;
 * if (u.atBase.get(m.id)!.start !== m.start - 11) throw new Error();
 * const names = u.changed.map((c) => c.qualname);
 * if (names.join() !== "import os,g") throw new Error(names.join());
 * ```
 */
export function unchangedMutants(
  parser: PythonParser,
  files: readonly FileAtBoth[],
  options: { operators: readonly MutationOperator[] },
): UnchangedMutants {
  const out: UnchangedMutants = {
    mutants: [],
    atBase: new Map(),
    changedFiles: new Set(),
    changed: [],
    referenced: new Set(),
  };
  for (const { file, base, head } of files) {
    const mutants = generateMutants(parser, file, head, options);
    if (base === head) {
      for (const m of mutants) {
        out.mutants.push(m);
        out.atBase.set(m.id, m);
      }
      continue;
    }
    out.changedFiles.add(file);
    const atBase = placed(parser, base);
    const atHead = placed(parser, head);
    for (const [qualname, h] of atHead) {
      const b = atBase.get(qualname);
      if (h === null || b === undefined || b === null || b.text !== h.text) {
        if (h !== null) {
          out.changed.push({ file, qualname, line: h.line });
          for (const n of names(h.text)) out.referenced.add(n);
        }
      }
    }
    for (const c of changedStatements(file, base, head, atHead)) {
      out.changed.push(c);
      for (const n of names(c.qualname)) out.referenced.add(n);
    }
    for (const m of mutants) {
      const h = atHead.get(m.function);
      const b = atBase.get(m.function);
      if (h == null || b == null || b.text !== h.text) continue;
      const moved = moveMutant(m, h, b);
      // Stryker disable next-line ConditionalExpression: the mutant lies inside its function, whose text is the same at both, so the moved slice is always the original
      if (base.slice(moved.start, moved.end) !== m.original) continue;
      out.mutants.push(m);
      out.atBase.set(m.id, moved);
    }
  }
  out.changed.sort((a, b) =>
    a.file < b.file ? -1 : a.file > b.file ? 1 : a.line - b.line
  );
  return out;
}

/** The mutant moved from where its function starts at head to where it starts at base. */
function moveMutant(m: Mutant, head: Placed, base: Placed): Mutant {
  const by = base.start - head.start;
  const lines = base.line - head.line;
  return {
    ...m,
    start: m.start + by,
    end: m.end + by,
    line: m.line + lines,
    endLine: m.endLine + lines,
  };
}

/** The identifiers a piece of code uses. */
function names(code: string): string[] {
  return code.match(/[A-Za-z_][A-Za-z0-9_]*/g) ?? [];
}

/**
 * Lines of `head` outside every function that the base's text does not
 * have (as written, indentation aside), blank lines and comments left
 * out: the statements a pull request added or changed there.
 */
function changedStatements(
  file: string,
  base: string,
  head: string,
  functions: ReadonlyMap<string, Placed | null>,
): ChangedFunction[] {
  const had = new Set(base.split("\n").map((l) => l.trim()));
  // Stryker disable next-line ArrayDeclaration: a stray entry destructures to strings, which compare false with every line number
  const inside: [number, number][] = [];
  for (const f of functions.values()) {
    if (f !== null) {
      inside.push([f.line, f.line + f.text.split("\n").length - 1]);
    }
  }
  const out: ChangedFunction[] = [];
  head.split("\n").forEach((raw, i) => {
    const line = i + 1;
    const text = raw.trim();
    if (text === "" || text.startsWith("#") || had.has(text)) return;
    if (inside.some(([a, b]) => line >= a && line <= b)) return;
    out.push({ file, qualname: text.slice(0, STATEMENT_CHARS), line });
  });
  return out;
}

/** Each function's start, line and source, by qualified name; null for a name defined twice. */
function placed(
  parser: PythonParser,
  text: string,
): Map<string, Placed | null> {
  return parser.withTree(text, (tree) => {
    const out = new Map<string, Placed | null>();
    for (const fn of functionsOf(tree.rootNode, [])) {
      if (out.has(fn.qualname)) {
        out.set(fn.qualname, null);
        continue;
      }
      out.set(fn.qualname, {
        start: fn.node.startIndex,
        line: fn.node.startPosition.row + 1,
        text: fn.node.text,
      });
    }
    return out;
  });
}
