import type { Node } from "web-tree-sitter";
import type { ImportAliases } from "./_import_aliases.ts";
import { callArguments, foldString, plusOperands } from "./_fold_string.ts";
import { namesHarness } from "./_harness_names.ts";
import { isLiteral } from "./_is_literal.ts";
import { realChildren } from "./_real_children.ts";
import {
  type Binding,
  isInstance,
  type ProbeScopes,
  type Scope,
} from "./_probe_scopes.ts";

/**
 * What a value compared with followed data, or used as a key, is:
 * - `harmless`: constants that name nothing of the harness, this module's
 *   own identity (`__name__`, `__file__`), or followed data itself;
 * - `harness`: a constant that names a test or the harness;
 * - `built`: computed here from parts pawl cannot read (`chr(...)`, a
 *   decoder, an unknown call);
 * - `opaque`: from where the analysis does not follow (a parameter no call
 *   in the file passes, an import, an object's attribute).
 */
export type Reading =
  | { kind: "harmless" }
  | { kind: "harness"; text: string }
  | { kind: "built"; text: string }
  | {
    kind: "opaque";
    text: string;
    /** The modules it comes from, when it is only their constants. */
    modules?: string[];
  };

const HARMLESS: Reading = { kind: "harmless" };

/** Names that are this module's own identity. */
const IDENTITY = new Set([
  "__name__",
  "__file__",
  "__package__",
  "__spec__",
  "__qualname__",
  "__module__",
  "__path__",
]);

/** Standard constants that name no test. */
const CONSTANTS = new Set([
  "os.sep",
  "os.altsep",
  "os.extsep",
  "os.pathsep",
  "os.curdir",
  "os.pardir",
  "os.linesep",
  "os.path.sep",
  "os.path.altsep",
  "os.path.extsep",
  "os.path.pathsep",
  "os.path.curdir",
  "os.path.pardir",
  "os.environ",
  "sys.modules",
  "sys.prefix",
  "sys.base_prefix",
  "sys.exec_prefix",
  "sys.base_exec_prefix",
  "sys.platform",
  "sys.version_info",
  "sys.maxsize",
]);

/** Functions whose result is made of their arguments (no hidden constants). */
const PURE_FUNCTIONS = new Set([
  "str",
  "repr",
  "ascii",
  "format",
  "len",
  "int",
  "float",
  "bool",
  "tuple",
  "list",
  "set",
  "frozenset",
  "dict",
  "sorted",
  "reversed",
  "min",
  "max",
  "sum",
  "any",
  "all",
  "enumerate",
  "zip",
  "range",
  "type",
  "iter",
  "object",
  "os.fspath",
  "re.compile",
  "re.escape",
  "fnmatch.translate",
  "pathlib.Path",
  "pathlib.PurePath",
  "pathlib.PurePosixPath",
  "pathlib.PosixPath",
  "collections.defaultdict",
  "collections.OrderedDict",
  "collections.Counter",
  "collections.deque",
  "weakref.WeakSet",
  "weakref.WeakKeyDictionary",
  "weakref.WeakValueDictionary",
]);

/** `os.path` functions, under either name. */
const PATH_FUNCTIONS = /^(os\.path|posixpath)\.[a-z]+$/;

/** Methods whose result is made of the receiver and the arguments. */
const PURE_METHODS = new Set([
  "split",
  "rsplit",
  "splitlines",
  "join",
  "strip",
  "lstrip",
  "rstrip",
  "lower",
  "upper",
  "casefold",
  "title",
  "replace",
  "format",
  "removeprefix",
  "removesuffix",
  "partition",
  "rpartition",
  "encode",
  "decode",
  "startswith",
  "endswith",
  "resolve",
  "absolute",
  "with_suffix",
  "with_name",
  "joinpath",
  "as_posix",
  "relative_to",
  "keys",
  "values",
  "items",
  "copy",
]);

const SCALARS = new Set([
  "integer",
  "float",
  "true",
  "false",
  "none",
  "ellipsis",
  "lambda",
  "comparison_operator",
  "not_operator",
]);

/** Methods Python runs for a comparison written elsewhere. */
const COMPARISON_METHODS = new Set([
  "__eq__",
  "__ne__",
  "__lt__",
  "__le__",
  "__gt__",
  "__ge__",
  "__contains__",
]);

/** Beyond this many steps through names and calls a value is opaque. */
const MAX_DEPTH = 16;

/** Input of {@linkcode ValueReader}. */
export interface ValueReaderOptions {
  scopes: ProbeScopes;
  aliases: ImportAliases;
  /** Bits of followed data in `node`; nonzero reads as harmless. */
  followed(node: Node): number;
}

/** Reads what values are, for the probe analysis. */
export class ValueReader {
  #scopes: ProbeScopes;
  #aliases: ImportAliases;
  #followed: (node: Node) => number;
  #visiting = new Set<string>();
  #callers: Map<number, Node[]> | undefined;

  /** A reader over one file. */
  constructor(options: ValueReaderOptions) {
    this.#scopes = options.scopes;
    this.#aliases = options.aliases;
    this.#followed = options.followed;
  }

  /** The constant string `node` is, names followed to single constants. */
  constant(node: Node): string | undefined {
    return foldString(node, (name) => this.#constantOf(name));
  }

  /**
   * A known start of the string `node` builds: its constant text, `self`
   * for this module's own name (`f"{__name__}.x"`), else undefined.
   */
  prefix(node: Node): string | undefined {
    const text = this.constant(node);
    if (text !== undefined) return text;
    if (this.#isIdentity(node)) return "self";
    if (node.type === "binary_operator") {
      const first = plusOperands(node)[0];
      return first === undefined || first.id === node.id
        ? undefined
        : this.prefix(first);
    }
    if (node.type === "string") {
      const first = realChildren(node).find((c) => c.type !== "string_start");
      if (first?.type === "string_content") return first.text;
      const inner = first?.childForFieldName("expression");
      return inner === null || inner === undefined
        ? undefined
        : this.prefix(inner);
    }
    return undefined;
  }

  /** What `node` is; `names` says which constants name the harness. */
  read(
    node: Node,
    names: (text: string) => boolean = namesHarness,
    depth = 0,
  ): Reading {
    if (depth > MAX_DEPTH) return opaque(node);
    if (this.#followed(node) !== 0) return HARMLESS;
    const text = this.constant(node);
    if (text !== undefined) {
      return names(text) ? { kind: "harness", text } : HARMLESS;
    }
    const next = (n: Node) => this.read(n, names, depth + 1);
    const type = node.type;
    if (SCALARS.has(type)) return HARMLESS;
    if (type === "binary_operator") {
      return combine(
        plusOperands(node).flatMap((n) =>
          n.id === node.id ? realChildren(n).map(next) : [next(n)]
        ),
      );
    }
    switch (type) {
      case "identifier":
        return this.#readName(node, next);
      case "attribute":
        return this.#readAttribute(node, next);
      case "call":
        return this.#readCall(node, names, depth);
      case "string":
        return combine(
          realChildren(node).map((part) =>
            part.type === "string_content"
              ? names(part.text)
                ? { kind: "harness", text: part.text }
                : HARMLESS
              : part.type === "interpolation"
              ? next(part.childForFieldName("expression") ?? part)
              : HARMLESS
          ),
        );
      case "subscript": {
        // d[key] is what d holds, whatever the key.
        const value = node.childForFieldName("value");
        return value === null ? opaque(node) : next(value);
      }
      case "keyword_argument": {
        const value = node.childForFieldName("value");
        return value === null ? HARMLESS : next(value);
      }
      case "interpolation":
      case "format_specifier":
        return opaque(node);
      default:
        if (COMPOSITES.has(type)) return combine(realChildren(node).map(next));
        return opaque(node);
    }
  }

  #readName(node: Node, next: (n: Node) => Reading): Reading {
    const name = node.text;
    if (IDENTITY.has(name)) return HARMLESS;
    const scope = this.#scopes.scopeOf(node);
    const found = this.#scopes.resolve(scope, name);
    if (found === undefined) {
      const stars = this.#scopes.starImports;
      return stars.length > 0 ? opaque(node, stars) : HARMLESS;
    }
    const key = `${found.scope.id}:${name}`;
    if (this.#visiting.has(key)) return HARMLESS;
    this.#visiting.add(key);
    try {
      return combine(
        found.bindings.map((b) => this.#readBinding(b, node, next)),
      );
    } finally {
      this.#visiting.delete(key);
    }
  }

  #readBinding(
    binding: Binding,
    at: Node,
    next: (n: Node) => Reading,
  ): Reading {
    switch (binding.kind) {
      case "value":
      case "element":
      case "put":
        return next(binding.node);
      case "module":
      case "definition":
        return HARMLESS;
      case "imported":
        return opaque(at, [binding.module]);
      case "param":
        return this.#readParam(binding.scope, binding.name, at, next);
    }
  }

  /** A parameter: what every call in the file passes it. */
  #readParam(
    scope: Scope,
    name: string,
    at: Node,
    next: (n: Node) => Reading,
  ): Reading {
    // `a == b` runs `a.__eq__(b)`: the comparison that passes `b` is
    // judged where it is written.
    const method = scope.node.childForFieldName("name")?.text ?? "";
    if (scope.isMethod && COMPARISON_METHODS.has(method)) return HARMLESS;
    const callers = this.#callersOf(scope);
    if (callers.length === 0) return opaque(at);
    const readings: Reading[] = [];
    for (const { call, offset } of callers) {
      const passed = passedTo(call, scope, name, offset);
      if (passed === null) return opaque(at);
      readings.push(...passed.map(next));
    }
    return combine(readings);
  }

  #readAttribute(node: Node, next: (n: Node) => Reading): Reading {
    const attribute = node.childForFieldName("attribute")?.text ?? "";
    const object = node.childForFieldName("object");
    if (IDENTITY.has(attribute) || object === null) return HARMLESS;
    const dotted = this.#aliases.canonical(node, "attribute");
    if (dotted !== undefined && CONSTANTS.has(dotted)) return HARMLESS;
    if (object.type === "identifier" && isInstance(object.text)) {
      const key = this.#scopes.attrKey(node, attribute);
      const bindings = this.#scopes.selfAttrs.get(key);
      if (bindings === undefined) return opaque(node);
      if (this.#visiting.has(key)) return HARMLESS;
      this.#visiting.add(key);
      try {
        return combine(bindings.map((b) => this.#readBinding(b, node, next)));
      } finally {
        this.#visiting.delete(key);
      }
    }
    // A module's attribute is a value of another file.
    const module = this.#moduleOf(object);
    return module === undefined ? next(object) : opaque(node, [module]);
  }

  /** The module a name bound by an import stands for (`codecs`, `from pkg import consts`). */
  #moduleOf(node: Node): string | undefined {
    if (node.type === "attribute") {
      const object = node.childForFieldName("object");
      return object === null ? undefined : this.#moduleOf(object);
    }
    if (node.type !== "identifier") return undefined;
    const found = this.#scopes.resolve(this.#scopes.scopeOf(node), node.text);
    for (const b of found?.bindings ?? []) {
      if (b.kind === "module" || b.kind === "imported") return b.module;
    }
    return undefined;
  }

  #isModule(node: Node): boolean {
    return this.#moduleOf(node) !== undefined;
  }

  #readCall(
    node: Node,
    names: (text: string) => boolean,
    depth: number,
  ): Reading {
    const next = (n: Node) => this.read(n, names, depth + 1);
    const callee = node.childForFieldName("function");
    const list = node.childForFieldName("arguments");
    if (callee === null || list === null) return opaque(node);
    const args = list.type === "argument_list" ? realChildren(list) : [list];
    const dotted = this.#aliases.canonical(callee);
    if (
      dotted !== undefined &&
      (PURE_FUNCTIONS.has(dotted) || PATH_FUNCTIONS.test(dotted))
    ) {
      return combine(args.map(next));
    }
    if (callee.type === "attribute") {
      const method = callee.childForFieldName("attribute")?.text ?? "";
      const object = callee.childForFieldName("object");
      if (
        PURE_METHODS.has(method) && object !== null && !this.#isModule(object)
      ) {
        return combine([next(object), ...args.map(next)]);
      }
    }
    const targets = this.#scopes.targetsOf(node);
    if (targets.length > 0) {
      return combine(targets.flatMap(({ scope }) => scope.returns.map(next)));
    }
    if (callee.type === "identifier" && this.#scopes.classes.has(callee.text)) {
      return combine(args.map(next)); // a class of this file
    }
    // Any other call: a method reads its object too. Fed only readable
    // values, it computes what pawl cannot (`codecs.decode("...")`);
    // fed nothing, it asks the outside (`os.getcwd()`).
    const object = callee.type === "attribute"
      ? callee.childForFieldName("object")
      : null;
    const inputs = object === null || this.#isModule(object)
      ? args
      : [object, ...args];
    const reading = combine(inputs.map(next));
    if (reading.kind === "harness" || reading.kind === "built") return reading;
    return args.length > 0 && inputs.every(isLiteral)
      ? { kind: "built", text: compact(node.text) }
      : opaque(node);
  }

  #isIdentity(node: Node): boolean {
    if (node.type === "identifier") return IDENTITY.has(node.text);
    if (node.type === "attribute") {
      const attribute = node.childForFieldName("attribute")?.text ?? "";
      return IDENTITY.has(attribute) || attribute === "name" &&
          node.childForFieldName("object")?.text === "__spec__";
    }
    return false;
  }

  /** A name given exactly one constant value, else undefined. */
  #constantOf(node: Node): string | undefined {
    let bindings: Binding[] | undefined;
    let key: string;
    if (node.type === "identifier") {
      const found = this.#scopes.resolve(this.#scopes.scopeOf(node), node.text);
      bindings = found?.bindings;
      key = `${found?.scope.id}:${node.text}`;
    } else {
      const object = node.childForFieldName("object");
      const attribute = node.childForFieldName("attribute")?.text ?? "";
      if (object?.type !== "identifier" || !isInstance(object.text)) {
        return undefined;
      }
      key = this.#scopes.attrKey(node, attribute);
      bindings = this.#scopes.selfAttrs.get(key);
    }
    if (bindings?.length !== 1 || this.#visiting.has(`=${key}`)) {
      return undefined;
    }
    const [binding] = bindings;
    if (binding?.kind !== "value") return undefined;
    this.#visiting.add(`=${key}`);
    try {
      return this.constant(binding.node);
    } finally {
      this.#visiting.delete(`=${key}`);
    }
  }

  #callersOf(scope: Scope): { call: Node; offset: number }[] {
    if (this.#callers === undefined) {
      this.#callers = new Map();
      for (const call of this.#scopes.calls) {
        for (const target of this.#scopes.targetsOf(call)) {
          const list = this.#callers.get(target.scope.id) ?? [];
          list.push(call);
          this.#callers.set(target.scope.id, list);
        }
      }
    }
    return (this.#callers.get(scope.id) ?? []).map((call) => ({
      call,
      offset: call.childForFieldName("function")?.type === "attribute" &&
          scope.isMethod
        ? 1
        : 0,
    }));
  }
}

/** Node types whose value is made of their children's. */
const COMPOSITES = new Set([
  "binary_operator",
  "unary_operator",
  "boolean_operator",
  "conditional_expression",
  "parenthesized_expression",
  "concatenated_string",
  "slice",
  "tuple",
  "list",
  "set",
  "dictionary",
  "pair",
  "list_splat",
  "dictionary_splat",
  "expression_list",
  "list_comprehension",
  "set_comprehension",
  "dictionary_comprehension",
  "generator_expression",
  "for_in_clause",
  "if_clause",
  "await",
  // `case` patterns, read as the values they match.
  "case_pattern",
  "union_pattern",
  "list_pattern",
  "tuple_pattern",
  "dict_pattern",
  "keyword_pattern",
  "splat_pattern",
  "class_pattern",
  "dotted_name",
  "as_pattern",
]);

/**
 * What `call` passes to parameter `name` of `scope`: the argument nodes
 * (none when it passes nothing and the default holds); null when a `*`
 * or `**` argument hides it.
 */
export function passedTo(
  call: Node,
  scope: Scope,
  name: string,
  offset: number,
): Node[] | null {
  const args = callArguments(call);
  if (args === undefined) return null;
  const out: Node[] = [];
  let position = offset;
  const star = scope.params.find((p) =>
    p.startsWith("*") && !p.startsWith("**")
  );
  const doubleStar = scope.params.find((p) => p.startsWith("**"));
  for (const arg of args) {
    if (arg.type === "list_splat" || arg.type === "dictionary_splat") {
      return null;
    }
    if (arg.type === "keyword_argument") {
      const key = arg.childForFieldName("name")?.text;
      const value = arg.childForFieldName("value");
      const known = key !== undefined &&
        (scope.params.includes(key) || scope.keywordParams.includes(key));
      if (
        value !== null &&
        (key === name || (!known && doubleStar === `**${name}`))
      ) {
        out.push(value);
      }
      continue;
    }
    const param = scope.params[position];
    if (
      param === name || (param === undefined && star === `*${name}`) ||
      (param !== undefined && param === star && star === `*${name}`)
    ) {
      out.push(arg);
    }
    if (param === undefined || !param.startsWith("*")) position++;
  }
  return out;
}

/**
 * The strongest of several readings: harness, then built, then opaque
 * (with the modules of all when each names its own).
 */
export function combine(readings: readonly Reading[]): Reading {
  let best: Reading = HARMLESS;
  for (const r of readings) {
    if (RANK[r.kind] > RANK[best.kind]) best = r;
    else if (r.kind === "opaque" && best.kind === "opaque") {
      best = r.modules === undefined || best.modules === undefined
        ? { kind: "opaque", text: best.text }
        : { ...best, modules: [...new Set([...best.modules, ...r.modules])] };
    }
  }
  return best;
}

const RANK: Record<Reading["kind"], number> = {
  harmless: 0,
  opaque: 1,
  built: 2,
  harness: 3,
};

function opaque(node: Node, modules?: string[]): Reading {
  const text = compact(node.text);
  return modules === undefined
    ? { kind: "opaque", text }
    : { kind: "opaque", text, modules };
}

/** Source text on one line, at most 80 characters. */
export function compact(text: string): string {
  const line = text.replace(/\s+/g, " ").trim();
  return line.length > 80 ? `${line.slice(0, 77)}...` : line;
}
