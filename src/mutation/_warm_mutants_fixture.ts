/**
 * The warm engine's test fixture: a small package with one Hypothesis
 * property, run over a local "sandbox" (plain child processes) with the
 * real driver, observer, pytest and Hypothesis.
 *
 * @module
 */
import assert from "node:assert/strict";
import { loadPythonParser } from "../python/load_python_parser.ts";
import { installObserver, type ObserverPlugin } from "../run/observer.ts";
import { LocalSandbox } from "../run/_local_sandbox.ts";
import { DEFAULT_PYTEST_COMMAND, SANDBOX_PATH } from "../run/run_pytest.ts";
import { runColdMutants } from "./cold_mutants.ts";
import { generateMutants } from "./generate_mutants.ts";
import { installWarmDriver, type WarmDriver } from "./install_warm_driver.ts";
import { killedKeys, type MutantResult } from "./judge_kill_sets.ts";
import type { Mutant } from "./mutant.ts";
import type { MutantEngineOptions } from "./mutant_engine.ts";
import { buildSchemata } from "./schemata.ts";
import { runWarmMutants } from "./warm_mutants.ts";

export const parser = await loadPythonParser();

export const CORE = "kit/core.py";
export const CODE = `def clamp(x, lo, hi):
    if x < lo:
        return lo
    if x > hi:
        return hi
    return x


def unused(x):
    return x * 3


def firsts(n):
    yield n
`;

export const TEST = `from hypothesis import given, settings, strategies as st

from kit.core import clamp, firsts


@settings(max_examples=40)
@given(st.integers(), st.integers(), st.integers())
def test_clamp(x, a, b):
    lo, hi = min(a, b), max(a, b)
    assert clamp(x, lo, hi) == min(max(x, lo), hi)


def test_firsts():
    assert list(firsts(2)) == [2]
`;

/** TEST with its property weakened: it no longer pins clamp's result. */
export const WEAK = TEST.replace(
  "assert clamp(x, lo, hi) == min(max(x, lo), hi)",
  "assert clamp(x, lo, hi) in (lo, x, hi)",
);

export const PROPS = [
  { key: "000/clamp", nodeId: "tests/test_kit.py::test_clamp" },
  { key: "000/firsts", nodeId: "tests/test_kit.py::test_firsts" },
];

export interface Fixture {
  root: string;
  /** The text of kit/core.py, which the mutants change. */
  code: string;
  observer: ObserverPlugin;
  driver: WarmDriver;
  sandbox: LocalSandbox;
  progress: string[];
  options(
    tests: Record<string, string>,
    head?: Record<string, string>,
  ): Promise<MutantEngineOptions>;
}

export async function fixture(code = CODE): Promise<Fixture & AsyncDisposable> {
  const root = await Deno.makeTempDir({ prefix: "pawl-warm-mutants-" });
  const observer = await installObserver(root);
  const driver = await installWarmDriver(root);
  const sandbox = new LocalSandbox();
  const progress: string[] = [];
  let n = 0;
  const tree = async (name: string, tests: Record<string, string>) => {
    const files = {
      "kit/__init__.py": "",
      [CORE]: code,
      "tests/__init__.py": "",
      ...tests,
    };
    for (const [path, text] of Object.entries(files)) {
      const full = `${root}/${name}/${path}`;
      await Deno.mkdir(full.slice(0, full.lastIndexOf("/")), {
        recursive: true,
      });
      await Deno.writeTextFile(full, text);
    }
    return `${root}/${name}`;
  };
  await Deno.mkdir(`${root}/reports`);
  return {
    root,
    code,
    observer,
    driver,
    sandbox,
    progress,
    options: async (tests, head) => ({
      mutants: generateMutants(parser, CORE, code),
      texts: new Map([[CORE, code]]),
      base: {
        template: await tree("base", tests),
        cacheScope: () => Promise.resolve("b"),
        properties: PROPS,
      },
      head: head === undefined ? null : {
        template: await tree("head", head),
        cacheScope: () => Promise.resolve("h"),
        properties: PROPS,
      },
      workers: [{
        sandbox,
        reportDir: `${root}/reports`,
        workPath: () => `${root}/w${n++}`,
      }],
      command: [...DEFAULT_PYTEST_COMMAND, "--hypothesis-seed=11"],
      env: { PATH: SANDBOX_PATH },
      limits: {},
      observer,
      deadline: Number.POSITIVE_INFINITY,
      clock: () => performance.now(),
      progress: (line) => progress.push(line),
    }),
    [Symbol.asyncDispose]: () => Deno.remove(root, { recursive: true }),
  };
}

/** The warm engine on `options`, with the fixture's driver unless given another. */
export function warm(
  f: Fixture,
  options: MutantEngineOptions,
  driver: WarmDriver = f.driver,
) {
  return runWarmMutants({
    ...options,
    observer: f.observer,
    driver,
    schemata: new Map([[
      CORE,
      buildSchemata(parser, CORE, f.code, options.mutants),
    ]]),
  });
}

/** Mutant id → the properties a side killed. */
export function kills(results: readonly MutantResult[], side: "base" | "head") {
  return Object.fromEntries(
    results.map((r) => [
      r.mutant.id,
      killedKeys(r[side] ?? {}).sort(),
    ]),
  );
}

/** How many runs were `python3 -m pytest`, not the driver. */
export function coldRuns(sandbox: LocalSandbox): number {
  return sandbox.calls.filter((c) => c.argv[1] === "-m").length;
}

/** The mutants the fixture's schemata hold; the others run one process each. */
export function heldBySchemata(
  f: Fixture,
  mutants: readonly Mutant[],
): Mutant[] {
  const schemata = buildSchemata(parser, CORE, f.code, mutants);
  return mutants.filter((m) =>
    !schemata.excluded.has(m.id) && schemata.coverLines.has(m.id)
  );
}

/**
 * pawl's own driver, installed under `root`, changed by `python` before
 * its main() runs (with its module's namespace as `ns`), as code running
 * in its process could change it.
 */
export async function wrappedDriver(
  root: string,
  python: string,
): Promise<WarmDriver> {
  const real = await installWarmDriver(root);
  const dir = await Deno.makeTempDir({ dir: root, prefix: "wrapped" });
  const path = `${dir}/driver.py`;
  await Deno.writeTextFile(
    path,
    `import os, runpy
ns = runpy.run_path(${JSON.stringify(real.path)}, run_name="driver")
${python}
ns["main"]()
`,
  );
  return { ...real, dir, path };
}

/**
 * Three mutants of clamp() under `driver`, which must leave every one to
 * run one process each: the unmutated baseline and each mutant a fresh
 * pytest, with the cold engine's outcomes.
 */
export async function assertAllRunCold(
  f: Fixture,
  driver: WarmDriver,
): Promise<void> {
  const all = await f.options({ "tests/test_kit.py": TEST });
  const options = {
    ...all,
    mutants: all.mutants.filter((m) => m.function === "clamp").slice(0, 3),
  };
  const ran = await warm(f, options, driver);
  assert.equal(coldRuns(f.sandbox), 1 + options.mutants.length);
  const cold = await runColdMutants(options);
  assert.deepEqual(
    ran.results.map((r) => [r.mutant.id, r.base]),
    cold.results.map((r) => [r.mutant.id, r.base]),
  );
  assert.ok(cold.results.some((r) => r.base["000/clamp"] === "killed"));
}

/** Plain pytest, once on a fresh tree of the fixture with `test` as its test module, passes. */
export async function assertPlainPytestPasses(test: string): Promise<void> {
  await using plain = await fixture();
  const tree = (await plain.options({ "tests/test_kit.py": test }))
    .base.template;
  const pytest = await new Deno.Command("python3", {
    args: ["-m", "pytest", "-q", "-p", "no:cacheprovider"],
    cwd: tree,
    stdout: "null",
    stderr: "null",
  }).output();
  assert.equal(pytest.code, 0);
}

/** The weakened test, plus a way to tell a forked run from a fresh one. */
export const FORK_TELLS = {
  "a marker the first run leaves in the tree": `import pathlib

import pytest
from hypothesis import given, settings, strategies as st

from kit.core import clamp, firsts


@pytest.fixture(scope="module")
def first_run():
    marker = pathlib.Path(__file__).with_name(".ran")
    first = not marker.exists()
    marker.touch()
    return first


@settings(max_examples=40)
@given(st.integers(), st.integers(), st.integers())
def test_clamp(first_run, x, a, b):
    assert first_run
    lo, hi = min(a, b), max(a, b)
    assert clamp(x, lo, hi) in (lo, x, hi)


def test_firsts():
    assert list(firsts(2)) == [2]
`,
  "the process id at import": `import os

from hypothesis import given, settings, strategies as st

from kit.core import clamp, firsts

PID = os.getpid()


@settings(max_examples=40)
@given(st.integers(), st.integers(), st.integers())
def test_clamp(x, a, b):
    assert os.getpid() == PID
    lo, hi = min(a, b), max(a, b)
    assert clamp(x, lo, hi) in (lo, x, hi)


def test_firsts():
    assert list(firsts(2)) == [2]
`,
} as const;

/**
 * Judge a head whose weakened test can tell a forked run from a fresh one
 * (`how`, one of {@linkcode FORK_TELLS}): plain pytest passes it once, and
 * the warm engine must run it cold, so the weakening still shows.
 */
export async function assertForkTellingHeadRunsCold(
  how: keyof typeof FORK_TELLS,
): Promise<void> {
  const head = FORK_TELLS[how];
  await assertPlainPytestPasses(head);

  await using f = await fixture();
  const options = await f.options({ "tests/test_kit.py": TEST }, {
    "tests/test_kit.py": head,
  });
  const ran = await warm(f, options);
  const weakened = ran.results.filter((r) =>
    r.base["000/clamp"] === "killed" &&
    r.head?.["000/clamp"] === "survived"
  );
  assert.ok(weakened.length > 0, f.progress.join("\n"));
  assert.ok(
    f.progress.some((l) => /head.*(forked run|warm interpreter)/.test(l)),
    f.progress.join("\n"),
  );
}
