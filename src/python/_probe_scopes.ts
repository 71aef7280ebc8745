import type { Node } from "web-tree-sitter";
import { realChildren } from "./_real_children.ts";
import { walk } from "./_walk.ts";

/** What gives a name its values in one scope. */
export type Binding =
  /** `x = v`, `x += v`, `(x := v)`, `with v as x`. */
  | { kind: "value"; node: Node }
  /** `for x in v`, `a, b = v`: an element of `v`. */
  | { kind: "element"; node: Node }
  /** `x.append(v)`, `x[k] = v`, `x.attr = v`: `x` holds `v`. */
  | { kind: "put"; node: Node }
  /** `import x`: the module `module`. */
  | { kind: "module"; module: string }
  /** `from m import x`: a value of module `module` (`.m` when relative). */
  | { kind: "imported"; module: string }
  /** `def x`, `class x`, `except E as x`: nothing a string comes from. */
  | { kind: "definition" }
  /** A parameter of `scope`. */
  | { kind: "param"; scope: Scope; name: string };

/** A function, lambda, class body or the module. */
export interface Scope {
  /** Unique within the file. */
  id: number;
  kind: "module" | "function" | "class";
  /** The scope's node (the module, a `def`, a `lambda`, a `class`). */
  node: Node;
  /** The scope it is written in. */
  parent: Scope | undefined;
  /** Names bound here. */
  bindings: Map<string, Binding[]>;
  /** `global` names. */
  globals: Set<string>;
  /** `nonlocal` names. */
  nonlocals: Set<string>;
  /** Positional parameters in order; `*args` as `*`, `**kw` as `**`. */
  params: string[];
  /** Keyword-only parameters. */
  keywordParams: string[];
  /** A `def` directly in a class body: its first parameter is the instance. */
  isMethod: boolean;
  /** Values it returns or yields (a lambda: its body). */
  returns: Node[];
}

/** Methods that put their arguments into the object they are called on. */
const PUT_METHODS = new Set([
  "append",
  "appendleft",
  "extend",
  "extendleft",
  "add",
  "insert",
  "update",
  "setdefault",
  "put",
]);

const SEQUENCE_TARGETS = new Set([
  "pattern_list",
  "tuple_pattern",
  "list_pattern",
  "tuple",
  "list",
  "expression_list",
  "parenthesized_expression",
  "list_splat_pattern",
  "list_splat",
]);

/**
 * Who binds what in a file, for the probe analysis: scopes with their
 * names and parameters, definitions by name, the attributes methods set on
 * `self`, and every call. Flow-insensitive: a name stands for every value
 * it is ever given in its scope.
 */
export class ProbeScopes {
  /** The module's scope. */
  readonly module: Scope;
  /** Function scopes (`def`) by name. */
  readonly defs = new Map<string, Scope[]>();
  /** Class bodies by name. */
  readonly classes = new Map<string, Scope[]>();
  /**
   * `self.x = v`, class-body `x = v` and the like, by
   * {@linkcode ProbeScopes.attrKey}: a class, its bases and subclasses in
   * this file share their attributes.
   */
  readonly selfAttrs = new Map<string, Binding[]>();
  /** Every call in the file. */
  readonly calls: Node[] = [];
  /** Modules of `from m import *`: where names bound nowhere may come from. */
  readonly starImports: string[] = [];
  #scopes: Scope[] = [];
  #inside = new Map<number, Scope>();
  #scopeOf = new Map<number, Scope>();
  /** Attribute bindings by class scope id (-1: outside a class) and name. */
  #classAttrs = new Map<number, Map<string, Binding[]>>();
  /** Class scope id → the id of its family's first class. */
  #family = new Map<number, number>();

  private constructor(root: Node) {
    this.module = this.#newScope("module", root, undefined);
  }

  /** Read the scopes of a parsed file. */
  static build(root: Node): ProbeScopes {
    const scopes = new ProbeScopes(root);
    scopes.#read(root);
    scopes.#joinFamilies();
    return scopes;
  }

  /** The key of attribute `name` read on `self` at `node`. */
  attrKey(node: Node, name: string): string {
    const owner = enclosingClass(this.scopeOf(node));
    const id = owner === undefined ? -1 : owner.id;
    return `${this.#family.get(id) ?? id}:${name}`;
  }

  /** Every scope, the module first. */
  get all(): readonly Scope[] {
    return this.#scopes;
  }

  /** The scope `node` is evaluated in. */
  scopeOf(node: Node): Scope {
    return this.#scopeOf.get(node.id) ?? this.module;
  }

  /** The scope inside a `def`, `lambda` or `class` node. */
  scopeInside(node: Node): Scope | undefined {
    const scope = this.#inside.get(node.id);
    return scope?.node.id === node.id ? scope : undefined;
  }

  /** Where `name`, read in `scope`, is bound; undefined for builtins and unknown names. */
  resolve(
    scope: Scope,
    name: string,
  ): { scope: Scope; bindings: Binding[] } | undefined {
    if (scope.globals.has(name)) {
      const bindings = this.module.bindings.get(name);
      return bindings === undefined
        ? undefined
        : { scope: this.module, bindings };
    }
    for (
      let s: Scope | undefined = scope;
      s !== undefined;
      s = s.parent
    ) {
      if (s.kind === "class" && s !== scope) continue;
      if (s.nonlocals.has(name)) continue;
      const bindings = s.bindings.get(name);
      if (bindings !== undefined) return { scope: s, bindings };
    }
    return undefined;
  }

  /** The functions a call may run that this file defines. */
  targetsOf(call: Node): { scope: Scope; offset: number }[] {
    const callee = call.childForFieldName("function");
    if (callee === null) return [];
    if (callee.type === "identifier") {
      const found = this.resolve(this.scopeOf(call), callee.text);
      const out: { scope: Scope; offset: number }[] = [];
      for (const b of found?.bindings ?? []) {
        if (b.kind === "value" && b.node.type === "lambda") {
          const inner = this.scopeInside(b.node);
          if (inner !== undefined) out.push({ scope: inner, offset: 0 });
        }
      }
      for (const scope of this.defs.get(callee.text) ?? []) {
        if (found === undefined || found.scope === scope.parent) {
          out.push({ scope, offset: 0 });
        }
      }
      // A class of this file: the call runs its `__init__`.
      for (const body of this.classes.get(callee.text) ?? []) {
        for (const init of this.defs.get("__init__") ?? []) {
          if (init.parent === body) out.push({ scope: init, offset: 1 });
        }
      }
      return out;
    }
    if (callee.type !== "attribute") return [];
    const method = callee.childForFieldName("attribute")?.text ?? "";
    const object = callee.childForFieldName("object");
    const owner = object === null ? undefined : this.classOf(object);
    if (owner === undefined) return [];
    // `Class.method(obj, ...)` passes the instance itself.
    const offset = owner.instance ? 1 : 0;
    return (this.defs.get(method) ?? []).filter((s) =>
      s.isMethod && s.parent !== undefined &&
      this.familyOf(s.parent) === owner.family
    ).map((scope) => ({ scope, offset }));
  }

  /**
   * The class family of this file a value is an instance of (`self`, a
   * name given `Class(...)`) or is (`Class`); undefined when pawl cannot
   * tell, and then no method of the file is taken to run.
   */
  classOf(
    node: Node,
    seen = new Set<number>(),
  ): { family: number; instance: boolean } | undefined {
    if (seen.has(node.id)) return undefined;
    seen.add(node.id);
    if (node.type === "identifier") {
      if (isInstance(node.text)) {
        const owner = enclosingClass(this.scopeOf(node));
        return owner === undefined
          ? undefined
          : { family: this.familyOf(owner), instance: node.text === "self" };
      }
      const body = this.classes.get(node.text)?.[0];
      if (body !== undefined) {
        return { family: this.familyOf(body), instance: false };
      }
      const found = this.resolve(this.scopeOf(node), node.text);
      for (const b of found?.bindings ?? []) {
        if (b.kind !== "value") continue;
        const owner = this.classOf(b.node, seen);
        if (owner !== undefined) return owner;
      }
      return undefined;
    }
    if (node.type === "call") {
      const callee = node.childForFieldName("function");
      const body = callee?.type === "identifier"
        ? this.classes.get(callee.text)?.[0]
        : undefined;
      return body === undefined
        ? undefined
        : { family: this.familyOf(body), instance: true };
    }
    return undefined;
  }

  /** The family id of a class body. */
  familyOf(body: Scope): number {
    return this.#family.get(body.id) ?? body.id;
  }

  #newScope(kind: Scope["kind"], node: Node, parent: Scope | undefined) {
    const scope: Scope = {
      id: this.#scopes.length,
      kind,
      node,
      parent,
      bindings: new Map(),
      globals: new Set(),
      nonlocals: new Set(),
      params: [],
      keywordParams: [],
      isMethod: false,
      returns: [],
    };
    this.#scopes.push(scope);
    return scope;
  }

  #read(root: Node): void {
    this.#inside.set(root.id, this.module);
    walk(root, (node, parent, type, parentType) => {
      const scope = parent === null
        ? this.module
        : this.#inside.get(parent.id) ?? this.module;
      this.#scopeOf.set(node.id, scope);
      this.#inside.set(node.id, this.#enter(node, type, scope));
      this.#bind(node, type, scope, parentType);
    });
  }

  /** The scope a node's children are in. */
  #enter(node: Node, type: string, scope: Scope): Scope {
    if (type === "function_definition" || type === "lambda") {
      const inner = this.#newScope("function", node, scope);
      inner.isMethod = type === "function_definition" && scope.kind === "class";
      this.#readParams(node, inner);
      if (type === "lambda") {
        const body = node.childForFieldName("body");
        if (body !== null) inner.returns.push(body);
      } else {
        const name = node.childForFieldName("name")?.text;
        if (name !== undefined) {
          this.#add(scope, name, { kind: "definition" });
          const list = this.defs.get(name);
          if (list === undefined) this.defs.set(name, [inner]);
          else list.push(inner);
        }
      }
      return inner;
    }
    if (type === "class_definition") {
      const name = node.childForFieldName("name")?.text;
      const inner = this.#newScope("class", node, scope);
      if (name !== undefined) {
        this.#add(scope, name, { kind: "definition" });
        const list = this.classes.get(name);
        if (list === undefined) this.classes.set(name, [inner]);
        else list.push(inner);
      }
      return inner;
    }
    return scope;
  }

  #readParams(node: Node, scope: Scope): void {
    const list = node.childForFieldName("parameters");
    if (list === null) return;
    let keywordOnly = false;
    for (const param of realChildren(list)) {
      const type = param.type;
      if (type === "keyword_separator") {
        keywordOnly = true;
        continue;
      }
      if (type === "positional_separator") continue;
      let name: string | undefined;
      if (type === "identifier") name = param.text;
      else if (
        type === "default_parameter" || type === "typed_default_parameter"
      ) {
        name = param.childForFieldName("name")?.text;
        const value = param.childForFieldName("value");
        if (name !== undefined && value !== null) {
          this.#add(scope, name, { kind: "value", node: value });
        }
      } else if (type === "typed_parameter") {
        const first = realChildren(param)[0];
        if (first?.type === "identifier") name = first.text;
        else if (first?.type === "list_splat_pattern") {
          name = realChildren(first)[0]?.text;
          keywordOnly = true;
          if (name !== undefined) scope.params.push("*");
        } else if (first?.type === "dictionary_splat_pattern") {
          name = realChildren(first)[0]?.text;
          if (name !== undefined) scope.params.push("**");
        }
      } else if (type === "list_splat_pattern") {
        name = realChildren(param)[0]?.text;
        keywordOnly = true;
        scope.params.push("*");
      } else if (type === "dictionary_splat_pattern") {
        name = realChildren(param)[0]?.text;
        scope.params.push("**");
      }
      if (name === undefined) continue;
      this.#add(scope, name, { kind: "param", scope, name });
      const last = scope.params[scope.params.length - 1];
      if (last === "*" || last === "**") {
        scope.params[scope.params.length - 1] = `${last}${name}`;
      } else if (keywordOnly) scope.keywordParams.push(name);
      else scope.params.push(name);
    }
  }

  #bind(
    node: Node,
    type: string,
    scope: Scope,
    parentType: string | undefined,
  ): void {
    switch (type) {
      case "assignment": {
        let value = node.childForFieldName("right");
        while (value?.type === "assignment") {
          value = value.childForFieldName("right");
        }
        const left = node.childForFieldName("left");
        if (value !== null && left !== null) {
          this.#target(scope, left, { kind: "value", node: value });
        }
        return;
      }
      case "augmented_assignment":
      case "for_statement":
      case "for_in_clause": {
        const left = node.childForFieldName("left");
        const right = node.childForFieldName("right");
        if (left === null || right === null) return;
        const kind = type === "augmented_assignment" ? "value" : "element";
        this.#target(scope, left, { kind, node: right });
        return;
      }
      case "named_expression": {
        const name = node.childForFieldName("name");
        const value = node.childForFieldName("value");
        if (name !== null && value !== null) {
          this.#target(scope, name, { kind: "value", node: value });
        }
        return;
      }
      case "as_pattern": {
        const alias = node.childForFieldName("alias");
        const value = realChildren(node)[0];
        const target = alias === null ? undefined : realChildren(alias)[0];
        if (target === undefined || value === undefined) return;
        this.#target(
          scope,
          target,
          parentType === "except_clause" ||
            parentType === "except_group_clause"
            ? { kind: "definition" }
            : { kind: "value", node: value },
        );
        return;
      }
      case "import_statement":
      case "import_from_statement":
        this.#bindImport(node, type, scope);
        return;
      case "global_statement":
      case "nonlocal_statement":
        for (const name of realChildren(node)) {
          if (name.type !== "identifier") continue;
          (type === "global_statement" ? scope.globals : scope.nonlocals)
            .add(name.text);
        }
        return;
      case "return_statement":
      case "yield": {
        const value = realChildren(node)[0];
        if (value !== undefined) scope.returns.push(value);
        return;
      }
      case "call":
        this.#bindCall(node);
        return;
    }
  }

  #bindImport(node: Node, type: string, scope: Scope): void {
    const from = node.childForFieldName("module_name")?.text ?? "";
    if (
      type === "import_from_statement" &&
      realChildren(node).some((c) => c.type === "wildcard_import")
    ) {
      this.starImports.push(from);
      return;
    }
    for (const name of node.childrenForFieldName("name")) {
      if (name === null) continue;
      const aliased = name.type === "aliased_import";
      const dotted = aliased
        ? name.childForFieldName("name")?.text ?? ""
        : name.text;
      const local = aliased
        ? name.childForFieldName("alias")?.text
        : type === "import_statement"
        ? dotted.split(".")[0]
        : dotted;
      if (local === undefined) continue;
      this.#add(
        scope,
        local,
        type === "import_statement"
          ? { kind: "module", module: aliased ? dotted : local }
          : { kind: "imported", module: from },
      );
    }
  }

  #bindCall(node: Node): void {
    this.calls.push(node);
    const callee = node.childForFieldName("function");
    if (callee?.type !== "attribute") return;
    const method = callee.childForFieldName("attribute")?.text ?? "";
    const object = callee.childForFieldName("object");
    const args = node.childForFieldName("arguments");
    if (!PUT_METHODS.has(method) || object === null || args === null) return;
    const scope = this.scopeOf(node);
    for (const arg of realChildren(args)) {
      this.#target(scope, object, { kind: "put", node: arg }, true);
    }
  }

  /** Bind what an assignment target names; `held` marks a container written into. */
  #target(scope: Scope, target: Node, binding: Binding, held = false): void {
    const type = target.type;
    if (type === "identifier") {
      this.#add(scope, target.text, held ? put(binding) : binding);
      return;
    }
    if (SEQUENCE_TARGETS.has(type)) {
      const element: Binding = binding.kind === "value"
        ? { kind: "element", node: binding.node }
        : binding;
      for (const child of realChildren(target)) {
        this.#target(scope, child, element, held);
      }
      return;
    }
    if (type === "attribute") {
      const object = target.childForFieldName("object");
      const name = target.childForFieldName("attribute")?.text;
      if (object === null || name === undefined) return;
      if (object.type === "identifier" && isInstance(object.text)) {
        this.#addAttr(scope, name, held ? put(binding) : binding);
      } else this.#target(scope, object, binding, true);
      return;
    }
    if (type === "subscript") {
      const object = target.childForFieldName("value");
      const key = target.childForFieldName("subscript");
      if (object === null) return;
      this.#target(scope, object, binding, true);
      if (key !== null) {
        this.#target(scope, object, { kind: "put", node: key }, true);
      }
    }
  }

  #add(scope: Scope, name: string, binding: Binding): void {
    const list = scope.bindings.get(name);
    if (list === undefined) scope.bindings.set(name, [binding]);
    else list.push(binding);
    // A class body's names are what its methods read as `self.name`.
    if (scope.kind === "class") this.#addAttr(scope, name, binding);
  }

  #addAttr(scope: Scope, name: string, binding: Binding): void {
    const id = enclosingClass(scope)?.id ?? -1;
    let attrs = this.#classAttrs.get(id);
    if (attrs === undefined) this.#classAttrs.set(id, attrs = new Map());
    const list = attrs.get(name);
    if (list === undefined) attrs.set(name, [binding]);
    else list.push(binding);
  }

  /** Classes related by a base named in this file share one family. */
  #joinFamilies(): void {
    const parent = new Map<number, number>();
    const find = (id: number): number => {
      let root = id;
      while ((parent.get(root) ?? root) !== root) root = parent.get(root)!;
      parent.set(id, root);
      return root;
    };
    for (const bodies of this.classes.values()) {
      for (const body of bodies) {
        const bases = body.node.childForFieldName("superclasses");
        for (const base of bases === null ? [] : realChildren(bases)) {
          const name = base.type === "attribute"
            ? base.childForFieldName("attribute")?.text
            : base.text;
          for (const other of this.classes.get(name ?? "") ?? []) {
            const [a, b] = [find(body.id), find(other.id)];
            if (a !== b) parent.set(Math.max(a, b), Math.min(a, b));
          }
        }
      }
    }
    for (const bodies of this.classes.values()) {
      for (const body of bodies) this.#family.set(body.id, find(body.id));
    }
    for (const [id, attrs] of this.#classAttrs) {
      const family = this.#family.get(id) ?? id;
      for (const [name, bindings] of attrs) {
        const key = `${family}:${name}`;
        const list = this.selfAttrs.get(key);
        if (list === undefined) this.selfAttrs.set(key, [...bindings]);
        else list.push(...bindings);
      }
    }
  }
}

/** The class whose body `scope` is or is inside of. */
function enclosingClass(scope: Scope | undefined): Scope | undefined {
  for (let s = scope; s !== undefined; s = s.parent) {
    if (s.kind === "class") return s;
  }
  return undefined;
}

/** `self` and `cls`, by the convention every linter holds methods to. */
export function isInstance(name: string): boolean {
  return name === "self" || name === "cls";
}

function put(binding: Binding): Binding {
  return binding.kind === "value" || binding.kind === "element"
    ? { kind: "put", node: binding.node }
    : binding;
}
