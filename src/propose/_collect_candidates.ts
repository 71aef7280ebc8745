/**
 * The facts a proposal is made of, gathered from the tree and the parsed
 * Python files, with a note for everything left out and why.
 *
 * @module
 */
import {
  checkFixturePath,
  DEFAULT_FIXTURE_ROOT,
} from "../contract/check_fixture_path.ts";
import { sourceSha256 } from "../layouts/invariants/source_sha256.ts";
import type { Tree } from "../git/git.ts";
import type {
  PythonFunction,
  PythonModule,
  VacuityReason,
} from "../python/python_module.ts";
import { compareText } from "./_compare.ts";
import {
  activeProfile,
  examplesOf,
  type ProfileFile,
  profileFilePaths,
} from "../contract/hypothesis_profiles.ts";
import { pythonFileRole } from "./_python_file_role.ts";
import type { ProposalLayout } from "./layout_files.ts";

/** A Hypothesis test that can become a registered property. */
export interface PropertyCandidate {
  /** Repository-relative path of the test file. */
  path: string;
  /** Dotted module of the test file. */
  module: string;
  /** `test_x` or `TestX.test_y`. */
  name: string;
  /** 1-based line of the `def`. */
  line: number;
  /** Examples Hypothesis runs today. */
  examples: number;
  /**
   * Whether `examples` is written on the test (`@settings(max_examples=N)`,
   * a state machine's settings), comes from a loaded profile, or is
   * Hypothesis' default.
   */
  examplesFrom: "settings" | "profile" | "default";
  /** Where `examples` comes from, as a clause (`profile "ci" loaded in ...`). */
  examplesDetail?: string;
  /** What pawl could not resolve about the count (then `examples` is Hypothesis' default). */
  examplesUnresolved?: string;
  /** Seed 003's source hash of the function. */
  sourceSha256: string;
}

/** A public module-level function (seed 002's step 1). */
export interface PublicFunctionCandidate {
  /** Repository-relative path of the module. */
  path: string;
  /** Dotted module. */
  module: string;
  /** Function name. */
  name: string;
  /** 1-based line of the `def`. */
  line: number;
}

/** A fixture file and its digest. */
export interface FixtureCandidate {
  /** Repository-relative path under `tests/fixtures/`. */
  path: string;
  /** Id: the path inside the fixture root. */
  id: string;
  /** Lowercase hex SHA-256 of the file's bytes. */
  sha256: string;
}

/** What the shell read for a proposal. */
export interface CollectInput {
  /** The commit's tree listing. */
  tree: Tree;
  /** Analyses of the Python files the reads named, keyed by path. */
  modules: ReadonlyMap<string, PythonModule>;
  /** Python files the shell could not read (path → reason, e.g. "it is not valid UTF-8"). */
  unreadable: ReadonlyMap<string, string>;
  /** SHA-256 of each fixture the reads named, keyed by path. */
  fixtureDigests: ReadonlyMap<string, string>;
  /** The commit's `pawl.toml` `[fixtures] roots`; default `tests/fixtures`. */
  fixtureRoots?: readonly string[] | undefined;
  /** The commit's `pawl.toml` `[environment] env`, which may choose the profile. */
  env?: Readonly<Record<string, string>> | undefined;
}

/** Everything a layout's renderer needs. */
export interface Candidates {
  /** Hypothesis tests, by path then line. */
  properties: PropertyCandidate[];
  /** Public functions, by path then line. */
  publicFunctions: PublicFunctionCandidate[];
  /** Fixtures, by path. */
  fixtures: FixtureCandidate[];
  /** One sentence per thing left out: Python files in path order, then fixtures. */
  notes: string[];
  /** One sentence per property whose example count pawl could not resolve. */
  unresolved: string[];
}

/** Why a test cannot fail, in a clause. */
const VACUITY: Readonly<Record<VacuityReason, string>> = {
  "no_assertion": "it asserts nothing",
  constant: "it asserts only constants",
  tautology: "it only compares values with themselves",
};

/** An id pawl's 000 reader accepts (no controls, no surrounding space). */
const ID = /^[^\s\p{Cc}](?:[^\p{Cc}]*[^\s\p{Cc}])?$/u;

/** Python files whose problems the notes name: those the layout looks at. */
function wantedRole(layout: ProposalLayout): "test" | "source" {
  return layout === "002" ? "source" : "test";
}

/** Whether a layout has properties (Hypothesis tests) and fixtures. */
function hasPropertiesAndFixtures(layout: ProposalLayout): boolean {
  return layout !== "002";
}

/**
 * The Python files the shell must parse for `layout`, sorted: test files
 * for 000 and 003, public modules for 002.
 */
export function pythonReads(tree: Tree, layout: ProposalLayout): string[] {
  const role = wantedRole(layout);
  const tests = [...tree.keys()]
    .filter((path) => {
      const found = pythonFileRole(path, tree);
      return found.role === role && found.module !== undefined;
    });
  const settings = role === "test" ? profileFilePaths(tree, tests) : [];
  return [...new Set([...tests, ...settings])].sort(compareText);
}

/**
 * The fixture files the shell must hash for `layout`, sorted: regular
 * files at safe paths under the fixture roots (`tests/fixtures/` unless
 * the commit's `pawl.toml` names `[fixtures] roots`; none for 002).
 */
export function fixtureReads(
  tree: Tree,
  layout: ProposalLayout,
  roots: readonly string[] = [DEFAULT_FIXTURE_ROOT],
): string[] {
  if (!hasPropertiesAndFixtures(layout)) return [];
  return fixtureEntries(tree, roots)
    .filter((path) => fixtureProblem(path, tree, roots) === undefined)
    .sort(compareText);
}

/**
 * Files under the fixture roots. Under a root wider than the default
 * (`tests`, `.`) Python sources, hidden files and pawl's own files are
 * code or configuration, not data, and are not proposed.
 */
function fixtureEntries(tree: Tree, roots: readonly string[]): string[] {
  const wide = !(roots.length === 1 && roots[0] === DEFAULT_FIXTURE_ROOT);
  return [...tree.values()]
    .filter((entry) =>
      entry.kind !== "tree" && rootOf(entry.path, roots) !== undefined &&
      !(wide && notData(entry.path))
    )
    .map((entry) => entry.path);
}

const PAWL_FILES = new Set([
  "pawl.toml",
  "tests/agent_contract.yaml",
  "invariants.toml",
  "fixtures.lock",
  "freeze.yml",
  "contracts.yml",
  "flake_freeze.yml",
  "seed_ledger.jsonl",
]);

function notData(path: string): boolean {
  return /\.py[cow]?$/.test(path) || PAWL_FILES.has(path) ||
    path.split("/").some((segment) => segment.startsWith("."));
}

/** The root `path` lies in (the longest, when roots nest), or `undefined`. */
function rootOf(path: string, roots: readonly string[]): string | undefined {
  let found: string | undefined;
  for (const root of roots) {
    const inside = root === "." || path.startsWith(`${root}/`);
    if (
      inside &&
      (found === undefined || found === "." || root.length > found.length)
    ) {
      found = root;
    }
  }
  return found;
}

/** The proposed id: the path below its root. */
function fixtureId(path: string, roots: readonly string[]): string {
  const root = rootOf(path, roots);
  return root === undefined || root === "."
    ? path
    : path.slice(root.length + 1);
}

function fixtureProblem(
  path: string,
  tree: Tree,
  roots: readonly string[],
): string | undefined {
  const status = checkFixturePath(path, tree, { root: roots });
  if (status.status !== "ok") return `the path ${status.reason}`;
  const id = fixtureId(path, roots);
  if (!ID.test(id)) {
    return "its name cannot be a contract id (control characters or surrounding spaces)";
  }
  return undefined;
}

/** Gather candidates and notes for `layout`. */
export function collectCandidates(
  input: CollectInput,
  layout: ProposalLayout,
): Candidates {
  const { tree } = input;
  const notes: string[] = [];
  const properties: PropertyCandidate[] = [];
  const publicFunctions: PublicFunctionCandidate[] = [];
  const role = wantedRole(layout);
  const paths = [...tree.keys()].sort(compareText);
  const profile = activeProfile(profileFiles(input, layout), {
    env: input.env,
  });
  const unresolved: string[] = [];
  for (const path of paths) {
    const found = pythonFileRole(path, tree);
    if (found.role !== role) continue;
    const file = JSON.stringify(path);
    if (found.module === undefined) {
      notes.push(`${file} is not read: ${found.problem ?? "no module name"}`);
      continue;
    }
    const unreadable = input.unreadable.get(path);
    if (unreadable !== undefined) {
      notes.push(`${file} is not read: ${unreadable}`);
      continue;
    }
    const module = input.modules.get(path);
    if (module === undefined) {
      throw new Error(
        `Cannot build the proposal: the Python file ${file} was neither analysed nor reported unreadable`,
      );
    }
    if (module.syntaxError !== undefined) {
      notes.push(
        `${file} is left out: it has a syntax error at line ${module.syntaxError.line}`,
      );
      continue;
    }
    const functions = [...module.functions.values()].sort((a, b) =>
      a.line - b.line || compareText(a.qualname, b.qualname)
    );
    for (const machine of module.stateMachines ?? []) {
      const run = [...module.functions.values()].some((fn) =>
        fn.stateful?.machine === machine.name
      );
      if (!run && role === "test") {
        notes.push(
          `${file} state machine ${
            JSON.stringify(machine.name)
          } (line ${machine.line}) is left out: pytest never runs it; bind its TestCase (Test${machine.name} = ${machine.name}.TestCase) and propose again`,
        );
      }
    }
    const seen = new Set<PythonFunction>();
    for (const fn of functions) {
      // A state machine's TestCase is listed once (also `TestX.runTest`).
      if (seen.has(fn)) continue;
      seen.add(fn);
      if (role === "source") {
        if (!fn.qualname.includes(".") && !fn.name.startsWith("_")) {
          publicFunctions.push({
            path,
            module: found.module,
            name: fn.name,
            line: fn.line,
          });
        }
        continue;
      }
      if (!isHypothesisTest(fn)) continue;
      const left = propertyProblem(fn, layout);
      if (left !== undefined) {
        notes.push(
          `${file} test ${JSON.stringify(fn.qualname)} is left out: ${left}`,
        );
        continue;
      }
      const examples = examplesOf(fn, profile);
      const candidate: PropertyCandidate = {
        path,
        module: found.module,
        name: fn.qualname,
        line: fn.line,
        examples: examples.count,
        examplesFrom: examples.from,
        sourceSha256: sourceSha256(fn.source),
      };
      if (examples.detail !== undefined) {
        candidate.examplesDetail = examples.detail;
      }
      if (examples.unresolved !== undefined) {
        candidate.examplesUnresolved = examples.unresolved;
        unresolved.push(
          `${file} test ${
            JSON.stringify(fn.qualname)
          }: ${examples.unresolved}; Hypothesis' default of ${examples.count} is written, check it`,
        );
      }
      properties.push(candidate);
    }
  }
  const fixtures: FixtureCandidate[] = [];
  const roots = input.fixtureRoots ?? [DEFAULT_FIXTURE_ROOT];
  const ids = new Map<string, string>();
  if (hasPropertiesAndFixtures(layout)) {
    for (const path of fixtureEntries(tree, roots).sort(compareText)) {
      const problem = fixtureProblem(path, tree, roots) ??
        (ids.has(fixtureId(path, roots))
          ? `its id ${JSON.stringify(fixtureId(path, roots))} is already ${
            JSON.stringify(ids.get(fixtureId(path, roots)))
          }'s`
          : undefined);
      if (problem !== undefined) {
        notes.push(`Fixture ${JSON.stringify(path)} is left out: ${problem}`);
        continue;
      }
      const sha256 = input.fixtureDigests.get(path);
      if (sha256 === undefined) {
        throw new Error(
          `Cannot build the proposal: no digest for the fixture ${
            JSON.stringify(path)
          }`,
        );
      }
      ids.set(fixtureId(path, roots), path);
      fixtures.push({ path, id: fixtureId(path, roots), sha256 });
    }
  }
  return { properties, publicFunctions, fixtures, notes, unresolved };
}

/** The analysed files whose profile calls decide the tests' settings. */
function profileFiles(
  input: CollectInput,
  layout: ProposalLayout,
): ProfileFile[] {
  if (!hasPropertiesAndFixtures(layout)) return [];
  const out: ProfileFile[] = [];
  for (const [path, module] of input.modules) {
    if (module.syntaxError === undefined) out.push({ path, module });
  }
  return out;
}

/**
 * A test pytest collects by default (`test*` functions, `Test*` classes)
 * that Hypothesis drives.
 */
function isHypothesisTest(fn: PythonFunction): boolean {
  if (!fn.usesHypothesis) return false;
  // pytest collects a unittest.TestCase under any name.
  if (fn.stateful !== undefined && fn.stateful.binding !== "def") return true;
  if (!fn.name.startsWith("test")) return false;
  const classes = fn.qualname.split(".").slice(0, -1);
  return classes.every((name) => name.startsWith("Test"));
}

/** Why a Hypothesis test would not hold as a property today, if it would not. */
function propertyProblem(
  fn: PythonFunction,
  layout: ProposalLayout,
): string | undefined {
  const skip = fn.skips[0];
  if (skip !== undefined) {
    return `it may not run (${skip.kind} at line ${skip.line})`;
  }
  if (fn.vacuity !== undefined) {
    return `it cannot fail (${
      VACUITY[fn.vacuity.reason]
    }, line ${fn.vacuity.line})`;
  }
  const settings = fn.settings;
  if (settings?.maxExamplesDynamic === true) {
    return `its max_examples cannot be read statically (line ${settings.line}); write an integer literal`;
  }
  if (settings?.maxExamples !== undefined && settings.maxExamples < 1) {
    return `its max_examples is ${settings.maxExamples} (line ${settings.line})`;
  }
  if (layout === "003") {
    if (fn.qualname.includes(".")) {
      return "it is a method, and the invariants layout registers module-level functions only";
    }
    if (fn.source.startsWith("async")) {
      return "it is an async def, and the invariants layout registers plain def functions only";
    }
    if (fn.shadowedLines !== undefined) {
      return `it is defined more than once (lines ${
        [...fn.shadowedLines, fn.line].join(", ")
      }), and the invariants layout's reference checker would hash the first definition, which never runs`;
    }
  }
  return undefined;
}
