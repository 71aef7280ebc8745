/**
 * Writing a function's body as a dispatch on the active mutant: the
 * original statements first, then one branch per mutant, each a copy of
 * the body with one change, indented one level deeper.
 *
 * @module
 */
import type { FunctionLayout } from "./_schemata_layout.ts";
import type { PythonLines } from "./_python_lines.ts";
import type { Mutant } from "./mutant.ts";

/** The builtin name whose value picks the mutant that runs. */
export const ACTIVE_MUTANT_NAME = "__pawl_active__";

/** Text appended piece by piece, with its length so far. */
export class TextBuilder {
  #parts: string[] = [];
  #length = 0;

  /** Characters written so far. */
  get length(): number {
    return this.#length;
  }

  /** Append `text`. */
  push(text: string): void {
    this.#parts.push(text);
    this.#length += text.length;
  }

  /** Everything written. */
  toString(): string {
    return this.#parts.join("");
  }
}

/** Where each part of a rendered function landed, as offsets in the output. */
export interface RenderedFunction {
  /** Original line → output offset of its copy in the unmutated branch. */
  original: Map<number, number>;
  /** Mutant id → output offsets of its branch's `if` line and of its end. */
  branches: Map<string, [number, number]>;
}

interface Edit {
  start: number;
  end: number;
  replacement: string;
  /** Code the replacement adds: its own line breaks take the branch's indentation. */
  inserts: boolean;
}

/** Write `layout`'s region as a dispatch over `mutants` to `out`. */
export function renderFunction(
  out: TextBuilder,
  text: string,
  lines: PythonLines,
  layout: FunctionLayout,
  mutants: readonly Mutant[],
): RenderedFunction {
  const { indent, unit, newline: nl } = layout;
  const rendered: RenderedFunction = {
    original: new Map(),
    branches: new Map(),
  };
  const declarations: Edit[] = layout.scope.declarations.map((d) => ({
    start: d.startIndex,
    end: d.endIndex,
    replacement: "pass",
    inserts: false,
  }));
  if (layout.sameLine) out.push(nl + indent);
  for (const line of hoisted(layout)) out.push(line + nl + indent);
  const ids = mutants.map((m) => JSON.stringify(m.id)).join(", ");
  out.push(`if ${ACTIVE_MUTANT_NAME} not in {${ids}}:${nl}`);
  rendered.original.set(lines.lineOf(layout.start), out.length);
  out.push(indent + unit);
  renderRegion(out, text, layout, declarations, unit, rendered.original);
  out.push(`${nl}${indent}else:`);
  for (const m of mutants) {
    out.push(nl);
    const header = out.length;
    out.push(
      `${indent}${unit}if ${ACTIVE_MUTANT_NAME} == ${JSON.stringify(m.id)}:`,
    );
    out.push(`${nl}${indent}${unit}${unit}`);
    const edit: Edit = {
      start: m.start,
      end: m.end,
      replacement: m.replacement,
      inserts: m.start === m.end,
    };
    const edits = [...declarations, edit].sort((a, b) =>
      a.start - b.start || a.end - b.end
    );
    renderRegion(out, text, layout, edits, unit + unit, undefined);
    rendered.branches.set(m.id, [header, out.length]);
  }
  return rendered;
}

/** `global` and `nonlocal` lines for the top of the body: Python reads them for the whole function, but not after a use. */
function hoisted(layout: FunctionLayout): string[] {
  const byKeyword = new Map<string, string[]>();
  for (const d of layout.scope.declarations) {
    const keyword = d.type === "global_statement" ? "global" : "nonlocal";
    const names = byKeyword.get(keyword) ?? [];
    for (const n of d.namedChildren) {
      if (n?.type === "identifier" && !names.includes(n.text)) {
        names.push(n.text);
      }
    }
    byKeyword.set(keyword, names);
  }
  return [...byKeyword].map(([k, names]) => `${k} ${names.join(", ")}`);
}

/**
 * The region's text with `edits` made and `extra` indentation before every
 * line that takes it; each copied line's output offset goes to `record`.
 */
function renderRegion(
  out: TextBuilder,
  text: string,
  layout: FunctionLayout,
  edits: readonly Edit[],
  extra: string,
  record: Map<number, number> | undefined,
): void {
  let pos = layout.start;
  let next = 0;
  const flushEdits = (before: number) => {
    for (let e = edits[next]; e !== undefined && e.start < before;) {
      out.push(text.slice(pos, e.start));
      out.push(
        e.inserts
          ? e.replacement.replace(/\r\n|\r|\n/g, (br) => br + extra)
          : e.replacement,
      );
      pos = e.end;
      e = edits[++next];
    }
  };
  for (const start of layout.lineStarts) {
    flushEdits(start.offset);
    if (start.offset < pos) continue;
    out.push(text.slice(pos, start.offset));
    pos = start.offset;
    record?.set(start.line, out.length);
    if (start.indent) out.push(extra);
  }
  flushEdits(Infinity);
  out.push(text.slice(pos, layout.end));
}
