/**
 * Why a mutant cannot share one copy of its function with the others.
 * Python fixes some things for a whole function when it compiles it: which
 * names are local and whether it is a generator. Every branch of a schemata
 * is compiled into the same function, so a mutant that changes those facts
 * would not behave there as it does in a mutated copy of the file. Nor may
 * one mutant make the whole file fail to compile.
 *
 * @module
 */
import type { Node } from "web-tree-sitter";
import {
  type FunctionScope,
  functionScope,
  moduleScope,
  type Span,
} from "./_function_scope.ts";
import type { FunctionLayout } from "./_schemata_layout.ts";
import type { Mutant } from "./mutant.ts";

/** Names of Python's builtins (3.11 to 3.13), and `_`, which `gettext.install()` adds. */
const BUILTINS = new Set(
  ("ArithmeticError AssertionError AttributeError BaseException " +
    "BaseExceptionGroup BlockingIOError BrokenPipeError BufferError " +
    "BytesWarning ChildProcessError ConnectionAbortedError ConnectionError " +
    "ConnectionRefusedError ConnectionResetError DeprecationWarning EOFError " +
    "Ellipsis EncodingWarning EnvironmentError Exception ExceptionGroup False " +
    "FileExistsError FileNotFoundError FloatingPointError FutureWarning " +
    "GeneratorExit IOError ImportError ImportWarning IndentationError " +
    "IndexError InterruptedError IsADirectoryError KeyError " +
    "KeyboardInterrupt LookupError MemoryError ModuleNotFoundError NameError " +
    "None NotADirectoryError NotImplemented NotImplementedError OSError " +
    "OverflowError PendingDeprecationWarning PermissionError " +
    "ProcessLookupError PythonFinalizationError RecursionError " +
    "ReferenceError ResourceWarning RuntimeError RuntimeWarning " +
    "StopAsyncIteration StopIteration SyntaxError SyntaxWarning SystemError " +
    "SystemExit TabError TimeoutError True TypeError UnboundLocalError " +
    "UnicodeDecodeError UnicodeEncodeError UnicodeError " +
    "UnicodeTranslateError UnicodeWarning UserWarning ValueError Warning " +
    "ZeroDivisionError abs aiter all anext any ascii bin bool breakpoint " +
    "bytearray bytes callable chr classmethod compile complex copyright " +
    "credits delattr dict dir divmod enumerate eval exec exit filter float " +
    "format frozenset getattr globals hasattr hash help hex id input int " +
    "isinstance issubclass iter len license list locals map max memoryview " +
    "min next object oct open ord pow print property quit range repr " +
    "reversed round set setattr slice sorted staticmethod str sum super " +
    "tuple type vars zip _").split(" "),
);

/** Ways a module can bind globals no static reading sees. */
const DYNAMIC_GLOBALS = /\bglobals\s*\(|\bexec\s*\(/;

/** What the whole module lets a name mean outside a function. */
interface ModuleNames {
  /** Names bound at module level or declared `global` anywhere. */
  bound: Set<string>;
  /** The module may bind any name at run time (star import, `globals()`, `exec`). */
  dynamic: boolean;
}

/** Reads of the module, made once and only when a mutant needs them. */
export class ExclusionContext {
  readonly #root: Node;
  readonly #text: string;
  #module: ModuleNames | undefined;

  /** Over the module `root` parsed from `text`. */
  constructor(root: Node, text: string) {
    this.#root = root;
    this.#text = text;
  }

  /** The module's names, read on first use. */
  get module(): ModuleNames {
    this.#module ??= moduleNames(this.#root, this.#text);
    return this.#module;
  }
}

/** Why `m` (a change in `layout`'s region) cannot be compiled in, or undefined. */
export function exclusionOf(
  m: Mutant,
  layout: FunctionLayout,
  context: ExclusionContext,
): string | undefined {
  const dropped = droppedSpan(m);
  if (dropped !== undefined) {
    const why = scopeChange(dropped, layout, context);
    if (why !== undefined) return why;
  }
  if (/\breturn\b/.test(m.replacement) && !/\breturn\b/.test(m.original)) {
    const inner = innermostFunction(layout.fn, m);
    const scope = inner === layout.fn ? layout.scope : functionScope(inner);
    if (scope.isAsync && scope.yields.length > 0) {
      const name = inner.childForFieldName("name")?.text ?? "?";
      return `"${m.replacement.trim()}" is a syntax error in the async generator "${name}"`;
    }
  }
  if (m.replacement.includes('"') && !m.original.includes('"')) {
    if (insideDoubleQuotedFString(layout.fn, m)) {
      return `the replacement's quotes would end the enclosing f-string before Python 3.12`;
    }
  }
  return undefined;
}

/**
 * The part of the original text the mutant removes as code: none when the
 * replacement keeps it (`not (x)`), the head when it keeps the tail
 * (`not x` → `x`), else all of it.
 */
function droppedSpan(m: Mutant): Span | undefined {
  if (m.start === m.end || m.replacement.includes(m.original)) return undefined;
  if (m.replacement !== "" && m.original.endsWith(m.replacement)) {
    return { start: m.start, end: m.end - m.replacement.length };
  }
  return { start: m.start, end: m.end };
}

function within(inner: Span, outer: Span): boolean {
  return outer.start <= inner.start && inner.end <= outer.end;
}

/** Why removing `dropped` changes what the function's scope is, if it does. */
function scopeChange(
  dropped: Span,
  layout: FunctionLayout,
  context: ExclusionContext,
): string | undefined {
  const scope = layout.scope;
  if (
    scope.yields.length > 0 && scope.yields.every((y) => within(y, dropped))
  ) {
    return `"${layout.name}" would stop being a generator: the change removes every "yield" in it`;
  }
  for (const name of lostLocals(scope, dropped)) {
    const why = resolution(name, layout, context);
    if (why !== undefined) {
      return `"${name}" would stop being a local of "${layout.name}" ${why}`;
    }
  }
  return undefined;
}

/** Names bound only inside `dropped` (and not declared global or nonlocal). */
function lostLocals(scope: FunctionScope, dropped: Span): string[] {
  const inside = new Set<string>();
  const outside = new Set<string>();
  for (const b of scope.bindings) {
    (within(b, dropped) ? inside : outside).add(b.name);
  }
  return [...inside].filter((n) => !outside.has(n) && !scope.declared.has(n))
    .sort();
}

/**
 * How a name that stops being local could then be found: in the schemata
 * it stays local and unbound, so the mutant is faithful only when Python
 * would find it nowhere else either (both then raise a `NameError`).
 */
function resolution(
  name: string,
  layout: FunctionLayout,
  context: ExclusionContext,
): string | undefined {
  if (BUILTINS.has(name)) return `and could then name the builtin "${name}"`;
  if (name.startsWith("__") && name.endsWith("__")) {
    return `and could then name the module attribute "${name}"`;
  }
  const module = context.module;
  if (module.bound.has(name)) {
    return `and could then name the module's global "${name}"`;
  }
  if (module.dynamic) {
    return "and the module may bind globals at run time";
  }
  if (nestedNonlocals(layout.fn).has(name)) {
    return `while a nested function declares it "nonlocal"`;
  }
  return undefined;
}

function moduleNames(root: Node, text: string): ModuleNames {
  const bound = new Set(moduleScope(root).bindings.map((b) => b.name));
  let dynamic = DYNAMIC_GLOBALS.test(text);
  const stack: Node[] = [root];
  while (stack.length > 0) {
    const node = stack.pop() as Node;
    if (node.type === "global_statement") {
      for (const n of node.namedChildren) if (n !== null) bound.add(n.text);
      continue;
    }
    if (node.type === "wildcard_import") dynamic = true;
    if (node.type === "string") continue;
    for (const child of node.namedChildren) {
      if (child !== null) stack.push(child);
    }
  }
  return { bound, dynamic };
}

function nestedNonlocals(fn: Node): Set<string> {
  const out = new Set<string>();
  for (const node of fn.descendantsOfType("nonlocal_statement")) {
    for (const n of node?.namedChildren ?? []) if (n !== null) out.add(n.text);
  }
  return out;
}

/** The innermost function whose body holds the change. */
function innermostFunction(outer: Node, m: Mutant): Node {
  let node: Node | null = outer.descendantForIndex(m.start, m.end);
  for (; node !== null && node.id !== outer.id; node = node.parent) {
    if (node.type !== "function_definition") continue;
    const body = node.childForFieldName("body");
    if (body !== null && body.startIndex <= m.start) return node;
  }
  return outer;
}

/** The change sits in an interpolation of an f-string delimited by one `"`. */
function insideDoubleQuotedFString(outer: Node, m: Mutant): boolean {
  let node: Node | null = outer.descendantForIndex(m.start, m.end);
  for (; node !== null && node.id !== outer.id; node = node.parent) {
    if (node.type !== "interpolation") continue;
    const start = node.parent?.children.find((c) => c?.type === "string_start")
      ?.text ?? "";
    if (/[fF]/.test(start) && start.endsWith('"') && !start.endsWith('"""')) {
      return true;
    }
  }
  return false;
}
