import type { Node } from "web-tree-sitter";
import type {
  AssertionSite,
  BindingKind,
  EnvRead,
  HarnessProbe,
  ModuleStatement,
  ProfileCall,
  PythonBinding,
  PythonDefinition,
  PythonExpr,
} from "./python_module.ts";
import type { ImportAliases } from "./_import_aliases.ts";
import { pythonExpr } from "./_python_expr.ts";
import { realChildren } from "./_real_children.ts";
import { returnedExpr } from "./_returned_expr.ts";
import { isDocstring, type SignificantTokens } from "./_significant_tokens.ts";
import { walk } from "./_walk.ts";
import { constantRuns, foldString, stringValue } from "./_fold_string.ts";
import { frameworkModule } from "./_harness_names.ts";
import { followProbes } from "./_probe_flow.ts";
import {
  outsideMainBlocks,
  type ProbeSource,
  probeSource,
} from "./_probe_sources.ts";

/** Statements whose blocks run at the level of the scope they sit in. */
const COMPOUND = new Set([
  "if_statement",
  "elif_clause",
  "else_clause",
  "for_statement",
  "while_statement",
  "try_statement",
  "except_clause",
  "except_group_clause",
  "finally_clause",
  "with_statement",
  "match_statement",
  "case_clause",
  "block",
]);

const ASSUME_CALLS = new Set([
  "hypothesis.assume",
  "hypothesis.reject",
  "assume",
  "reject",
]);

const ENV_CALLS = new Set([
  "os.getenv",
  "os.environ.get",
  "os.environ.pop",
  "os.environ.setdefault",
  "getenv",
  "environ.get",
]);

/** What {@linkcode moduleFacts} returns. */
export interface ModuleFacts {
  bindings: Map<string, PythonBinding[]>;
  dynamicWrites: { line: number; detail: string }[];
  definitions: Map<string, PythonDefinition>;
  moduleCode: ModuleStatement[];
  profileCalls: ProfileCall[];
  probes: HarnessProbe[];
  envReads: EnvRead[];
}

interface RawBinding extends PythonBinding {
  statement: Node;
  value?: Node;
  from?: { module: string; name: string };
}

/**
 * Bindings, definitions, module-level code, profile calls and harness
 * probes of a parsed module.
 */
export function moduleFacts(
  root: Node,
  aliases: ImportAliases,
  tokens: SignificantTokens,
  functions: ReadonlyMap<
    string,
    { refs?: string[]; assumes?: number[]; assertions?: AssertionSite[] }
  >,
): ModuleFacts {
  const raw = new Map<string, RawBinding[]>();
  const dynamicWrites: { line: number; detail: string }[] = [];
  const moduleCode: ModuleStatement[] = [];
  const bind = (name: string, binding: RawBinding) => {
    const list = raw.get(name);
    if (list === undefined) raw.set(name, [binding]);
    else list.push(binding);
  };
  scanScope(root, "", { bind, dynamicWrites, moduleCode, tokens, top: true });
  const profileCalls: ProfileCall[] = [];
  const probes: HarnessProbe[] = [];
  const envReads: EnvRead[] = [];
  scanAnywhere(root, aliases, {
    bind,
    dynamicWrites,
    profileCalls,
    probes,
    envReads,
  });

  const bindings = new Map<string, PythonBinding[]>();
  const definitions = new Map<string, PythonDefinition>();
  for (const [name, list] of raw) {
    const ordered = [...list].sort((a, b) => a.line - b.line);
    bindings.set(name, ordered.map(({ kind, line }) => ({ kind, line })));
    if (name.includes(".")) continue;
    const last = ordered[ordered.length - 1] as RawBinding;
    const key = ordered.map((b) => tokens.keyOf(b.statement)).join("+");
    const refs = new Set<string>();
    for (const b of ordered) {
      if (b.kind === "def") {
        for (const ref of functions.get(name)?.refs ?? []) refs.add(ref);
      } else if (b.kind !== "class") {
        for (const ref of identifiersIn(b.value ?? b.statement)) refs.add(ref);
      }
    }
    refs.delete(name);
    const definition: PythonDefinition = {
      kind: last.kind,
      line: last.line,
      key,
      refs: [...refs],
    };
    if (
      ordered.length === 1 && last.kind === "assign" && last.value !== undefined
    ) {
      definition.expr = pythonExpr(last.value, aliases);
    }
    if (last.from !== undefined) definition.from = last.from;
    if (last.kind === "def") {
      definition.assumes = functions.get(name)?.assumes ?? [];
      definition.assertions = functions.get(name)?.assertions ?? [];
      const returns = ordered.length === 1
        ? returnedExpr(last.statement, aliases)
        : undefined;
      if (returns !== undefined) definition.returns = returns;
    }
    definitions.set(name, definition);
  }
  return {
    bindings,
    dynamicWrites,
    definitions,
    moduleCode,
    profileCalls,
    probes,
    envReads,
  };
}

interface ScopeSink {
  bind(name: string, binding: RawBinding): void;
  dynamicWrites: { line: number; detail: string }[];
  moduleCode: ModuleStatement[];
  tokens: SignificantTokens;
  top: boolean;
}

function scanScope(container: Node, prefix: string, sink: ScopeSink): void {
  for (const statement of realChildren(container)) {
    scanStatement(statement, statement, prefix, sink);
  }
}

function scanStatement(
  statement: Node,
  topStatement: Node,
  prefix: string,
  sink: ScopeSink,
): void {
  const line = statement.startPosition.row + 1;
  const type = statement.type;
  const record = (
    kind: BindingKind,
    name: string,
    extra: Partial<RawBinding> = {},
  ) =>
    sink.bind(prefix + name, { kind, line, statement: topStatement, ...extra });
  if (
    type === "decorated_definition" || type === "function_definition" ||
    type === "class_definition"
  ) {
    const definition = type === "decorated_definition"
      ? statement.childForFieldName("definition")
      : statement;
    const name = definition?.childForFieldName("name")?.text;
    if (definition === null || name === undefined) return;
    if (definition.type === "class_definition") {
      record("class", name);
      const body = definition.childForFieldName("body");
      if (body !== null) {
        scanScope(body, `${prefix}${name}.`, { ...sink, top: false });
      }
    } else record("def", name);
    return;
  }
  if (type === "import_statement") {
    for (const name of statement.childrenForFieldName("name")) {
      if (name === null) continue;
      const local = name.type === "aliased_import"
        ? name.childForFieldName("alias")?.text
        : name.text.split(".")[0];
      if (local !== undefined) record("import", local);
    }
    return;
  }
  if (type === "import_from_statement") {
    const module = statement.childForFieldName("module_name")?.text ?? "";
    if (realChildren(statement).some((c) => c.type === "wildcard_import")) {
      sink.dynamicWrites.push({ line, detail: `from ${module} import *` });
      return;
    }
    for (const name of statement.childrenForFieldName("name")) {
      if (name === null) continue;
      const original = name.type === "aliased_import"
        ? name.childForFieldName("name")?.text
        : name.text;
      const local = name.type === "aliased_import"
        ? name.childForFieldName("alias")?.text
        : name.text;
      if (local === undefined || original === undefined) continue;
      record("import", local, { from: { module, name: original } });
    }
    return;
  }
  if (type === "future_import_statement") return;
  if (type === "expression_statement") {
    if (isDocstring(statement)) return;
    const inner = realChildren(statement)[0];
    if (
      inner !== undefined &&
      (inner.type === "assignment" || inner.type === "augmented_assignment")
    ) {
      let plain = true;
      let current: Node | null = inner;
      while (
        current !== null &&
        (current.type === "assignment" ||
          current.type === "augmented_assignment")
      ) {
        const left = current.childForFieldName("left");
        const right = current.childForFieldName("right");
        const value = right !== null && right.type !== "assignment"
          ? right
          : undefined;
        if (!plainTarget(left)) plain = false;
        for (const target of targetNames(left)) {
          if (target.kind === "name") {
            record("assign", target.name, value === undefined ? {} : { value });
          } else {
            plain = false;
            if (target.kind === "global") record("assign", target.name);
            if (target.kind === "dynamic") {
              sink.dynamicWrites.push({ line, detail: target.name });
            }
          }
        }
        current = right !== null &&
            (right.type === "assignment" ||
              right.type === "augmented_assignment")
          ? right
          : null;
      }
      if (!plain && sink.top) {
        sink.moduleCode.push({ key: sink.tokens.keyOf(statement), line });
      }
      return;
    }
    if (sink.top) {
      sink.moduleCode.push({ key: sink.tokens.keyOf(statement), line });
    }
    return;
  }
  if (type === "delete_statement") {
    for (const target of targetNames(realChildren(statement)[0] ?? null)) {
      if (target.kind === "name") record("del", target.name);
    }
    if (sink.top) {
      sink.moduleCode.push({ key: sink.tokens.keyOf(statement), line });
    }
    return;
  }
  if (COMPOUND.has(type)) {
    if (type === "for_statement") {
      for (const t of targetNames(statement.childForFieldName("left"))) {
        if (t.kind === "name") record("assign", t.name);
      }
    }
    if (type === "with_statement") {
      walk(statement, (node, _p, t) => {
        if (t === "block") return false;
        if (t === "as_pattern_target") {
          for (const n of targetNames(realChildren(node)[0] ?? null)) {
            if (n.kind === "name") record("assign", n.name);
          }
        }
      });
    }
    if (sink.top && topStatement === statement) {
      sink.moduleCode.push({ key: sink.tokens.keyOf(statement), line });
    }
    for (const child of realChildren(statement)) {
      if (COMPOUND.has(child.type)) {
        scanStatement(child, topStatement, prefix, { ...sink, top: false });
      } else if (child.type !== "comment") {
        const parentType = statement.type;
        if (
          parentType === "block" || child.type.endsWith("_statement") ||
          child.type === "decorated_definition" ||
          child.type.endsWith("_definition")
        ) {
          scanStatement(child, topStatement, prefix, { ...sink, top: false });
        }
      }
    }
    return;
  }
  if (sink.top && type !== "pass_statement") {
    sink.moduleCode.push({ key: sink.tokens.keyOf(statement), line });
  }
}

/** A target made of names only (`x`, `x, y`): binding it has no side effect. */
function plainTarget(left: Node | null): boolean {
  if (left === null) return false;
  if (left.type === "identifier") return true;
  if (
    left.type === "pattern_list" || left.type === "tuple_pattern" ||
    left.type === "list_pattern" || left.type === "expression_list"
  ) {
    return realChildren(left).every(plainTarget);
  }
  return false;
}

type Target =
  | { kind: "name"; name: string }
  | { kind: "global"; name: string }
  | { kind: "dynamic"; name: string };

/** Names an assignment target binds; writes through `globals()` and `sys.modules` resolved where literal. */
function targetNames(left: Node | null): Target[] {
  if (left === null) return [];
  const type = left.type;
  if (type === "identifier") return [{ kind: "name", name: left.text }];
  if (
    type === "pattern_list" || type === "tuple_pattern" ||
    type === "list_pattern" || type === "expression_list" ||
    type === "tuple" || type === "list" ||
    type === "parenthesized_expression" ||
    type === "list_splat_pattern"
  ) {
    return realChildren(left).flatMap(targetNames);
  }
  if (type === "subscript") {
    const value = left.childForFieldName("value");
    if (value !== null && isGlobalsCall(value)) {
      const key = left.childForFieldName("subscript");
      const literal = key === null ? undefined : stringLiteral(key);
      return literal === undefined
        ? [{ kind: "dynamic", name: `${value.text}[${key?.text ?? ""}]` }]
        : [{ kind: "global", name: literal }];
    }
    if (value !== null && isModuleObject(value)) {
      return [{ kind: "dynamic", name: left.text }];
    }
    return [];
  }
  if (type === "attribute") {
    const object = left.childForFieldName("object");
    const attribute = left.childForFieldName("attribute");
    if (object !== null && attribute !== null && isModuleObject(object)) {
      return [{ kind: "global", name: attribute.text }];
    }
    if (attribute?.text === "__dict__" || object?.text.endsWith("__dict__")) {
      return [{ kind: "dynamic", name: left.text }];
    }
  }
  return [];
}

/** `globals()`, `vars()`, `locals()` (at module level they are the module's namespace). */
function isGlobalsCall(node: Node): boolean {
  if (node.type !== "call") return false;
  const fn = node.childForFieldName("function")?.text;
  const args = node.childForFieldName("arguments");
  return (fn === "globals" || fn === "vars" || fn === "locals") &&
    (args === null || realChildren(args).length === 0);
}

/** `sys.modules[...]`, `sys.modules.get(...)`, `importlib.import_module(...)`, `__import__(...)`. */
function isModuleObject(node: Node): boolean {
  const text = node.text.replace(/\s+/g, "");
  return /^sys\.modules(\[|\.get\(|\.setdefault\()/.test(text) ||
    /^(importlib\.)?import_module\(/.test(text) ||
    /^__import__\(/.test(text);
}

function stringLiteral(node: Node): string | undefined {
  if (node.type !== "string") return undefined;
  const parts = realChildren(node);
  if (parts.some((p) => p.type === "interpolation")) return undefined;
  const content = parts.find((p) => p.type === "string_content");
  return content?.text ?? "";
}

/**
 * One walk over the whole file: writes to module globals made by calls and
 * `global` statements, Hypothesis profile calls, and harness probes.
 */
function scanAnywhere(
  root: Node,
  aliases: ImportAliases,
  sink: Pick<ScopeSink, "bind" | "dynamicWrites"> & {
    profileCalls: ProfileCall[];
    probes: HarnessProbe[];
    envReads: EnvRead[];
  },
): void {
  const sources: ProbeSource[] = [];
  walk(root, (node, parent, type, parentType) => {
    if (type === "attribute" || type === "call") {
      const source = probeSource(node, type, parent, aliases);
      if (source?.kind === "named") {
        const line = node.startPosition.row + 1;
        sink.envReads.push({ name: source.name, line });
      } else if (source !== undefined) sources.push(source);
    }
    if (type === "global_statement") {
      const line = node.startPosition.row + 1;
      for (const name of realChildren(node)) {
        if (name.type === "identifier") {
          sink.bind(name.text, { kind: "global", line, statement: node });
        }
      }
      return;
    }
    if (type === "import_statement" || type === "import_from_statement") {
      const names = type === "import_statement"
        ? statementModules(node)
        : [node.childForFieldName("module_name")?.text ?? ""];
      for (const name of names) {
        const hit = frameworkModule(name);
        if (hit !== undefined) {
          sink.probes.push({
            kind: "import",
            detail: hit,
            line: node.startPosition.row + 1,
          });
        }
      }
      return false;
    }
    if (FOLDED.has(type)) {
      const skip = probeConstants(node, type, parent, parentType, sink.probes);
      if (skip) return false;
    }
    if (type === "call") {
      const callee = node.childForFieldName("function");
      if (callee !== null && CALL_NAMES.test(callee.text)) {
        scanCall(node, aliases, sink);
      }
    }
  });
  const followed = outsideMainBlocks(root, sources);
  if (followed.length > 0) {
    const found = followProbes(root, aliases, followed);
    sink.probes.push(...found.probes);
    sink.probes.sort((a, b) => a.line - b.line);
    sink.envReads.push(...found.envReads);
  }
}

/** Expressions that may be or build a string from constants. */
const FOLDED = new Set([
  "string",
  "binary_operator",
  "concatenated_string",
  "call",
  "subscript",
]);

/**
 * The probes a string, or a string built from constants, makes:
 * `"pytest"`, `"_py" + "test"`, `"".join([...])`, `chr(112) + ...`,
 * `"tset"[::-1]`. True when nothing inside needs a look.
 */
function probeConstants(
  node: Node,
  type: string,
  parent: Node | null,
  parentType: string | undefined,
  probes: HarnessProbe[],
): boolean {
  if (type === "string") {
    // Most strings cannot be a probe: test the text before reading parts.
    const text = node.text;
    if (PROBE_TEXT.test(text) || text.includes("\\")) {
      probeString(node, stringValue(node) ?? foldString(node), probes);
    }
    return !text.includes("{");
  }
  if (type === "binary_operator") {
    // Read once per chain of `+`, where its pieces meet.
    const plus = (n: Node | null) =>
      n?.childForFieldName("operator")?.type === "+";
    if (parentType === "binary_operator" && plus(parent) && plus(node)) {
      return false;
    }
    const runs = constantRuns(node);
    for (const run of runs) probeString(node, run, probes);
    return runs.length === 1 && foldString(node) !== undefined;
  }
  const text = foldString(node);
  if (text === undefined) return false;
  probeString(node, text, probes);
  return true;
}

/** Strings that may be probes. */
const PROBE_TEXT =
  /pytest|hypothesis|junit|pluggy|xdist|PYTEST_|HYPOTHESIS_|PAWL_/i;

/** Callee texts worth resolving: global writes, exec, profiles. */
const CALL_NAMES =
  /(setattr|delattr|exec|register_profile|load_profile|update|setdefault|__setitem__|pop|clear|popitem|__delitem__)\s*$/;

function probeString(
  node: Node,
  text: string | undefined,
  probes: HarnessProbe[],
): void {
  if (text === undefined || text.length > 200 || !PROBE_TEXT.test(text)) {
    return;
  }
  const line = node.startPosition.row + 1;
  const hit = frameworkModule(text);
  if (hit !== undefined) {
    probes.push({ kind: "module_name", detail: hit, line });
  } else if (/^(PYTEST_|HYPOTHESIS_|PAWL_)/.test(text)) {
    probes.push({ kind: "env", detail: text, line });
  } else if (/junit|--junitxml|pytest-of-|--hypothesis-/i.test(text)) {
    probes.push({ kind: "report", detail: text.slice(0, 60), line });
  }
}

function scanCall(
  node: Node,
  aliases: ImportAliases,
  sink: Pick<ScopeSink, "bind" | "dynamicWrites"> & {
    profileCalls: ProfileCall[];
    probes: HarnessProbe[];
  },
): void {
  const fn = node.childForFieldName("function");
  if (fn === null) return;
  const line = node.startPosition.row + 1;
  const canonical = aliases.canonical(fn);
  if (canonical !== undefined) {
    const kind = canonical.endsWith("register_profile")
      ? "register"
      : canonical.endsWith("load_profile")
      ? "load"
      : undefined;
    if (kind !== undefined) {
      sink.profileCalls.push({ kind, line, expr: pythonExpr(node, aliases) });
    }
  }
  if (
    canonical === "setattr" || canonical === "delattr" ||
    canonical === "builtins.setattr"
  ) {
    const args = node.childForFieldName("arguments");
    const [target, name] = args === null ? [] : realChildren(args);
    if (
      target !== undefined &&
      (isModuleObject(target) || isGlobalsCall(target))
    ) {
      const literal = name === undefined ? undefined : stringLiteral(name);
      if (literal === undefined) {
        sink.dynamicWrites.push({ line, detail: node.text.slice(0, 80) });
      } else {
        sink.bind(literal, { kind: "global", line, statement: node });
      }
    }
    return;
  }
  if (canonical === "exec" || canonical === "builtins.exec") {
    sink.dynamicWrites.push({ line, detail: "exec(...)" });
    return;
  }
  if (fn.type === "attribute") {
    const method = fn.childForFieldName("attribute")?.text;
    if (method === undefined || !GLOBALS_WRITES.has(method)) return;
    const object = fn.childForFieldName("object");
    if (
      object !== null &&
      (isGlobalsCall(object) || object.text.endsWith("__dict__") ||
        isModuleObject(object))
    ) {
      sink.dynamicWrites.push({
        line,
        detail: `${object.text}.${method}(...)`,
      });
    }
  }
}

const GLOBALS_WRITES = new Set([
  "update",
  "setdefault",
  "__setitem__",
  "pop",
  "clear",
  "popitem",
  "__delitem__",
]);

/** What a function body uses: names, `assume()` lines, environment reads, local names. */
export interface BodyFacts {
  identifiers: Set<string>;
  assumes: number[];
  envReads: string[];
  locals: Set<string>;
}

/** One walk over a function body (nested scopes included). */
export function bodyFacts(body: Node, aliases: ImportAliases): BodyFacts {
  const facts: BodyFacts = {
    identifiers: new Set(),
    assumes: [],
    envReads: [],
    locals: new Set(),
  };
  walk(body, (n, parent, type, parentType) => {
    if (type === "identifier") {
      if (
        parentType === "attribute" &&
        parent?.childForFieldName("attribute")?.id === n.id
      ) return;
      if (
        parentType === "keyword_argument" &&
        parent?.childForFieldName("name")?.id === n.id
      ) return;
      facts.identifiers.add(n.text);
      return;
    }
    if (type === "string_content") return false;
    if (type === "call") {
      const fn = n.childForFieldName("function");
      const name = fn === null ? undefined : aliases.canonical(fn);
      if (name === undefined) return;
      if (ASSUME_CALLS.has(name)) facts.assumes.push(n.startPosition.row + 1);
      if (ENV_CALLS.has(name)) {
        const args = n.childForFieldName("arguments");
        const first = args === null ? undefined : realChildren(args)[0];
        facts.envReads.push(
          (first === undefined ? undefined : stringLiteral(first)) ?? "?",
        );
      }
      return;
    }
    if (type === "subscript") {
      const value = n.childForFieldName("value");
      const name = value === null ? undefined : aliases.canonical(value);
      if (name === "os.environ" || name === "environ") {
        const key = n.childForFieldName("subscript");
        facts.envReads.push(
          (key === null ? undefined : stringLiteral(key)) ?? "?",
        );
      }
      return;
    }
    const left = type === "assignment" || type === "augmented_assignment" ||
        type === "for_statement" || type === "for_in_clause"
      ? n.childForFieldName("left")
      : type === "as_pattern_target" || type === "named_expression"
      ? n.firstNamedChild
      : null;
    if (left === null) return;
    if (left.type === "identifier") facts.locals.add(left.text);
    else {
      for (const target of targetNames(left)) {
        if (target.kind === "name") facts.locals.add(target.name);
      }
    }
  });
  return facts;
}

/** Identifiers an expression or statement reads (attribute names and keywords excluded). */
export function identifiersIn(node: Node): string[] {
  const out = new Set<string>();
  walk(node, (n, parent, type, parentType) => {
    if (type !== "identifier") return;
    if (
      parentType === "attribute" &&
      parent?.childForFieldName("attribute")?.id === n.id
    ) return;
    if (
      parentType === "keyword_argument" &&
      parent?.childForFieldName("name")?.id === n.id
    ) return;
    out.add(n.text);
  });
  return [...out];
}

function statementModules(statement: Node): string[] {
  return statement.childrenForFieldName("name").flatMap((name) => {
    if (name === null) return [];
    const module = name.type === "aliased_import"
      ? name.childForFieldName("name")
      : name;
    return module === null ? [] : [module.text];
  });
}

/** Re-exported for the function reader. */
export type { PythonExpr };
