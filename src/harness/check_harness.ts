/**
 * The pull request may not change what "passed" means: conftest hooks,
 * `__init__.py` files on the way to a test, start-up files, bytecode,
 * pytest configuration, plugins, and new top-level modules that shadow the
 * standard library or a package the project does not own.
 *
 * @module
 */
import { parse as parseToml } from "smol-toml";
import { type Finding, finding } from "../core/finding.ts";
import type { PythonModule } from "../python/python_module.ts";
import type { ChangedPath, Tree } from "../git/git.ts";
import { iniSection } from "./_ini_section.ts";
import {
  FALLBACK_INSTALLED_MODULES,
  FALLBACK_STDLIB_MODULES,
} from "./fallback_module_names.ts";
import { isGateConfigPath } from "./check_gate_config.ts";
import {
  configuredPythonpath,
  isTestSide,
  packagingNames,
  topLevelName,
  topLevelNames,
  topLevelNamesByRoot,
  treeLayout,
} from "./harness_paths.ts";

/** File texts at base and head for the paths the harness rules inspect. */
export interface HarnessTexts {
  /** Text at base (absent when the file did not exist or is not text). */
  base: ReadonlyMap<string, string>;
  /** Text at head. */
  head: ReadonlyMap<string, string>;
}

/** Module names of the interpreter the tests run with. */
export interface ModuleNames {
  /** `sys.stdlib_module_names`. */
  stdlib: ReadonlySet<string>;
  /** Top-level names of installed distributions (`importlib.metadata.packages_distributions()`). */
  installed: ReadonlySet<string>;
  /** The interpreter asked, or `null` when the built-in fallback lists were used. */
  interpreter: string | null;
}

/** The names used when no interpreter can be asked. */
export const FALLBACK_MODULE_NAMES: ModuleNames = {
  stdlib: FALLBACK_STDLIB_MODULES,
  installed: FALLBACK_INSTALLED_MODULES,
  interpreter: null,
};

/** Input of {@linkcode checkHarness}. */
export interface CheckHarnessOptions {
  /**
   * Texts at base and head of the config files {@linkcode harnessConfigPaths}
   * names (the root `pyproject.toml`, `setup.cfg`, `pytest.ini`, `tox.ini`
   * always; others when they changed).
   */
  texts: HarnessTexts;
  /** Analyses of changed Python files at head (keyed by path). */
  headModules: ReadonlyMap<string, PythonModule>;
  /** Analyses of changed Python files at base (keyed by path). */
  baseModules: ReadonlyMap<string, PythonModule>;
  /** Base tree (default: empty). */
  baseTree?: Tree;
  /** Head tree (default: empty). */
  headTree?: Tree;
  /** The sandbox interpreter's module names (default: {@linkcode FALLBACK_MODULE_NAMES}). */
  moduleNames?: ModuleNames;
  /** Paths of the registered test modules. */
  registered?: readonly string[];
  /** The base `pawl.toml`'s `[environment] pythonpath`: more path roots. */
  pythonpath?: readonly string[];
}

/** Root config files read on every run: they name the project's packages and path roots. */
const ROOT_CONFIGS = ["pyproject.toml", "setup.cfg", "pytest.ini", "tox.ini"];

/** Paths the shell must read at base and head to run the config rules. */
export function harnessConfigPaths(changes: readonly ChangedPath[]): string[] {
  const out = new Set(ROOT_CONFIGS);
  for (const c of changes) {
    const name = basename(c.path);
    if (
      name === "pyproject.toml" || name === "setup.cfg" || name === "tox.ini" ||
      isGateConfigPath(c.path)
    ) out.add(c.path);
  }
  return [...out];
}

/**
 * Judge the harness changes of a pull request. Files that run before any
 * test (conftest files, `__init__.py` in a directory that holds or is
 * above a test file, `sitecustomize.py`/`usercustomize.py`) may change
 * only in comments and docstrings; `.pth` files and committed bytecode
 * never; a new top-level module in a path root (the root, `src/`, the
 * configured `pythonpath`, each test file's rootdir) may not take the name
 * of a standard-library module or of an installed package the project
 * does not own (its own packages: top-level names at base and what its
 * packaging metadata names).
 *
 * @example
 * ```ts
 * import { checkHarness } from "./check_harness.ts";
 * const findings = checkHarness([{ status: "A", path: "tests/conftest.py" }], {
 *   texts: { base: new Map(), head: new Map() },
 *   headModules: new Map([["tests/conftest.py", { functions: new Map(), tokens: { texts: ["x"], lines: [1] } }]]),
 *   baseModules: new Map(),
 * });
 * if (findings[0]?.rule !== "harness.conftest_changed") throw new Error("unexpected");
 * ```
 */
export function checkHarness(
  changes: readonly ChangedPath[],
  options: CheckHarnessOptions,
): Finding[] {
  const out: Finding[] = [];
  const baseTree = options.baseTree ?? new Map();
  const headTree = options.headTree ?? new Map();
  const names = options.moduleNames ?? FALLBACK_MODULE_NAMES;
  const pythonpath = [
    ...configuredPythonpath(options.texts.base),
    // Stryker disable next-line ArrayDeclaration: not worth a test: a default of one stand-in root differs from none only for a tree holding a module under that very path
    ...(options.pythonpath ?? []),
  ];
  // Stryker disable next-line ArrayDeclaration: not worth a test: a default of one stand-in path differs from none only for a tree holding a file at that very path
  const registered = options.registered ?? [];
  const headLayout = treeLayout(headTree, { pythonpath, registered });
  const baseLayout = treeLayout(baseTree, { pythonpath, registered });
  const roots = new Set([...headLayout.pathRoots, ...baseLayout.pathRoots]);
  const owned = new Set([
    ...topLevelNames(baseTree, roots),
    ...packagingNames(options.texts.base),
  ]);
  let shadowChecked = false;
  const atBase = new Map<string, Set<string>>();
  for (const change of changes) {
    const { path } = change;
    const name = basename(path);
    const verb = VERBS[change.status];
    if (name === "conftest.py") {
      const line = realChange(change, options);
      if (line !== null) {
        out.push(finding(
          "harness.conftest_changed",
          `The pull request ${verb} "${path}"${
            lineText(line)
          }: conftest hooks decide what "passed" means and are human-owned`,
          { path, line },
        ));
      }
      continue;
    }
    if (name === "pytest.ini" || name === ".pytest.ini") {
      out.push(finding(
        "harness.pytest_config_changed",
        `The pull request ${verb} pytest configuration "${path}"`,
        { path },
      ));
      continue;
    }
    if (
      name === "pyproject.toml" || name === "setup.cfg" || name === "tox.ini"
    ) {
      out.push(...checkConfigFile(path, verb, options.texts));
      continue;
    }
    if (name.endsWith(".pth")) {
      out.push(finding(
        "harness.plugin_changed",
        `The pull request ${verb} "${path}": .pth files run code at interpreter start-up`,
        { path },
      ));
      continue;
    }
    if (isBytecode(path)) {
      if (change.status !== "D") {
        out.push(finding(
          "harness.bytecode_added",
          `The pull request ${verb} bytecode "${path}": Python can run it instead of the source pawl read; commit sources only`,
          { path },
        ));
      }
      continue;
    }
    if (name === "sitecustomize.py" || name === "usercustomize.py") {
      const line = realChange(change, options);
      if (line !== null) {
        out.push(finding(
          "harness.startup_changed",
          `The pull request ${verb} "${path}"${
            lineText(line)
          }: it runs at interpreter start-up, before any test`,
          { path, line },
        ));
      }
      continue;
    }
    if (name === "__init__.py") {
      const dir = path.slice(0, Math.max(0, path.length - name.length - 1));
      if (headLayout.testDirs.has(dir) || baseLayout.testDirs.has(dir)) {
        const line = realChange(change, options);
        if (line !== null) {
          out.push(finding(
            "harness.init_changed",
            `The pull request ${verb} "${path}"${
              lineText(line)
            }: it runs before the tests below it are collected, so beyond comments and docstrings it is human-owned`,
            { path, line },
          ));
          continue;
        }
      }
    }
    if (change.status === "A" || change.status === "T") {
      shadowChecked ||= [...roots].some((root) =>
        topLevelName(path, root) !== undefined
      );
      const shadow = shadowing(path, roots, {
        baseTree,
        names,
        owned,
        atBase,
      });
      if (shadow !== undefined) {
        out.push(finding(
          shadow.stdlib
            ? "harness.stdlib_shadowed"
            : "harness.package_shadowed",
          `The pull request added "${path}", a top-level module "${shadow.name}" on the tests' import path that shadows the ${
            shadow.stdlib ? "standard-library" : "installed"
          } module of that name${
            names.interpreter === null
              ? " (by pawl's built-in list of names: no interpreter was available)"
              : ""
          }: rename it`,
          { path },
        ));
        continue;
      }
    }
    // Stryker disable next-line ConditionalExpression,StringLiteral: only .py files are analysed (the changed ones and the contracts' test modules), so another path has no module here and nothing below fires
    if (path.endsWith(".py")) {
      const head = options.headModules.get(path);
      const base = options.baseModules.get(path);
      if (
        head?.pytestPluginsLine !== undefined ||
        base?.pytestPluginsLine !== undefined
      ) {
        out.push(finding(
          "harness.plugin_changed",
          `The pull request ${verb} "${path}", which loads pytest plugins through "pytest_plugins"`,
          {
            path,
            line: head?.pytestPluginsLine ??
              // Stryker disable next-line OptionalChaining: with no line at head the base has one (above), so the base module is there
              base?.pytestPluginsLine,
          },
        ));
        continue;
      }
      const testSide = isTestSide(path, headLayout) ||
        isTestSide(path, baseLayout);
      const writes = head?.dynamicWrites ?? [];
      if (testSide && writes.length > (base?.dynamicWrites ?? []).length) {
        const last = writes[writes.length - 1] as {
          line: number;
          detail: string;
        };
        out.push(finding(
          "harness.plugin_changed",
          `The pull request ${verb} "${path}", which writes module globals in a way pawl cannot resolve ("${last.detail}"): it can set "pytest_plugins" or rebind a test`,
          { path, line: last.line },
        ));
      }
    }
  }
  if (names.interpreter === null && shadowChecked) {
    out.push(finding(
      "harness.module_names_fallback",
      "No Python interpreter was available to list the standard-library and installed module names, so pawl judged new top-level modules by its built-in lists",
    ));
  }
  return out;
}

function lineText(line: number | undefined): string {
  return line === undefined ? "" : ` (first change at line ${line})`;
}

/** Whether a path is Python bytecode. */
function isBytecode(path: string): boolean {
  return path.split("/").includes("__pycache__") || /\.py[co]$/.test(path);
}

/**
 * The head line of the first change beyond comments and docstrings;
 * `null` when there is none; `undefined` when a change is real but has no
 * head line (a deletion).
 */
function realChange(
  change: ChangedPath,
  options: CheckHarnessOptions,
): number | undefined | null {
  const head = options.headModules.get(change.path)?.tokens;
  const base = options.baseModules.get(change.path)?.tokens;
  const baseTexts = change.status === "A" ? [] : base?.texts;
  const headTexts = change.status === "D" ? [] : head?.texts;
  if (baseTexts === undefined || headTexts === undefined) {
    // Not parsed (too large, not text): it cannot be shown harmless.
    return change.status === "D" ? undefined : 1;
  }
  if (change.status === "A" && headTexts.length > 0) {
    // A new file changes everything: point at its first definition.
    const defs = [
      // Stryker disable next-line OptionalChaining,ArrayDeclaration: the head's texts came from this module, so it is there, and its functions always are
      ...(options.headModules.get(change.path)?.functions.values() ?? []),
    ]
      .map((fn) => fn.line);
    // Stryker disable next-line OptionalChaining: the head's texts came from this module, so it is there
    return defs.length > 0 ? Math.min(...defs) : head?.lines[0];
  }
  const length = Math.min(baseTexts.length, headTexts.length);
  for (let i = 0; i < length; i++) {
    // Stryker disable next-line OptionalChaining: a token to compare at head came from the head module, so it is there
    if (baseTexts[i] !== headTexts[i]) return head?.lines[i];
  }
  if (baseTexts.length === headTexts.length) return null;
  if (change.status === "D") return undefined;
  // Stryker disable next-line OptionalChaining: past a deletion the head's texts came from the head module, so it is there
  return head?.lines[length] ?? head?.lines[length - 1] ?? 1;
}

/** A new top-level module that shadows a standard-library or foreign installed module. */
function shadowing(
  path: string,
  roots: ReadonlySet<string>,
  context: {
    baseTree: Tree;
    names: ModuleNames;
    owned: ReadonlySet<string>;
    atBase: Map<string, Set<string>>;
  },
): { name: string; stdlib: boolean } | undefined {
  for (const root of roots) {
    const name = topLevelName(path, root);
    // Stryker disable next-line ConditionalExpression: no set of names holds undefined, so a path that is no top-level module of the root matches nothing below
    if (name === undefined) continue;
    // Stryker disable next-line ConditionalExpression: not worth a test: a pure performance shortcut, filling the map again sets the same names
    if (context.atBase.size === 0) {
      for (const [r, names] of topLevelNamesByRoot(context.baseTree, roots)) {
        context.atBase.set(r, names);
      }
    }
    // Stryker disable next-line OptionalChaining: topLevelNamesByRoot() gives every root it is asked about an entry, and these are the roots asked about
    if (context.atBase.get(root)?.has(name) === true) continue;
    if (context.names.stdlib.has(name)) return { name, stdlib: true };
    if (context.names.installed.has(name) && !context.owned.has(name)) {
      return { name, stdlib: false };
    }
  }
  return undefined;
}

const VERBS: Record<ChangedPath["status"], string> = {
  A: "added",
  M: "changed",
  D: "deleted",
  T: "changed the type of",
};

function checkConfigFile(
  path: string,
  verb: string,
  texts: HarnessTexts,
): Finding[] {
  const base = texts.base.get(path);
  const head = texts.head.get(path);
  const name = basename(path);
  const sections = name === "pyproject.toml"
    ? tomlSections(base, head)
    : iniSections(name, base, head);
  const out: Finding[] = [];
  if (sections.config) {
    out.push(finding(
      "harness.pytest_config_changed",
      `The pull request ${verb} the pytest section of "${path}"`,
      { path },
    ));
  }
  if (sections.plugins) {
    out.push(finding(
      "harness.plugin_changed",
      `The pull request ${verb} the pytest plugin entry points in "${path}"`,
      { path },
    ));
  }
  return out;
}

interface SectionChanges {
  config: boolean;
  plugins: boolean;
}

function tomlSections(
  base: string | undefined,
  head: string | undefined,
): SectionChanges {
  const b = tomlOrNull(base);
  const h = tomlOrNull(head);
  if (b === null || h === null) {
    // An unparseable side cannot be shown harmless: treat both as changed.
    return { config: true, plugins: true };
  }
  return {
    config:
      stable(dig(b, ["tool", "pytest"])) !== stable(dig(h, ["tool", "pytest"])),
    plugins: stable(dig(b, ["project", "entry-points", "pytest11"])) !==
      stable(dig(h, ["project", "entry-points", "pytest11"])),
  };
}

function iniSections(
  name: string,
  base: string | undefined,
  head: string | undefined,
): SectionChanges {
  const section = name === "setup.cfg" ? "tool:pytest" : "pytest";
  // Stryker disable next-line StringLiteral: a missing file reads as no text, and any text without a section header has no section either
  const b = base ?? "";
  // Stryker disable next-line StringLiteral: a missing file reads as no text, and any text without a section header has no section either
  const h = head ?? "";
  return {
    config: iniSection(b, section) !== iniSection(h, section),
    plugins: name === "setup.cfg" &&
      iniSection(b, "options.entry_points") !==
        iniSection(h, "options.entry_points"),
  };
}

function tomlOrNull(text: string | undefined): Record<string, unknown> | null {
  if (text === undefined) return {};
  try {
    return parseToml(text) as Record<string, unknown>;
  } catch {
    return null;
  }
}

function dig(value: unknown, keys: readonly string[]): unknown {
  let cur = value;
  for (const key of keys) {
    // Stryker disable next-line ConditionalExpression: every value dug is parsed TOML, which has no null, so the null test never decides
    if (cur === null || typeof cur !== "object") return undefined;
    cur = (cur as Record<string, unknown>)[key];
  }
  return cur;
}

function stable(value: unknown): string {
  const text = JSON.stringify(value, (_key, v) => {
    // Stryker disable next-line ConditionalExpression: every value is parsed TOML, which has no null, so the null test never decides
    if (v !== null && typeof v === "object" && !Array.isArray(v)) {
      return Object.fromEntries(
        Object.entries(v as Record<string, unknown>).sort(byKey),
      );
    }
    return v;
  });
  // Stryker disable next-line StringLiteral: it stands for an absent table only where base and head are compared, and no JSON text is empty
  return text ?? "undefined";
}

/** Orders a table's entries by key, so two spellings of one table read alike. */
function byKey([a]: [string, unknown], [b]: [string, unknown]): number {
  // Stryker disable next-line EqualityOperator: a table's keys are distinct, so "<=" orders as "<" does, and ">=" orders every table the other way, for base and head alike
  if (a < b) return -1;
  // Stryker disable next-line EqualityOperator,ConditionalExpression: the sort asks only whether a comparison is below zero, and no answer here is
  return a > b ? 1 : 0;
}

function basename(path: string): string {
  return path.slice(path.lastIndexOf("/") + 1);
}
