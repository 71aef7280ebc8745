/**
 * Mutant schemata: every mutant of one Python file compiled into one copy of
 * the file, the mutant that runs chosen when the code runs. One import of
 * the copy then serves every mutant.
 *
 * Each outermost function (one not inside another function) that holds
 * mutants gets its body, after the docstring, rewritten as
 *
 * ```python
 * def f(a):
 *     """The docstring stays first."""
 *     global g                 # every global/nonlocal declaration, hoisted
 *     if __pawl_active__ not in {"m1", "m2"}:
 *         <the original body>
 *     else:
 *         if __pawl_active__ == "m1":
 *             <the body with m1 made>
 *         if __pawl_active__ == "m2":
 *             <the body with m2 made>
 * ```
 *
 * Mutants in nested functions, classes and lambdas are compiled into the
 * outermost function's branches, so the nested scope is compiled from the
 * mutated text exactly as in a mutated copy; only the outermost function's
 * own scope is shared by its branches, and a mutant that would change it is
 * excluded (see `_schemata_exclusions.ts`). Independent `if`s rather than
 * an `elif` chain keep CPython's compiler from recursing once per mutant.
 *
 * @module
 */
import type { PythonParser } from "../python/load_python_parser.ts";
import { linesAt, PythonLines } from "./_python_lines.ts";
import { ExclusionContext, exclusionOf } from "./_schemata_exclusions.ts";
import {
  type FunctionLayout,
  type FunctionRegion,
  layoutOf,
  outermostFunctions,
} from "./_schemata_layout.ts";
import { renderFunction, TextBuilder } from "./_schemata_render.ts";
import type { Mutant } from "./mutant.ts";

export { ACTIVE_MUTANT_NAME } from "./_schemata_render.ts";

/** One file with its mutants compiled in. */
export interface Schemata {
  /**
   * The file's text with every compiled-in mutant; which one runs is chosen
   * at call time by the builtin name `__pawl_active__` (a mutant id string,
   * or None for the original code).
   */
  text: string;
  /**
   * Mutants that could not be compiled in, by id, with why (they keep
   * running the old way: a mutated copy).
   */
  excluded: ReadonlyMap<string, string>;
  /**
   * For each compiled-in mutant: 1-based line numbers in `text`, inside the
   * branch the unmutated code runs, of the original code the mutant changes.
   * A test that executes any of these lines covers the mutant. The copy
   * has a `pass` where the original has a `global` or `nonlocal` statement
   * (hoisted to the top of the body), so a `return None` placed before one
   * is covered whenever the function runs, though the declaration itself
   * runs no code.
   */
  coverLines: ReadonlyMap<string, readonly number[]>;
  /**
   * For each compiled-in mutant: the 1-based first and last line in `text`
   * of its branch (its `if` line to the last line of its copy of the body),
   * to tell which mutant a compile error in `text` belongs to.
   */
  branchLines: ReadonlyMap<string, readonly [number, number]>;
}

/** Options for {@linkcode buildSchemata}. */
export interface BuildSchemataOptions {
  /**
   * About the most characters the schemata's text may have (default
   * 4,000,000, a second or two of CPython's compiler). Each compiled-in mutant adds a
   * copy of its function's body; when they would pass this, the mutants of
   * the largest functions are left out first.
   */
  maxLength?: number;
}

/** Default {@linkcode BuildSchemataOptions.maxLength}. */
export const SCHEMATA_MAX_LENGTH = 4_000_000;

/**
 * Compile `mutants` of `file` (whose text is `text`) into one copy of it.
 * A file without mutants, or whose every mutant is excluded, keeps its text.
 *
 * @example
 * ```ts ignore
 * const parser = await loadPythonParser();
 * const text = "def f(a):\n    return a < 1\n";
 * const schemata = buildSchemata(parser, "m.py", text, generateMutants(parser, "m.py", text));
 * ```
 */
export function buildSchemata(
  parser: PythonParser,
  file: string,
  text: string,
  mutants: readonly Mutant[],
  options: BuildSchemataOptions = {},
): Schemata {
  return parser.withTree(text, (tree) => {
    const lines = new PythonLines(text);
    const excluded = new Map<string, string>();
    const placed = place(
      file,
      text,
      outermostFunctions(tree.rootNode),
      mutants,
      excluded,
    );
    const context = new ExclusionContext(tree.rootNode, text);
    const planned: [FunctionLayout, Mutant[]][] = [];
    for (const [region, inRegion] of placed) {
      const layout = layoutOf(region, text, lines);
      const kept = inRegion.filter((m) => {
        const why = typeof layout === "string"
          ? layout
          : exclusionOf(m, layout, context);
        if (why !== undefined) excluded.set(m.id, why);
        return why === undefined;
      });
      if (typeof layout !== "string" && kept.length > 0) {
        planned.push([layout, kept]);
      }
    }
    const maxLength = options.maxLength ?? SCHEMATA_MAX_LENGTH;
    const fitted = withinLength(text.length, planned, maxLength, excluded);
    return { ...render(text, lines, fitted), excluded };
  });
}

/**
 * The id of the mutant whose branch holds `line` of `schemata.text`, or
 * undefined outside every branch.
 */
export function mutantAtLine(
  schemata: Schemata,
  line: number,
): string | undefined {
  for (const [id, [first, last]] of schemata.branchLines) {
    if (first <= line && line <= last) return id;
  }
  return undefined;
}

/** Each mutant with the outermost function whose body holds it; the rest excluded. */
function place(
  file: string,
  text: string,
  regions: readonly FunctionRegion[],
  mutants: readonly Mutant[],
  excluded: Map<string, string>,
): Map<FunctionRegion, Mutant[]> {
  const placed = new Map<FunctionRegion, Mutant[]>();
  const counts = new Map<string, number>();
  for (const m of mutants) counts.set(m.id, (counts.get(m.id) ?? 0) + 1);
  for (const m of mutants) {
    const region = regions.find((r) => r.start <= m.start && m.end <= r.end);
    const why = (counts.get(m.id) as number) > 1
      ? `the id "${m.id}" is given more than once`
      : m.file !== file
      ? `the mutant is of "${m.file}", not "${file}"`
      : text.slice(m.start, m.end) !== m.original
      ? `the mutant's original text is not at offset ${m.start} of "${file}"`
      : region === undefined
      ? "the change is not inside a function body"
      : undefined;
    if (why !== undefined || region === undefined) {
      if (why !== undefined) excluded.set(m.id, why);
      continue;
    }
    const list = placed.get(region);
    if (list === undefined) placed.set(region, [m]);
    else list.push(m);
  }
  return placed;
}

/**
 * The planned mutants whose copies keep the text within `maxLength`,
 * cheapest copies first; the rest excluded.
 */
function withinLength(
  length: number,
  planned: readonly [FunctionLayout, Mutant[]][],
  maxLength: number,
  excluded: Map<string, string>,
): [FunctionLayout, Mutant[]][] {
  const costs = planned.map(([layout]) => copyLength(layout));
  const order = planned.flatMap(([, mutants], i) =>
    mutants.map((m) => ({ i, m }))
  )
    .sort((a, b) => (costs[a.i] as number) - (costs[b.i] as number));
  const kept = planned.map((): Mutant[] => []);
  let total = length;
  for (const { i, m } of order) {
    const list = kept[i] as Mutant[];
    const cost = (costs[i] as number) * (list.length === 0 ? 2 : 1) +
      m.replacement.length + m.id.length * 2;
    if (total + cost > maxLength) {
      const name = (planned[i] as [FunctionLayout, Mutant[]])[0].name;
      excluded.set(
        m.id,
        `a copy of "${name}" for it would take the schemata past ${maxLength} characters`,
      );
      continue;
    }
    total += cost;
    list.push(m);
  }
  return planned.flatMap(([layout, mutants], i) => {
    const keep = new Set(kept[i]);
    const list = mutants.filter((m) => keep.has(m));
    return list.length > 0
      ? [[layout, list] as [FunctionLayout, Mutant[]]]
      : [];
  });
}

/** About what one more copy of `layout`'s body adds, with its `if` line. */
function copyLength(layout: FunctionLayout): number {
  const indented = layout.lineStarts.filter((l) => l.indent).length + 1;
  return layout.end - layout.start +
    indented * 2 * layout.unit.length +
    2 * (layout.indent.length + layout.newline.length) + 40;
}

/** The text with each planned function rewritten, and where each mutant landed. */
function render(
  text: string,
  lines: PythonLines,
  planned: readonly [FunctionLayout, Mutant[]][],
): Omit<Schemata, "excluded"> {
  const out = new TextBuilder();
  const original = new Map<number, number>();
  const branches = new Map<string, [number, number]>();
  let cursor = 0;
  for (
    const [layout, mutants] of [...planned].sort((a, b) =>
      a[0].start - b[0].start
    )
  ) {
    out.push(text.slice(cursor, layout.start));
    const rendered = renderFunction(out, text, lines, layout, mutants);
    for (const [line, at] of rendered.original) original.set(line, at);
    for (const [id, at] of rendered.branches) branches.set(id, at);
    cursor = layout.end;
  }
  out.push(text.slice(cursor));
  const result = out.toString();
  const at = linesAt(result, [
    ...original.values(),
    ...[...branches.values()].flat(),
  ]);
  const coverLines = new Map<string, number[]>();
  const branchLines = new Map<string, [number, number]>();
  for (const [, mutants] of planned) {
    for (const m of mutants) {
      const covered: number[] = [];
      for (let l = lines.lineOf(m.start); l <= lines.lineOf(m.end); l++) {
        const offset = original.get(l);
        if (offset !== undefined) covered.push(at.get(offset) as number);
      }
      coverLines.set(m.id, covered);
      const [header, end] = branches.get(m.id) as [number, number];
      branchLines.set(m.id, [at.get(header) as number, at.get(end) as number]);
    }
  }
  return { text: result, coverLines, branchLines };
}
