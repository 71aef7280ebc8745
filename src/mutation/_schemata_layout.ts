/**
 * Where a function's body can be copied into the branches of a schemata:
 * the statements after its docstring, their indentation, and which of
 * their lines may take more indentation.
 *
 * @module
 */
import type { Node } from "web-tree-sitter";
import { type FunctionScope, functionScope } from "./_function_scope.ts";
import type { PythonLines } from "./_python_lines.ts";

/** An outermost function and the part of its body the branches copy. */
export interface FunctionRegion {
  /** The `function_definition` node. */
  fn: Node;
  /** Its name, for messages. */
  name: string;
  /** Start of the first statement after the docstring. */
  start: number;
  /** End of the body's last statement. */
  end: number;
  /** Start of the body's first statement (the docstring when there is one). */
  first: number;
}

/** How the region's text is laid out, once a function is known to hold mutants. */
export interface FunctionLayout extends FunctionRegion {
  /** Indentation of the body's statements. */
  indent: string;
  /** One more level, in the body's own indentation character. */
  unit: string;
  /** The region starts after other code on its line (`def f(): return 1`, `"""doc"""; x = 1`). */
  sameLine: boolean;
  /** The line break the function's file uses. */
  newline: string;
  /** Line starts inside the region and whether the line takes more indentation. */
  lineStarts: readonly LineStart[];
  /** The function's own scope. */
  scope: FunctionScope;
}

/** A line start inside a region. */
export interface LineStart {
  /** Offset in the file. */
  offset: number;
  /** Its 1-based line. */
  line: number;
  /** False inside a string (the line is string content) and on blank lines. */
  indent: boolean;
}

/** Nodes that begin a logical line, besides a block's statements. */
const CLAUSES = new Set([
  "elif_clause",
  "else_clause",
  "except_clause",
  "except_group_clause",
  "finally_clause",
  "case_clause",
  "decorator",
  "function_definition",
  "class_definition",
]);

/** Every outermost function of the module (not inside another function) with a statement after its docstring. */
export function outermostFunctions(root: Node): FunctionRegion[] {
  const out: FunctionRegion[] = [];
  const stack: Node[] = [root];
  while (stack.length > 0) {
    const node = stack.pop() as Node;
    if (node.type === "function_definition") {
      const region = regionOf(node);
      if (region !== undefined) out.push(region);
      continue;
    }
    for (const child of node.namedChildren) {
      if (child !== null) stack.push(child);
    }
  }
  return out.sort((a, b) => a.start - b.start);
}

function regionOf(fn: Node): FunctionRegion | undefined {
  const body = fn.childForFieldName("body");
  if (body === null) return undefined;
  const statements = body.namedChildren.filter((n): n is Node =>
    n !== null && !n.isExtra
  );
  const first = statements[0];
  const rest = first !== undefined && isDocstring(first)
    ? statements.slice(1)
    : statements;
  const head = rest[0];
  const last = rest.at(-1);
  if (head === undefined || last === undefined) return undefined;
  return {
    fn,
    name: fn.childForFieldName("name")?.text ?? "?",
    start: head.startIndex,
    end: last.endIndex,
    first: (first as Node).startIndex,
  };
}

/**
 * The layout of `region`, or why its body cannot be copied into branches.
 */
export function layoutOf(
  region: FunctionRegion,
  text: string,
  lines: PythonLines,
): FunctionLayout | string {
  const body = region.fn.childForFieldName("body") as Node;
  const defLine = text.slice(
    lines.lineStart(region.fn.startIndex),
    region.fn.startIndex,
  );
  if (!/^[ \t]*$/.test(defLine)) {
    return `the definition of "${region.name}" does not start its line`;
  }
  const firstIndent = lines.indentBefore(region.first);
  let indent: string;
  let unit: string;
  if (firstIndent === undefined) {
    unit = defLine.includes("\t") ? "\t" : "    ";
    indent = defLine + unit;
  } else if (
    firstIndent.startsWith(defLine) && firstIndent.length > defLine.length
  ) {
    indent = firstIndent;
    unit = firstIndent.slice(defLine.length);
  } else {
    return `the body of "${region.name}" is not indented past its definition`;
  }
  const mixed =
    `the body of "${region.name}" mixes tabs and spaces in its indentation`;
  const char = unit[0] as string;
  if (![...indent].every((c) => c === char)) return mixed;
  const statementStarts = logicalLineStarts(body);
  const inStrings = stringLineStarts(body, lines);
  const lineStarts: LineStart[] = [];
  for (const offset of lines.startsWithin(region.start, region.end)) {
    const content = lines.text(offset);
    const blank = /^[ \t\f]*$/.test(content);
    const inString = inStrings.has(offset);
    const lead = /^[ \t\f]*/.exec(content)?.[0] ?? "";
    if (
      !inString && !blank && statementStarts.has(offset + lead.length) &&
      ![...lead].every((c) => c === char)
    ) return mixed;
    lineStarts.push({
      offset,
      line: lines.lineOf(offset),
      indent: !inString && !blank,
    });
  }
  return {
    ...region,
    indent,
    unit,
    sameLine: lines.indentBefore(region.start) === undefined,
    newline: newlineOf(text, region.fn.startIndex),
    lineStarts,
    scope: functionScope(region.fn),
  };
}

/** Offsets where a statement or clause of `body` begins (its line's indentation matters). */
function logicalLineStarts(body: Node): Set<number> {
  const out = new Set<number>();
  const stack: Node[] = [body];
  while (stack.length > 0) {
    const node = stack.pop() as Node;
    const isBlock = node.type === "block";
    for (const child of node.namedChildren) {
      if (child === null || child.isExtra) continue;
      if (isBlock || CLAUSES.has(child.type)) out.add(child.startIndex);
      if (child.type === "string") continue;
      stack.push(child);
    }
  }
  return out;
}

/** Line starts inside a string of `node`: string content, never re-indented. */
function stringLineStarts(node: Node, lines: PythonLines): Set<number> {
  const out = new Set<number>();
  const stack: Node[] = [node];
  while (stack.length > 0) {
    const n = stack.pop() as Node;
    if (n.type === "string") {
      for (const p of lines.startsWithin(n.startIndex, n.endIndex)) out.add(p);
      continue;
    }
    for (const child of n.namedChildren) if (child !== null) stack.push(child);
  }
  return out;
}

/** The line break after `offset` (`\n` when there is none). */
function newlineOf(text: string, offset: number): string {
  const breaks = /\r\n|\r|\n/g;
  breaks.lastIndex = offset;
  return breaks.exec(text)?.[0] ?? "\n";
}

/** A docstring: a statement that is only a string. */
export function isDocstring(statement: Node): boolean {
  if (statement.type !== "expression_statement") return false;
  const only = statement.namedChildren.filter((n) => n !== null && !n.isExtra);
  return only.length === 1 &&
    (only[0]?.type === "string" || only[0]?.type === "concatenated_string");
}
