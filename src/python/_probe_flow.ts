import type { Node } from "web-tree-sitter";
import type { EnvRead, HarnessProbe } from "./python_module.ts";
import type { ImportAliases } from "./_import_aliases.ts";
import { callArguments, plusOperands } from "./_fold_string.ts";
import {
  frameworkModule,
  isHarnessEnv,
  mayBeFrameworkModule,
  mayBeHarnessEnv,
} from "./_harness_names.ts";
import { realChildren } from "./_real_children.ts";
import {
  type Binding,
  isInstance,
  ProbeScopes,
  type Scope,
} from "./_probe_scopes.ts";
import {
  comparisonParts,
  FROM,
  moduleAttributeSource,
  type ProbeSource,
} from "./_probe_sources.ts";
import {
  compact,
  passedTo,
  type Reading,
  ValueReader,
} from "./_probe_values.ts";
import { walk } from "./_walk.ts";

/** Calls whose result is the program's own reading of argv, not argv. */
const ARGUMENT_PARSERS = new Set([
  "parse_args",
  "parse_known_args",
  "parse_intermixed_args",
  "parse_known_intermixed_args",
  "getopt",
  "gnu_getopt",
]);

/** Methods that look a key up: the result is what the container holds. */
const LOOKUP_METHODS = new Set(["get", "pop", "setdefault", "__getitem__"]);

/** Methods of followed text or tables whose arguments are compared with it. */
const TESTING_METHODS = new Set([
  "startswith",
  "endswith",
  "find",
  "rfind",
  "index",
  "rindex",
  "count",
  "__contains__",
  "__eq__",
  "__ne__",
  "get",
  "pop",
  "setdefault",
  "__getitem__",
  "replace",
  "split",
  "rsplit",
  "partition",
  "rpartition",
  "removeprefix",
  "removesuffix",
  "strip",
  "lstrip",
  "rstrip",
  "match",
  "search",
  "fullmatch",
]);

/** Methods of a container or pattern that compare a key or text with what it holds. */
const COMPARING_METHODS = new Set([
  "match",
  "search",
  "fullmatch",
  "findall",
  "finditer",
  "sub",
  "subn",
  "get",
  "pop",
  "__contains__",
  "__getitem__",
  "__eq__",
  "__ne__",
  "count",
  "index",
  "find",
  "rfind",
  "startswith",
  "endswith",
  "issuperset",
  "issubset",
  "isdisjoint",
  "intersection",
  "difference",
]);

/** Functions that compare their arguments. */
const COMPARING_FUNCTIONS = new Set([
  "re.match",
  "re.search",
  "re.fullmatch",
  "re.findall",
  "re.finditer",
  "re.sub",
  "re.subn",
  "re.split",
  "fnmatch.fnmatch",
  "fnmatch.fnmatchcase",
  "fnmatch.filter",
  "operator.contains",
  "operator.eq",
  "operator.ne",
  "os.path.commonpath",
  "os.path.commonprefix",
  "getattr",
  "hasattr",
]);

/** What frames hold that is a number or bytecode, never a name. */
const NUMBERS = new Set([
  "f_lineno",
  "f_lasti",
  "tb_lineno",
  "tb_lasti",
  "lineno",
  "end_lineno",
  "colno",
  "end_colno",
  "positions",
  "index",
  "co_code",
  "co_firstlineno",
  "co_lnotab",
  "co_linetable",
  "co_exceptiontable",
  "co_flags",
  "co_argcount",
  "co_posonlyargcount",
  "co_kwonlyargcount",
  "co_nlocals",
  "co_stacksize",
]);

/** Functions whose result is a number: a count or an identity says no name. */
const COUNTS = new Set(["len", "id", "hash", "int", "float", "bool"]);

/** Node types that can be a look. */
const LOOKS = new Set([
  "comparison_operator",
  "call",
  "subscript",
  "match_statement",
]);

/** Comparisons that test a name: an unread operand fails closed. */
const EQUALITY = new Set(["==", "!=", "in", "not in", "<>"]);

/** Expressions nested deeper than this are not read (they fail closed). */
const MAX_NESTING = 400;

/** How far the data flow is iterated; each round only adds bits. */
const MAX_ROUNDS = 64;

/**
 * The harness probes among `sources`: frames, argv and module or
 * environment names are followed through assignments, calls of this
 * file's functions, returns and `self` attributes, and count as a probe
 * where they are compared with, or looked up by, a value that names a test
 * or the harness, or (for frames and argv) one pawl cannot read. A lookup
 * of `sys.modules` or `os.environ` by a name built here that pawl cannot
 * read is a probe too; one by a parameter or an import is not followed.
 */
export function followProbes(
  root: Node,
  aliases: ImportAliases,
  sources: readonly ProbeSource[],
): FollowedProbes {
  const flow = new ProbeFlow(root, aliases);
  return { probes: flow.probes(sources), envReads: flow.envReads };
}

/** What {@linkcode followProbes} finds. */
export interface FollowedProbes {
  /** The probes. */
  probes: HarnessProbe[];
  /** Environment variables read by a name pawl can read (folded or written out). */
  envReads: EnvRead[];
}

class ProbeFlow {
  /** Environment variables read by a name pawl can read. */
  readonly envReads: EnvRead[] = [];
  #scopes: ProbeScopes;
  #aliases: ImportAliases;
  #reader: ValueReader;
  #root: Node;
  #sources = new Map<number, number>();
  #names = new Map<string, number>();
  #attrs = new Map<string, number>();
  #returns = new Map<number, number>();
  #out: HarnessProbe[] = [];
  /** Names whose bits grew in the last round; null: look at everything. */
  #dirty: Set<string> | null = null;
  #grown = new Set<string>();
  #refs = new Map<number, string[]>();
  #sourceNodes = new Map<number, Node>();

  constructor(root: Node, aliases: ImportAliases) {
    this.#root = root;
    this.#aliases = aliases;
    this.#scopes = ProbeScopes.build(root);
    this.#reader = new ValueReader({
      scopes: this.#scopes,
      aliases,
      followed: (node) => this.bits(node),
    });
  }

  probes(sources: readonly ProbeSource[]): HarnessProbe[] {
    const tracers: Node[] = [];
    for (const source of sources) {
      if (source.kind === "read") this.#addSource(source.node, source.from);
      else if (source.kind === "dynamic") this.#dynamic(source);
      else if (source.kind === "tracer") tracers.push(source.tracer);
    }
    for (const tracer of tracers) {
      const scopes = this.#functionsOf(tracer);
      if (scopes.length === 0) {
        this.#probe("stack", tracer, {
          kind: "opaque",
          text: compact(tracer.text),
        }, "a tracer");
      }
      for (const scope of scopes) this.#taintParams(scope, FROM.stack);
    }
    this.#propagate(tracers);

    for (const source of sources) {
      if (source.kind === "lookup") this.#lookup(source);
    }
    if (this.#sources.size > 0 || tracers.length > 0) this.#looks();
    return this.#out;
  }

  /**
   * Bits of followed data in the value of `node`. An expression nested
   * deeper than anyone writes counts as frames and argv: unread, it fails
   * closed.
   */
  bits(node: Node, depth = 0): number {
    if (depth > MAX_NESTING) return FROM.stack | FROM.argv;
    const source = this.#sources.get(node.id) ?? 0;
    const inner = (n: Node) => this.bits(n, depth + 1);
    switch (node.type) {
      case "identifier": {
        const found = this.#scopes.resolve(
          this.#scopes.scopeOf(node),
          node.text,
        );
        return source |
          (found === undefined
            ? 0
            : this.#names.get(`${found.scope.id}:${node.text}`) ?? 0);
      }
      case "attribute": {
        const object = node.childForFieldName("object");
        const name = node.childForFieldName("attribute")?.text ?? "";
        if (object === null) return source;
        if (NUMBERS.has(name)) return 0;
        // An attribute of an instance of this file's classes holds what
        // their methods put there.
        const owner = object.type === "identifier" && isInstance(object.text)
          ? undefined
          : this.#scopes.classOf(object);
        const own = owner !== undefined
          ? this.#attrs.get(`${owner.family}:${name}`) ?? 0
          : object.type === "identifier" && isInstance(object.text)
          ? this.#attrs.get(this.#scopes.attrKey(node, name)) ?? 0
          : 0;
        return source | own | inner(object);
      }
      case "call":
        return source | this.#callBits(node, inner);
      case "string":
        return source | realChildren(node).reduce(
          (bits, part) =>
            part.type === "interpolation" ? bits | inner(part) : bits,
          0,
        );
      case "comparison_operator":
      case "not_operator":
      case "lambda":
      case "integer":
      case "float":
      case "true":
      case "false":
      case "none":
        return source;
      case "subscript": {
        // d[key] is what d holds, whatever the key.
        const value = node.childForFieldName("value");
        return source | (value === null ? 0 : inner(value));
      }
      case "binary_operator":
        return source | plusOperands(node).reduce(
          (bits, n) =>
            bits |
            (n.id === node.id
              ? realChildren(n).reduce((b, c) => b | inner(c), 0)
              : inner(n)),
          0,
        );
      default:
        return source | realChildren(node).reduce(
          (bits, child) => bits | inner(child),
          0,
        );
    }
  }

  #callBits(call: Node, inner: (n: Node) => number): number {
    const callee = call.childForFieldName("function");
    if (callee === null) return 0;
    const object = callee.type === "attribute"
      ? callee.childForFieldName("object")
      : null;
    const last = callee.type === "attribute"
      ? callee.childForFieldName("attribute")?.text ?? ""
      : callee.text;
    if (ARGUMENT_PARSERS.has(last)) return 0;
    if (callee.type === "identifier" && COUNTS.has(last)) return 0;
    // d.get(key) is what d holds, whatever the key.
    if (object !== null && LOOKUP_METHODS.has(last)) return inner(object);
    let bits = inner(callee);
    const targets = this.#scopes.targetsOf(call);
    for (const { scope } of targets) {
      bits |= this.#returns.get(scope.id) ?? 0;
    }
    // A function of this file returns what its body returns, an instance
    // of its classes holds what their attributes do; any other call is
    // taken to return something made of its arguments.
    const args = call.childForFieldName("arguments");
    if (targets.length === 0 && args !== null) bits |= inner(args);
    return bits;
  }

  #addSource(node: Node, from: number): void {
    this.#sources.set(node.id, (this.#sources.get(node.id) ?? 0) | from);
    this.#sourceNodes.set(node.id, node);
  }

  /**
   * `getattr(sys, name)`: a source when the name is, or may be, one that
   * reaches frames, argv or the module table; a probe when pawl cannot
   * read every value it may take.
   */
  #dynamic(source: Extract<ProbeSource, { kind: "dynamic" }>): void {
    const reaches = (text: string) =>
      moduleAttributeSource(`${source.module}.${text}`);
    const name = this.#reader.constant(source.key);
    if (name !== undefined) {
      const from = reaches(name);
      if (from !== undefined) this.#addSource(source.node, from);
      return;
    }
    const reading = this.#reader.read(
      source.key,
      (text) => reaches(text) !== undefined,
    );
    if (reading.kind === "harness") {
      this.#addSource(source.node, reaches(reading.text) ?? FROM.stack);
    } else if (reading.kind !== "harmless") {
      this.#probe("stack", source.node, reading, `a name of ${source.module}`);
    }
  }

  /** The functions of this file a value names: lambdas, `def`s, methods. */
  #functionsOf(node: Node, seen = new Set<number>()): Scope[] {
    if (seen.has(node.id)) return [];
    seen.add(node.id);
    if (node.type === "lambda") {
      const scope = this.#scopes.scopeInside(node);
      return scope === undefined ? [] : [scope];
    }
    const out: Scope[] = [];
    if (node.type === "identifier") {
      const found = this.#scopes.resolve(this.#scopes.scopeOf(node), node.text);
      for (const b of found?.bindings ?? []) {
        if (b.kind === "value") out.push(...this.#functionsOf(b.node, seen));
        if (b.kind === "definition") {
          out.push(
            ...(this.#scopes.defs.get(node.text) ?? []).filter((s) =>
              s.parent === found?.scope
            ),
          );
        }
      }
    } else if (node.type === "attribute") {
      const name = node.childForFieldName("attribute")?.text ?? "";
      const object = node.childForFieldName("object");
      out.push(
        ...(this.#scopes.defs.get(name) ?? []).filter((s) => s.isMethod),
      );
      if (object?.type === "identifier" && isInstance(object.text)) {
        const key = this.#scopes.attrKey(node, name);
        for (const b of this.#scopes.selfAttrs.get(key) ?? []) {
          if (b.kind === "value") out.push(...this.#functionsOf(b.node, seen));
        }
      }
    }
    return out;
  }

  /** Taint every parameter of `scope` but a method's `self`. */
  #taintParams(scope: Scope, bits: number): boolean {
    let changed = false;
    const params = [...scope.params, ...scope.keywordParams];
    for (const param of scope.isMethod ? params.slice(1) : params) {
      const key = `${scope.id}:${param.replace(/^\*+/, "")}`;
      changed = this.#grow(this.#names, key, bits) || changed;
    }
    return changed;
  }

  #or<K>(map: Map<K, number>, key: K, bits: number): boolean {
    const before = map.get(key) ?? 0;
    if ((before | bits) === before) return false;
    map.set(key, before | bits);
    return true;
  }

  /**
   * Follow the data until nothing more is reached. After the first round
   * only what reads a name whose bits grew is looked at again.
   */
  #propagate(tracers: readonly Node[]): void {
    for (let round = 0; round < MAX_ROUNDS; round++) {
      this.#dirty = round === 0 || this.#grown.has("*") ? null : this.#grown;
      this.#grown = new Set();
      for (const scope of this.#scopes.all) {
        for (const [name, bindings] of scope.bindings) {
          const bits = this.#bindingBits(bindings);
          if (bits !== 0) this.#grow(this.#names, `${scope.id}:${name}`, bits);
        }
        let returned = 0;
        for (const r of scope.returns) {
          if (this.#touches(r)) returned |= this.bits(r);
        }
        if (returned !== 0 && this.#or(this.#returns, scope.id, returned)) {
          this.#grown.add(scope.node.childForFieldName("name")?.text ?? "*");
        }
      }
      for (const [key, bindings] of this.#scopes.selfAttrs) {
        const bits = this.#bindingBits(bindings);
        if (bits !== 0) this.#grow(this.#attrs, key, bits);
      }
      for (const call of this.#scopes.calls) {
        if (this.#touches(call)) this.#intoCall(call);
      }
      for (const tracer of tracers) {
        for (const scope of this.#functionsOf(tracer)) {
          this.#taintParams(scope, FROM.stack);
        }
      }
      if (this.#grown.size === 0) return;
    }
  }

  #bindingBits(bindings: readonly Binding[]): number {
    let bits = 0;
    for (const b of bindings) {
      if (
        (b.kind === "value" || b.kind === "element" || b.kind === "put") &&
        this.#touches(b.node)
      ) {
        bits |= this.bits(b.node);
      }
    }
    return bits;
  }

  /** Add `bits` under `key` (`<scope or family>:<name>`); note the name when they grew. */
  #grow(map: Map<string, number>, key: string, bits: number): boolean {
    if (!this.#or(map, key, bits)) return false;
    this.#grown.add(key.slice(key.indexOf(":") + 1));
    return true;
  }

  /** Whether `node` reads a name whose bits grew in the last round. */
  #touches(node: Node): boolean {
    const dirty = this.#dirty;
    if (dirty === null) return true;
    let names = this.#refs.get(node.id);
    if (names === undefined) {
      const found: string[] = [];
      walk(node, (n, _p, type) => {
        if (type === "identifier") found.push(n.text);
      });
      names = [...new Set(found)];
      this.#refs.set(node.id, names);
    }
    return names.some((name) => dirty.has(name));
  }

  /** Followed arguments reach the parameters of this file's functions, and the callbacks passed beside them. */
  #intoCall(call: Node): boolean {
    const args = callArguments(call);
    if (args === undefined) return false;
    const bits = args.map((a) => this.bits(a));
    const all = bits.reduce((a, b) => a | b, 0);
    if (all === 0) return false;
    let changed = false;
    for (const { scope, offset } of this.#scopes.targetsOf(call)) {
      for (const param of [...scope.params, ...scope.keywordParams]) {
        const name = param.replace(/^\*+/, "");
        const passed = passedTo(call, scope, name, offset);
        const reach = passed === null
          ? all
          : passed.reduce((b, n) => b | this.bits(n), 0);
        if (reach !== 0) {
          changed = this.#grow(this.#names, `${scope.id}:${name}`, reach) ||
            changed;
        }
      }
    }
    // map(f, frames), sorted(frames, key=lambda f: ...), filter(...).
    for (const arg of args) {
      const value = arg.type === "keyword_argument"
        ? arg.childForFieldName("value")
        : arg;
      if (value === null) continue;
      for (const scope of this.#functionsOf(value)) {
        changed = this.#taintParams(scope, all) || changed;
      }
    }
    return changed;
  }

  /** Every place followed data is compared or looked up. */
  #looks(): void {
    // Only what reads a followed name, or holds a source, can be a look.
    const hot = new Set<string>();
    for (const key of [...this.#names.keys(), ...this.#attrs.keys()]) {
      hot.add(key.slice(key.indexOf(":") + 1));
    }
    let lambda = false;
    for (const scope of this.#scopes.all) {
      if (!this.#returns.has(scope.id)) continue;
      const name = scope.node.childForFieldName("name")?.text;
      if (name === undefined) lambda = true;
      else hot.add(name);
    }
    // A lambda that returns followed data is called by any name.
    this.#dirty = lambda ? null : hot;
    walk(this.#root, (node, parent, type, parentType) => {
      if (!LOOKS.has(type)) return;
      if (!this.#touches(node) && !this.#holdsSource(node)) return;
      if (type === "comparison_operator") this.#comparison(node);
      else if (type === "call") this.#call(node);
      else if (type === "subscript" && !isTarget(node, parent, parentType)) {
        this.#subscript(node);
      } else if (type === "match_statement") this.#match(node);
    });
  }

  /** Whether a source lies inside `node`. */
  #holdsSource(node: Node): boolean {
    for (const source of this.#sourceNodes.values()) {
      if (
        source.startIndex >= node.startIndex && source.endIndex <= node.endIndex
      ) {
        return true;
      }
    }
    return false;
  }

  #comparison(node: Node): void {
    const parts = comparisonParts(node);
    for (let i = 1; i + 1 < parts.length; i += 2) {
      const left = parts[i - 1] as Node;
      const right = parts[i + 1] as Node;
      // Identity and order say nothing of a name pawl cannot read.
      const strict = !EQUALITY.has(parts[i]?.type ?? "");
      const l = this.bits(left);
      const r = this.bits(right);
      if (l !== 0 && r === 0) this.#judge(node, l, right, strict);
      else if (r !== 0 && l === 0) this.#judge(node, r, left, strict);
    }
  }

  #call(node: Node): void {
    const callee = node.childForFieldName("function");
    const args = callArguments(node);
    if (callee === null || args === undefined) return;
    const values = args.map((a) =>
      a.type === "keyword_argument" ? a.childForFieldName("value") ?? a : a
    );
    const bits = values.map((v) => this.bits(v));
    const all = bits.reduce((a, b) => a | b, 0);
    if (callee.type === "attribute") {
      const method = callee.childForFieldName("attribute")?.text ?? "";
      const object = callee.childForFieldName("object");
      const own = object === null ? 0 : this.bits(object);
      if (own !== 0 && TESTING_METHODS.has(method)) {
        values.forEach((v, i) => {
          if (bits[i] === 0) this.#judge(node, own, v);
        });
        return;
      }
      if (
        own === 0 && all !== 0 && object !== null &&
        COMPARING_METHODS.has(method)
      ) {
        this.#judge(node, all, object);
        values.forEach((v, i) => {
          if (bits[i] === 0) this.#judge(node, all, v);
        });
        return;
      }
    }
    const dotted = this.#aliases.canonical(callee);
    if (all !== 0 && dotted !== undefined && COMPARING_FUNCTIONS.has(dotted)) {
      values.forEach((v, i) => {
        if (bits[i] === 0) this.#judge(node, all, v);
      });
    }
  }

  #subscript(node: Node): void {
    const value = node.childForFieldName("value");
    const key = node.childForFieldName("subscript");
    if (value === null || key === null) return;
    const v = this.bits(value);
    const k = this.bits(key);
    // A slice or an index counts places; only a key names something.
    if (key.type === "slice") return;
    if (v !== 0 && k === 0) this.#judge(node, v, key);
    else if (k !== 0 && v === 0) this.#judge(node, k, value);
  }

  #match(node: Node): void {
    const subject = node.childForFieldName("subject");
    const bits = subject === null ? 0 : this.bits(subject);
    if (bits === 0) return;
    walk(node, (n, _p, type) => {
      if (type === "case_pattern") {
        this.#judge(node, bits, n);
        return false;
      }
    });
  }

  /**
   * A followed value of `bits` met `other` at `look`. `harnessOnly`: only
   * a constant naming the harness counts, not an unread value.
   */
  #judge(look: Node, bits: number, other: Node, harnessOnly = false): void {
    const reading = this.#reader.read(other);
    if (reading.kind === "harmless") return;
    if (harnessOnly && reading.kind !== "harness") return;
    // The command line and the names of modules and variables are
    // compared with what a program passes around (a table of commands, a
    // prefix it is given); only frames need every value read.
    if (reading.kind === "opaque" && (bits & FROM.stack) === 0) return;
    // argv is the program's own: only a test runner's name counts there.
    if (reading.kind !== "harness" && (bits & ~FROM.argv) === 0) return;
    const kind = bits & FROM.stack
      ? "stack"
      : bits & FROM.argv
      ? "argv"
      : bits & FROM.modules
      ? "module_name"
      : "env";
    this.#probe(kind, look, reading);
  }

  /** A `sys.modules` or `os.environ` lookup by a key that is not a literal. */
  #lookup(source: Extract<ProbeSource, { kind: "lookup" }>): void {
    const modules = source.table === "modules";
    const names = modules
      ? (text: string) =>
        frameworkModule(text) !== undefined || /pawl/i.test(text)
      : isHarnessEnv;
    const name = modules ? undefined : this.#reader.constant(source.key);
    if (name !== undefined) {
      this.envReads.push({ name, line: source.node.startPosition.row + 1 });
    }
    const reading = this.#reader.read(source.key, names);
    if (reading.kind === "harmless") return;
    if (reading.kind !== "harness") {
      const prefix = this.#reader.prefix(source.key);
      const open = prefix === undefined || prefix === "" ||
        (prefix !== "self" &&
          (modules ? mayBeFrameworkModule(prefix) : mayBeHarnessEnv(prefix)));
      if (!open || reading.kind === "opaque") return;
    }
    const parent = source.node.parent;
    const look = parent?.type === "attribute"
      ? parent.parent ?? parent
      : parent;
    this.#probe(modules ? "module_name" : "env", look ?? source.node, reading);
  }

  #probe(
    kind: HarnessProbe["kind"],
    look: Node,
    reading: Reading,
    what?: string,
  ): void {
    const probe: HarnessProbe = {
      kind,
      detail: compact(look.text),
      line: look.startPosition.row + 1,
    };
    if (reading.kind === "harness") probe.names = reading.text;
    else if (reading.kind !== "harmless") {
      probe.unread = what === undefined
        ? reading.text
        : `${what}: ${reading.text}`;
      if (reading.kind === "opaque" && reading.modules !== undefined) {
        probe.unreadFrom = reading.modules;
      }
    }
    if (
      !this.#out.some((p) =>
        p.kind === probe.kind && p.detail === probe.detail &&
        p.line === probe.line
      )
    ) {
      this.#out.push(probe);
    }
  }
}

/** A subscript written to or deleted (`x[k] = v`, `del x[k]`). */
function isTarget(
  node: Node,
  parent: Node | null,
  parentType: string | undefined,
): boolean {
  if (parentType === "delete_statement") return true;
  if (parentType === "assignment") {
    return parent?.childForFieldName("left")?.id === node.id;
  }
  return false;
}
