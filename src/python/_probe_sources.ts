import type { Node } from "web-tree-sitter";
import type { ImportAliases } from "./_import_aliases.ts";
import { callArguments, stringValue } from "./_fold_string.ts";

/** Where followed data comes from, as bits: a value may mix them. */
export const FROM = {
  /** A frame, a stack summary or a frame's contents. */
  stack: 1,
  /** The command line. */
  argv: 2,
  /** The names of the loaded modules. */
  modules: 4,
  /** The names of the environment's variables. */
  environ: 8,
} as const;

/** Something in a file whose use the probe analysis judges by data flow. */
export type ProbeSource =
  /** A read of frames, argv, `sys.modules` or `os.environ` as a whole. */
  | { kind: "read"; node: Node; from: number }
  /** `sys.settrace(fn)` and the like: `fn`'s parameters are frames. */
  | { kind: "tracer"; call: Node; tracer: Node }
  /** A `sys.modules` or `os.environ` lookup whose key is not a literal. */
  | { kind: "lookup"; node: Node; key: Node; table: "modules" | "environ" }
  /** `getattr(sys, name)`, `sys.__dict__[name]` with a name not written out. */
  | { kind: "dynamic"; node: Node; module: string; key: Node }
  /** An environment variable read by its name written out. */
  | { kind: "named"; node: Node; name: string };

/** Functions that return frames or what they hold. */
export const STACK_FUNCTIONS: ReadonlySet<string> = new Set([
  "sys._getframe",
  "sys._getframemodulename",
  "sys._current_frames",
  "inspect.currentframe",
  "inspect.stack",
  "inspect.trace",
  "inspect.getouterframes",
  "inspect.getinnerframes",
  "traceback.extract_stack",
  "traceback.walk_stack",
  "traceback.format_stack",
  "traceback.print_stack",
  "logging.currentframe",
]);

/** Attributes that lead to a frame whatever they are read on. */
const FRAME_ATTRIBUTES = new Set([
  "_getframe",
  "_getframemodulename",
  "_current_frames",
  "tb_frame",
  "gi_frame",
  "cr_frame",
  "ag_frame",
  "findCaller",
]);

/** Tracer installers and the argument that is the tracer. */
const TRACERS: ReadonlyMap<string, number> = new Map([
  ["sys.settrace", 0],
  ["sys.setprofile", 0],
  ["threading.settrace", 0],
  ["threading.setprofile", 0],
  ["threading.settrace_all_threads", 0],
  ["threading.setprofile_all_threads", 0],
  ["sys.monitoring.register_callback", 2],
]);

/** Modules whose attributes `getattr` with a computed name could reach a frame through. */
const REACHABLE = new Set([
  "sys",
  "inspect",
  "traceback",
  "threading",
  "logging",
  "os",
]);

/** Whole-table reads by canonical name. */
const TABLES: ReadonlyMap<
  string,
  { from: number; table?: "modules" | "environ" }
> = new Map([
  ["sys.argv", { from: FROM.argv }],
  ["sys.orig_argv", { from: FROM.argv }],
  ["sys.modules", { from: FROM.modules, table: "modules" }],
  ["os.environ", { from: FROM.environ, table: "environ" }],
]);

/** Methods that look one key up in a table. */
const KEY_METHODS = new Set([
  "get",
  "pop",
  "setdefault",
  "__contains__",
  "__getitem__",
]);

/** Attribute names worth resolving: a cheap filter before the alias lookup. */
const NAMES = new Set([
  ...FRAME_ATTRIBUTES,
  ...[...STACK_FUNCTIONS].map((n) => n.slice(n.lastIndexOf(".") + 1)),
  "argv",
  "orig_argv",
  "modules",
  "environ",
  "__dict__",
]);

/** What `getattr(module, name)` reads, when that is a source. */
export function moduleAttributeSource(dotted: string): number | undefined {
  if (STACK_FUNCTIONS.has(dotted) || TRACERS.has(dotted)) return FROM.stack;
  return TABLES.get(dotted)?.from;
}

/**
 * The source `node` is, if any: called on every `attribute` and `call` in
 * the file, with its parent, so it must be cheap for everything else.
 */
export function probeSource(
  node: Node,
  type: string,
  parent: Node | null,
  aliases: ImportAliases,
): ProbeSource | undefined {
  if (type === "attribute") return attributeSource(node, parent, aliases);
  if (type === "call") return callSource(node, aliases);
  return undefined;
}

function attributeSource(
  node: Node,
  parent: Node | null,
  aliases: ImportAliases,
): ProbeSource | undefined {
  const name = node.childForFieldName("attribute")?.text;
  if (name === undefined || !NAMES.has(name)) return undefined;
  if (isWritten(node, parent)) return undefined;
  const dotted = aliases.canonical(node, "attribute");
  if (
    FRAME_ATTRIBUTES.has(name) ||
    (dotted !== undefined && STACK_FUNCTIONS.has(dotted))
  ) {
    return { kind: "read", node, from: FROM.stack };
  }
  if (name === "__dict__") {
    const object = node.childForFieldName("object");
    const module = object === null ? undefined : aliases.canonical(object);
    if (module === undefined || !REACHABLE.has(module)) return undefined;
    // A namespace handed on whole is followed: what is looked up in it
    // is judged where that happens.
    const key = lookupKey(node, parent);
    if (key === null) return { kind: "read", node, from: FROM.stack };
    const literal = stringValue(key);
    if (literal === undefined) return { kind: "dynamic", node, module, key };
    const from = moduleAttributeSource(`${module}.${literal}`);
    return from === undefined ? undefined : { kind: "read", node, from };
  }
  const table = dotted === undefined ? undefined : TABLES.get(dotted);
  if (table === undefined) return undefined;
  const key = table.table === undefined ? null : lookupKey(node, parent);
  if (key === null || table.table === undefined) {
    return { kind: "read", node, from: table.from };
  }
  // A literal key is judged as the string it is.
  const literal = stringValue(key);
  if (literal === undefined) {
    return { kind: "lookup", node, key, table: table.table };
  }
  return table.table === "environ"
    ? { kind: "named", node, name: literal }
    : undefined;
}

function callSource(
  node: Node,
  aliases: ImportAliases,
): ProbeSource | undefined {
  const callee = node.childForFieldName("function");
  if (callee === null) return undefined;
  const type = callee.type;
  if (type !== "identifier" && type !== "attribute") return undefined;
  const last = type === "identifier"
    ? callee.text
    : callee.childForFieldName("attribute")?.text ?? "";
  if (
    last !== "getattr" && last !== "getenv" && !last.startsWith("set") &&
    last !== "register_callback"
  ) {
    return undefined;
  }
  const dotted = aliases.canonical(callee, type);
  const args = callArguments(node) ?? [];
  if (dotted === "getattr" || dotted === "builtins.getattr") {
    const [object, key] = args;
    const module = object === undefined ? undefined : aliases.canonical(object);
    if (module === undefined || key === undefined || !REACHABLE.has(module)) {
      return undefined;
    }
    const literal = stringValue(key);
    if (literal === undefined) return { kind: "dynamic", node, module, key };
    const from = moduleAttributeSource(`${module}.${literal}`);
    return from === undefined ? undefined : { kind: "read", node, from };
  }
  if (dotted === "os.getenv" || dotted === "getenv") {
    const key = args[0];
    if (key === undefined) return undefined;
    const name = stringValue(key);
    return name === undefined
      ? { kind: "lookup", node, key, table: "environ" }
      : { kind: "named", node, name };
  }
  const at = dotted === undefined ? undefined : TRACERS.get(dotted);
  const tracer = at === undefined ? undefined : args[at];
  if (tracer === undefined || tracer.type === "none") return undefined;
  return { kind: "tracer", call: node, tracer };
}

/**
 * The key when `node` is looked up in (`t[k]`, `t.get(k)`, `k in t`);
 * null when it is used otherwise.
 */
function lookupKey(node: Node, parent: Node | null): Node | null {
  if (parent?.type === "subscript") {
    if (parent.childForFieldName("value")?.id !== node.id) return null;
    return parent.childForFieldName("subscript");
  }
  if (parent?.type === "attribute") {
    const method = parent.childForFieldName("attribute")?.text ?? "";
    const call = parent.parent;
    if (!KEY_METHODS.has(method) || call?.type !== "call") return null;
    return (callArguments(call) ?? [])[0] ?? null;
  }
  if (parent?.type === "comparison_operator") {
    const parts = comparisonParts(parent);
    const at = parts.findIndex((c) => c.id === node.id);
    const operator = parts[at - 1]?.type;
    if (operator !== "in" && operator !== "not in") return null;
    return parts[at - 2] ?? null;
  }
  return null;
}

/** An assignment or `del` target: written, not read. */
function isWritten(node: Node, parent: Node | null): boolean {
  if (parent === null) return false;
  const type = parent.type;
  if (type === "delete_statement") return true;
  if (type === "assignment" || type === "augmented_assignment") {
    return parent.childForFieldName("left")?.id === node.id;
  }
  if (type === "subscript" || type === "attribute") {
    const grand = parent.parent;
    if (grand?.type === "delete_statement") return true;
    if (grand?.type === "assignment") {
      return grand.childForFieldName("left")?.id === parent.id;
    }
  }
  return false;
}

/** The operands and operators of a comparison, in order (`a`, `not in`, `b`). */
export function comparisonParts(node: Node): Node[] {
  return node.children.filter((c): c is Node => c !== null && !c.isExtra);
}

/**
 * `sources` less those in a module-level `if __name__ == "__main__":`
 * block: it runs only when the file is the program itself, so what it
 * reads (its command line, say) is the program's own.
 */
export function outsideMainBlocks(
  root: Node,
  sources: readonly ProbeSource[],
): ProbeSource[] {
  const blocks: [number, number][] = [];
  for (const statement of root.namedChildren) {
    if (statement?.type !== "if_statement") continue;
    const condition = statement.childForFieldName("condition");
    if (condition === null || !isMainTest(condition)) continue;
    const body = statement.childForFieldName("consequence");
    if (body !== null) blocks.push([body.startIndex, body.endIndex]);
  }
  if (blocks.length === 0) return [...sources];
  return sources.filter((source) => {
    const at = (source.kind === "tracer" ? source.call : source.node)
      .startIndex;
    return !blocks.some(([start, end]) => at >= start && at < end);
  });
}

function isMainTest(condition: Node): boolean {
  if (condition.type !== "comparison_operator") return false;
  const parts = comparisonParts(condition);
  if (parts.length !== 3 || parts[1]?.type !== "==") return false;
  const [a, , b] = parts as [Node, Node, Node];
  const texts = [a, b].map((n) =>
    n.type === "identifier" ? n.text : stringValue(n)
  );
  return texts.includes("__name__") && texts.includes("__main__") &&
    (a.type === "identifier") !== (b.type === "identifier");
}
