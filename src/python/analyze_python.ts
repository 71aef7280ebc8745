/**
 * Reading a Python test module from its tree-sitter parse tree.
 *
 * @module
 */
import type { Node } from "web-tree-sitter";
import type { PythonParser } from "./load_python_parser.ts";
import type {
  PythonDecorator,
  PythonFunction,
  PythonModule,
  SkipMarker,
  VacuityReason,
} from "./python_module.ts";
import { type Assertion, collectAssertions } from "./_collect_assertions.ts";
import { findSkips } from "./_find_skips.ts";
import { hypothesisSettings } from "./_hypothesis_settings.ts";
import { ImportAliases } from "./_import_aliases.ts";
import { lastToken } from "./_last_token.ts";
import { localScope } from "./_local_scope.ts";
import { realChildren } from "./_real_children.ts";
import { NESTED_SCOPES } from "./_nested_scopes.ts";
import { walk } from "./_walk.ts";
import { addStatefulTests } from "./_stateful_tests.ts";
import { SignificantTokens } from "./_significant_tokens.ts";
import { bodyFacts, identifiersIn, moduleFacts } from "./_module_facts.ts";
import { pythonExpr } from "./_python_expr.ts";
import { mirrorTree } from "./_mirror_tree.ts";

const GIVEN = new Set(["given", "hypothesis.given"]);
const SETTINGS = new Set(["settings", "hypothesis.settings"]);

/**
 * Analyse one Python file: every module-level function and every method of
 * module-level (and nested) classes, keyed by qualname (`test_x`,
 * `TestX.test_y`). Pure: parses `text` with `parser` and reads the tree.
 *
 * `source` is byte-for-byte what Python's `ast.get_source_segment(text, node)`
 * returns for the definition. Python's `Path.read_text()` turns `\r\n` into
 * `\n`; to reproduce a hash taken from such text, normalise newlines first.
 *
 * Assertions inside nested functions, classes and lambdas do not count
 * towards `vacuity` or `exampleAssertions` (they may never run), whereas skip
 * calls anywhere in the body do count towards `skips`: both choices err
 * towards reporting a weak test. When every assertion is vacuous but some
 * are constants and some tautologies, the first one gives the reason.
 *
 * A file with syntax errors still yields the functions tree-sitter could
 * recover, with `syntaxError` set.
 */
export function analyzePython(
  parser: PythonParser,
  text: string,
  options: AnalyzePythonOptions = {},
): PythonModule {
  const tree = parser.parse(text);
  try {
    const root = options.mirror === false
      ? undefined
      : mirrorTree(tree, parser.normalized(text), parser.cursorCalls);
    return new ModuleReader(text, root ?? tree.rootNode).read();
  } finally {
    tree.delete();
  }
}

/** Options for {@linkcode analyzePython}. */
export interface AnalyzePythonOptions {
  /**
   * Read a plain-object copy of the parse tree (default `true`), many times
   * faster to walk; `false` reads the parser's nodes. Both give the same module.
   */
  mirror?: boolean;
}

class ModuleReader {
  #text: string;
  #root: Node;
  #aliases: ImportAliases;
  #functions = new Map<string, PythonFunction>();

  constructor(text: string, root: Node) {
    this.#text = text;
    this.#root = root;
    this.#aliases = ImportAliases.fromModule(root);
  }

  read(): PythonModule {
    const scope = this.#scanScope(this.#root);
    // Module-level `pytest.skip(..., allow_module_level=True)` and
    // `pytest.importorskip(...)` skip every test in the file.
    const moduleSkips = [
      ...scope.pytestmark,
      ...findSkips(this.#root, this.#aliases, {
        marks: false,
        enterDefinitions: false,
      }),
    ];
    this.#readDefinitions(this.#root, "", moduleSkips);
    const machines = addStatefulTests({
      root: this.#root,
      aliases: this.#aliases,
      textOf: this.#textOf,
      functions: this.#functions,
      moduleSkips,
    });
    const tokens = new SignificantTokens(this.#root);
    const facts = moduleFacts(
      this.#root,
      this.#aliases,
      tokens,
      this.#functions,
    );
    const module: PythonModule = {
      functions: this.#functions,
      bindings: facts.bindings,
      dynamicWrites: facts.dynamicWrites,
      definitions: facts.definitions,
      moduleCode: facts.moduleCode,
      profileCalls: facts.profileCalls,
      probes: facts.probes,
      ...(facts.envReads.length === 0 ? {} : { envReads: facts.envReads }),
      tokens: { texts: tokens.texts, lines: tokens.lines },
    };
    if (machines.length > 0) module.stateMachines = machines;
    const pluginsLine = [
      scope.pytestPluginsLine,
      facts.bindings.get("pytest_plugins")?.[0]?.line,
    ].filter((line): line is number => line !== undefined);
    if (pluginsLine.length > 0) {
      module.pytestPluginsLine = Math.min(...pluginsLine);
    }
    const error = firstSyntaxError(this.#root);
    if (error !== undefined) module.syntaxError = error;
    return module;
  }

  #textOf = (node: Node): string =>
    this.#text.slice(node.startIndex, node.endIndex);

  /** `pytestmark` and `pytest_plugins` assignments that run with this scope. */
  #scanScope(
    container: Node,
  ): { pytestmark: SkipMarker[]; pytestPluginsLine?: number } {
    const pytestmark: SkipMarker[] = [];
    let pytestPluginsLine: number | undefined;
    walk(container, (node, _parent, type) => {
      if (node !== container && NESTED_SCOPES.has(type)) return false;
      if (type !== "assignment" && type !== "augmented_assignment") return;
      const names = assignedNames(node);
      if (names.includes("pytest_plugins")) {
        pytestPluginsLine ??= node.startPosition.row + 1;
      }
      const right = node.childForFieldName("right");
      if (names.includes("pytestmark") && right !== null) {
        pytestmark.push(...findSkips(right, this.#aliases));
      }
    });
    return pytestPluginsLine === undefined
      ? { pytestmark }
      : { pytestmark, pytestPluginsLine };
  }

  #readDefinitions(
    container: Node,
    prefix: string,
    inherited: SkipMarker[],
  ): void {
    for (const statement of realChildren(container)) {
      let definition: Node | null = statement;
      let decorators: Node[] = [];
      if (statement.type === "decorated_definition") {
        decorators = realChildren(statement).filter((child) =>
          child.type === "decorator"
        );
        definition = statement.childForFieldName("definition");
      }
      const name = definition?.childForFieldName("name")?.text;
      if (definition === null || name === undefined) continue;
      if (definition.type === "function_definition") {
        this.#addFunction(
          this.#readFunction(definition, name, prefix, decorators, inherited),
        );
      } else if (definition.type === "class_definition") {
        const body = definition.childForFieldName("body");
        if (body === null) continue;
        const classSkips = [
          ...inherited,
          ...decorators.flatMap((decorator) =>
            findSkips(decorator, this.#aliases)
          ),
          ...this.#scanScope(body).pytestmark,
        ];
        this.#readDefinitions(body, `${prefix}${name}.`, classSkips);
      }
    }
  }

  #addFunction(fn: PythonFunction): void {
    const earlier = this.#functions.get(fn.qualname);
    if (earlier !== undefined) {
      fn.shadowedLines = [...(earlier.shadowedLines ?? []), earlier.line];
      // Re-insert so the map keeps the order in which the bindings happen.
      this.#functions.delete(fn.qualname);
    }
    this.#functions.set(fn.qualname, fn);
  }

  #readFunction(
    definition: Node,
    name: string,
    prefix: string,
    decoratorNodes: Node[],
    inherited: SkipMarker[],
  ): PythonFunction {
    const end = lastToken(definition);
    const line = definition.startPosition.row + 1;
    const decorators: PythonDecorator[] = [];
    let usesHypothesis = false;
    let settings: PythonFunction["settings"];
    for (const decorator of decoratorNodes) {
      const expression = realChildren(decorator)[0];
      if (expression === undefined) continue;
      const decoratorLine = decorator.startPosition.row + 1;
      decorators.push({
        text: this.#textOf(expression),
        line: decoratorLine,
        expr: pythonExpr(expression, this.#aliases),
      });
      const callee = expression.type === "call"
        ? expression.childForFieldName("function")
        : expression;
      const calleeName = callee === null
        ? undefined
        : this.#aliases.canonical(callee);
      if (calleeName === undefined) continue;
      if (GIVEN.has(calleeName)) usesHypothesis = true;
      if (
        SETTINGS.has(calleeName) && expression.type === "call" &&
        settings === undefined
      ) {
        settings = hypothesisSettings(expression, decoratorLine, this.#textOf);
      }
    }
    const body = definition.childForFieldName("body");
    const assertions = body === null
      ? []
      : collectAssertions(body, this.#aliases);
    const skips = [
      ...decoratorNodes.flatMap((decorator) =>
        findSkips(decorator, this.#aliases)
      ),
      ...inherited,
      ...(body === null ? [] : findSkips(body, this.#aliases)),
    ].sort((a, b) => a.line - b.line);
    const fn: PythonFunction = {
      name,
      qualname: prefix + name,
      line,
      endLine: end.endPosition.row + 1,
      source: this.#text.slice(definition.startIndex, end.endIndex),
      decorators,
      usesHypothesis,
      skips,
      exampleAssertions:
        assertions.filter((assertion) => assertion.example).length,
      assertions: assertions
        .filter((assertion) => assertion.verdict === "real")
        .map(({ key, line, claim }) =>
          claim === undefined ? { key, line } : { key, line, claim }
        ),
    };
    if (settings !== undefined) fn.settings = settings;
    if (body !== null) {
      const facts = bodyFacts(body, this.#aliases);
      fn.assumes = facts.assumes;
      fn.envReads = facts.envReads;
      fn.scope = localScope(definition, this.#aliases);
      const locals = parameterNames(definition);
      for (const name of facts.locals) locals.add(name);
      const refs = facts.identifiers;
      for (const d of decoratorNodes) {
        for (const name of identifiersIn(d)) refs.add(name);
      }
      fn.refs = [...refs].filter((name) => !locals.has(name));
    }
    const vacuity = vacuityOf(assertions, line);
    if (vacuity !== undefined) fn.vacuity = vacuity;
    return fn;
  }
}

/** Why a body's assertions cannot fail, or undefined when one can. */
function vacuityOf(
  assertions: readonly Assertion[],
  defLine: number,
): { reason: VacuityReason; line: number } | undefined {
  const first = assertions[0];
  if (first === undefined) return { reason: "no_assertion", line: defLine };
  if (assertions.some((assertion) => assertion.verdict === "real")) {
    return undefined;
  }
  // Only `constant` and `tautology` remain; a mix reports the first one.
  return { reason: first.verdict as VacuityReason, line: first.line };
}

/** Parameter names: not references to module names. */
function parameterNames(definition: Node): Set<string> {
  const out = new Set<string>();
  const parameters = definition.childForFieldName("parameters");
  if (parameters !== null) {
    walk(parameters, (node, _p, type) => {
      if (type === "identifier") out.add(node.text);
      if (type === "default" || type === "type") return false;
    });
  }
  return out;
}

/** Names bound by an assignment's target: `x`, or each name of `x, y`. */
function assignedNames(assignment: Node): string[] {
  const left = assignment.childForFieldName("left");
  if (left === null) return [];
  if (left.type === "identifier") return [left.text];
  return realChildren(left)
    .filter((target) => target.type === "identifier")
    .map((target) => target.text);
}

function firstSyntaxError(
  root: Node,
): { line: number; column: number } | undefined {
  if (!root.hasError) return undefined;
  let found: { line: number; column: number } | undefined;
  walk(
    root,
    (node) => {
      if (found !== undefined) return false;
      if (node.isError || node.isMissing) {
        found = {
          line: node.startPosition.row + 1,
          column: node.startPosition.column + 1,
        };
        return false;
      }
      return node.hasError;
    },
    { anonymous: true },
  );
  return found;
}
