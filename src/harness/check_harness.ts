/**
 * The pull request may not change what "passed" means: conftest hooks,
 * pytest configuration, plugins, and modules that shadow the test framework.
 *
 * @module
 */
import { parse as parseToml } from "smol-toml";
import { type Finding, finding } from "../core/finding.ts";
import type { PythonModule } from "../python/python_module.ts";
import type { ChangedPath } from "../git/git.ts";
import { iniSection } from "./_ini_section.ts";

/** File texts at base and head for the paths the harness rules inspect. */
export interface HarnessTexts {
  /** Text at base (absent when the file did not exist or is not text). */
  base: ReadonlyMap<string, string>;
  /** Text at head. */
  head: ReadonlyMap<string, string>;
}

/** Input of {@linkcode checkHarness}. */
export interface CheckHarnessOptions {
  /** Config file texts (`pyproject.toml`, `setup.cfg`, `tox.ini`) that changed. */
  texts: HarnessTexts;
  /** Analyses of changed Python files at head (keyed by path). */
  headModules: ReadonlyMap<string, PythonModule>;
  /** Analyses of changed Python files at base (keyed by path). */
  baseModules: ReadonlyMap<string, PythonModule>;
}

/**
 * Module names that pytest or Hypothesis import; a file or package by one of
 * these names anywhere in the tree can shadow the real framework once its
 * directory lands on `sys.path` (pytest's default "prepend" import mode).
 */
export const HARNESS_MODULES: ReadonlySet<string> = new Set([
  "pytest",
  "_pytest",
  "py",
  "pluggy",
  "iniconfig",
  "hypothesis",
  "_hypothesis_pytestplugin",
  "_hypothesis_ftz_detector",
  "_hypothesis_globals",
  "sitecustomize",
  "usercustomize",
  "xdist",
  "packaging",
  "exceptiongroup",
  "tomli",
  "attr",
  "attrs",
  "sortedcontainers",
]);

/** Paths the shell must read at base and head to run the config rules. */
export function harnessConfigPaths(changes: readonly ChangedPath[]): string[] {
  return changes.map((c) => c.path).filter((p) => {
    const name = basename(p);
    return name === "pyproject.toml" || name === "setup.cfg" ||
      name === "tox.ini";
  });
}

/**
 * Judge the harness changes of a pull request.
 *
 * @example
 * ```ts
 * import { checkHarness } from "./check_harness.ts";
 * const findings = checkHarness([{ status: "A", path: "tests/conftest.py" }], {
 *   texts: { base: new Map(), head: new Map() },
 *   headModules: new Map(),
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
  for (const change of changes) {
    const { path } = change;
    const name = basename(path);
    const verb = VERBS[change.status];
    if (name === "conftest.py") {
      out.push(finding(
        "harness.conftest_changed",
        `The pull request ${verb} "${path}": conftest hooks decide what "passed" means and are human-owned`,
        { path, line: firstLine(change, options.headModules) },
      ));
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
    const shadow = shadowedModule(path);
    if (shadow !== undefined && change.status !== "D") {
      out.push(finding(
        "harness.plugin_changed",
        `The pull request ${verb} "${path}", which can shadow the "${shadow}" module the test harness imports`,
        { path },
      ));
      continue;
    }
    if (path.endsWith(".py")) {
      const head = options.headModules.get(path)?.pytestPluginsLine;
      const base = options.baseModules.get(path)?.pytestPluginsLine;
      if (head !== undefined || base !== undefined) {
        out.push(finding(
          "harness.plugin_changed",
          `The pull request ${verb} "${path}", which loads pytest plugins through "pytest_plugins"`,
          { path, line: head ?? base },
        ));
      }
    }
  }
  return out;
}

const VERBS: Record<ChangedPath["status"], string> = {
  A: "added",
  M: "changed",
  D: "deleted",
  T: "changed the type of",
};

function firstLine(
  change: ChangedPath,
  modules: ReadonlyMap<string, PythonModule>,
): number | undefined {
  if (change.status === "D") return undefined;
  const mod = modules.get(change.path);
  if (mod === undefined) return undefined;
  let line: number | undefined;
  for (const fn of mod.functions.values()) {
    if (line === undefined || fn.line < line) line = fn.line;
  }
  return line;
}

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
  return {
    config: iniSection(base ?? "", section) !== iniSection(head ?? "", section),
    plugins: name === "setup.cfg" &&
      iniSection(base ?? "", "options.entry_points") !==
        iniSection(head ?? "", "options.entry_points"),
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
    if (cur === null || typeof cur !== "object") return undefined;
    cur = (cur as Record<string, unknown>)[key];
  }
  return cur;
}

function stable(value: unknown): string {
  return JSON.stringify(value, (_key, v) => {
    if (v !== null && typeof v === "object" && !Array.isArray(v)) {
      return Object.fromEntries(
        Object.entries(v as Record<string, unknown>).sort(([a], [b]) =>
          a < b ? -1 : a > b ? 1 : 0
        ),
      );
    }
    return v;
  }) ?? "undefined";
}

function basename(path: string): string {
  return path.slice(path.lastIndexOf("/") + 1);
}

function shadowedModule(path: string): string | undefined {
  // Only Python sources can shadow a module; `packaging/debian/rules` cannot.
  if (!path.endsWith(".py")) return undefined;
  for (const segment of path.split("/")) {
    const stem = segment.endsWith(".py") ? segment.slice(0, -3) : segment;
    if (HARNESS_MODULES.has(stem)) return stem;
  }
  return undefined;
}
