/**
 * The blinding rule's decisions before any mutant runs: which code it
 * mutates, and why it runs nothing. Runs of the base's tests on both sides
 * are exercised end to end in tests/.
 */
import assert from "node:assert/strict";
import { loadPythonParser } from "../python/load_python_parser.ts";
import { installObserver } from "../run/observer.ts";
import { LocalSandbox } from "../run/_local_sandbox.ts";
import { DEFAULT_PYTEST_COMMAND, SANDBOX_PATH } from "../run/run_pytest.ts";
import { FakeSandbox } from "../sandbox/fake_sandbox.ts";
import type {
  Sandbox,
  SandboxCommand,
  SandboxResult,
} from "../sandbox/sandbox.ts";
import { DEFAULT_MUTATION_SETTINGS } from "../settings/mutation_settings.ts";
import { generateMutants } from "./generate_mutants.ts";
import { installWarmDriver } from "./install_warm_driver.ts";
import { memoryMutationCache } from "./mutation_cache.ts";
import {
  NO_CHANGED_CODE,
  oracleBlinding,
  type OracleBlindingOptions,
} from "./oracle_blinding.ts";

const parser = await loadPythonParser();

const TEST = "tests/test_m.py";
const CODE =
  "def less(a, b):\n    return a < b\n\n\ndef more(a, b):\n    return a > b\n";

function view(files: Record<string, string>) {
  return {
    has: (p: string) => p in files,
    read: (p: string) => Promise.resolve(files[p]),
  };
}

/** Options whose trees are `base` and `head`; running a mutant would fail. */
function options(
  base: Record<string, string>,
  head: Record<string, string>,
  progress: string[] = [],
): OracleBlindingOptions {
  const never = new Proxy({}, {
    get: () => {
      throw new Error("no mutant runs in this test");
    },
  });
  return {
    settings: { ...DEFAULT_MUTATION_SETTINGS, enabled: true },
    parser,
    properties: [{
      key: "000/less",
      id: "less",
      layout: "000",
      file: TEST,
      nodeId: `${TEST}::test_less`,
    }],
    baseTree: view(base),
    headTree: view(head),
    isTestSide: (p) => p.startsWith("tests/"),
    base: never as never,
    oracle: never as never,
    observer: never as never,
    driver: never as never,
    workers: [],
    command: ["python3", "-m", "pytest"],
    env: {},
    limits: {},
    sampleSeed: 1,
    clock: () => 0,
    progress: (line) => progress.push(line),
  };
}

const FILES = {
  "pkg/__init__.py": "",
  "pkg/m.py": CODE,
  "pkg/unused.py": "def g(x):\n    return x + 1\n",
  [TEST]: "from pkg.m import less\n",
};

/**
 * A sandbox for the base's driver that only records, in `compiled`, the
 * mutants of pkg/m.py and pkg/n.py it would compile in (only the files with
 * a mutant selected are written in), and reports no baseline.
 */
function compilingSandbox(compiled: string[]): FakeSandbox {
  return new FakeSandbox(async (command) => {
    for (const file of ["pkg/m.py", "pkg/n.py"]) {
      const text = await Deno.readTextFile(`${command.cwd}/${file}`)
        .catch(() => "");
      for (const hit of text.matchAll(/__pawl_active__ == "(m\w+)"/g)) {
        compiled.push(hit[1]!);
      }
    }
    return { code: 1 };
  });
}

Deno.test("oracleBlinding() runs nothing when the pull request changes no code the properties import", async (t) => {
  const cases: [string, Record<string, string>][] = [
    ["nothing changed", FILES],
    [
      "only code no property imports changed",
      { ...FILES, "pkg/unused.py": "def g(x):\n    return x - 1\n" },
    ],
    [
      "only a test changed",
      { ...FILES, [TEST]: "from pkg.m import less, more\n" },
    ],
    [
      "a file only the head has",
      { ...FILES, "pkg/extra.py": "def h():\n    return 1\n" },
    ],
  ];
  for (const [name, head] of cases) {
    await t.step(name, async () => {
      const progress: string[] = [];
      const result = await oracleBlinding(options(FILES, head, progress));
      assert.deepEqual(result.findings, []);
      assert.equal(result.report.notRun, NO_CHANGED_CODE);
      assert.equal(result.report.ran, 0);
      assert.deepEqual(progress, []);
    });
  }
});

Deno.test("oracleBlinding() leaves out a file either commit lists but cannot read", async (t) => {
  const head = {
    ...FILES,
    "pkg/m.py": CODE.replace("return a < b", "return b > a"),
  };
  const unreadable = (files: Record<string, string>) => ({
    has: (p: string) => p in files,
    read: (p: string) =>
      Promise.resolve(p === "pkg/m.py" ? undefined : files[p]),
  });
  for (const side of ["baseTree", "headTree"] as const) {
    await t.step(side, async () => {
      const o = options(FILES, head);
      o[side] = unreadable(side === "baseTree" ? FILES : head);
      const result = await oracleBlinding(o);
      assert.equal(result.report.notRun, NO_CHANGED_CODE);
      assert.equal(result.report.generated, 0);
    });
  }
});

Deno.test("oracleBlinding() still mutates the files after one it cannot read", async () => {
  const generated = async (
    base: Record<string, string>,
    head: Record<string, string>,
    unreadable?: string,
  ) => {
    const o = options(base, head);
    o.headTree = {
      has: (p) => p in head,
      read: (p) => Promise.resolve(p === unreadable ? undefined : head[p]),
    };
    o.settings = { ...o.settings, "max_mutants": 0 };
    return (await oracleBlinding(o)).report.generated;
  };
  const changed = CODE.replace("return a < b", "return b > a");
  const alone = await generated(FILES, { ...FILES, "pkg/m.py": changed });
  assert.ok(alone > 0);
  // pkg/a.py comes before pkg/m.py, and the head cannot read it.
  const base = {
    ...FILES,
    "pkg/a.py": "def h(x):\n    return x + 1\n",
    [TEST]: "from pkg.a import h\nfrom pkg.m import less\n",
  };
  assert.equal(
    await generated(base, { ...base, "pkg/m.py": changed }, "pkg/a.py"),
    alone,
  );
});

Deno.test("oracleBlinding() runs nothing when the changed code leaves no unchanged code to mutate", async () => {
  const head = {
    ...FILES,
    "pkg/m.py": "def less(a, b):\n    return b > a\n",
  };
  const base = { ...FILES, "pkg/m.py": "def less(a, b):\n    return a < b\n" };
  const result = await oracleBlinding(options(base, head));
  assert.deepEqual(result.findings, []);
  assert.equal(
    result.report.notRun,
    "no mutant of unchanged code lies in the code they import",
  );
  assert.equal(result.report.generated, 0);
});

Deno.test("oracleBlinding() selects the mutants of unchanged code, up to max_mutants, before it runs them", async (t) => {
  const head = {
    ...FILES,
    "pkg/m.py": CODE.replace("return a < b", "return b > a"),
  };
  const cases: [string, Record<string, string>, number, string][] = [
    ["every mutant of the unchanged function", head, 100, "3 of 3 mutants"],
    ["capped", head, 2, "2 of 3 mutants"],
    [
      "a file whose text changed outside every function is judged whole",
      { ...FILES, "pkg/m.py": `${CODE}# reviewed\n` },
      100,
      "6 of 6 mutants",
    ],
  ];
  for (const [name, headFiles, max, count] of cases) {
    await t.step(name, async () => {
      const progress: string[] = [];
      const o = options(FILES, headFiles, progress);
      o.settings = { ...o.settings, "max_mutants": max };
      // Past the selection, the run needs the sides this test withholds.
      await assert.rejects(oracleBlinding(o), /no mutant runs in this test/);
      assert.deepEqual(progress, [
        `mutation: the base's tests on the base's code and on the head's, against ${count} of code the pull request did not change`,
      ]);
    });
  }
});

Deno.test("oracleBlinding() judges nothing when no selected mutant compiles in", async () => {
  // Removing a generator's only yield would make it no generator: such a
  // mutant is never compiled in, and here it is the only one.
  const gen = "def firsts(n):\n    yield n\n";
  const base = { ...FILES, "pkg/m.py": `${CODE}\n\n${gen}` };
  const head = {
    ...base,
    "pkg/m.py": `${
      CODE.replace("return a < b", "return list(firsts(a)) < [b]")
    }\n\n${gen}`,
  };
  const o = options(base, head);
  o.settings = { ...o.settings, operators: ["statement"] };
  const result = await oracleBlinding(o);
  assert.equal(result.report.selected, 1);
  assert.equal(
    result.report.notRun,
    "no selected mutant could be compiled in on both sides",
  );
});

Deno.test("oracleBlinding() judges nothing when a mutant compiles in on one side only", async () => {
  // Removing g()'s only binding of x leaves x unbound on the base's code;
  // on the head's, where the module binds x, it would name that global,
  // so the head's schemata leave it out.
  const g = "def g():\n    x = 1\n    return x\n";
  const base = { ...FILES, "pkg/m.py": `${CODE}\n\n${g}` };
  const head = { ...FILES, "pkg/m.py": `x = 2\n\n\n${CODE}\n\n${g}` };
  const o = options(base, head);
  o.settings = { ...o.settings, operators: ["statement"] };
  const result = await oracleBlinding(o);
  assert.equal(result.report.selected, 1);
  assert.equal(
    result.report.notRun,
    "no selected mutant could be compiled in on both sides",
  );
});

Deno.test("oracleBlinding() compiles in the mutants the change names first, a function at a time in turn, then those near the change", async (t) => {
  // f() changed; it names g() and h() in its own file and u() in another;
  // k() shares its file; w() is neither.
  const m = (f: string) =>
    `from pkg.n import u


${f}

def g(x):
    return x + 1


def h(x):
    return x * 3


def k(x):
    return x - 4
`;
  const n = "def u(x):\n    return x + 5\n\n\ndef w(x):\n    return x - 6\n";
  const files = {
    "pkg/__init__.py": "",
    "pkg/n.py": n,
    [TEST]: "from pkg.m import f\n",
  };
  const base = {
    ...files,
    "pkg/m.py": m("def f(x):\n    return g(x) + h(x)\n"),
  };
  const head = {
    ...files,
    "pkg/m.py": m("def f(x):\n    return g(x) + h(x) + u(x)\n"),
  };
  const of = (file: string, fn: string) =>
    generateMutants(parser, file, file === "pkg/n.py" ? n : head["pkg/m.py"])
      .filter((x) => x.function === fn).map((x) => x.id);
  const [g, h, k, u, w] = [
    of("pkg/m.py", "g"),
    of("pkg/m.py", "h"),
    of("pkg/m.py", "k"),
    of("pkg/n.py", "u"),
    of("pkg/n.py", "w"),
  ];
  assert.ok([g, h, k, u, w].every((ids) => ids.length >= 2));
  const root = await Deno.makeTempDir({ prefix: "pawl-oracle-blinding-" });
  try {
    const observer = await installObserver(root);
    const driver = await installWarmDriver(root);
    await Deno.mkdir(`${root}/base/pkg`, { recursive: true });
    await Deno.mkdir(`${root}/tests`);
    const cases: [string, number, string[]][] = [
      ["one of each named function", 2, [g[0]!, h[0]!]],
      ["every named one", g.length + h.length, [...g, ...h]],
      ["then the near ones", g.length + h.length + k.length + u.length, [
        ...g,
        ...h,
        ...k,
        ...u,
      ]],
    ];
    for (const [name, max, want] of cases) {
      await t.step(name, async () => {
        const compiled: string[] = [];
        // The base's driver: what it would compile in. It reports no
        // baseline, so nothing runs.
        const sandbox = compilingSandbox(compiled);
        const o = options(base, head);
        const result = await oracleBlinding({
          ...o,
          settings: { ...o.settings, "max_mutants": max },
          base: { template: `${root}/base`, files: new Map() },
          oracle: { template: `${root}/base`, files: new Map() },
          observer,
          driver,
          workers: [{
            sandbox,
            reportDir: `${root}/tests`,
            workPath: () => Deno.makeTempDirSync({ dir: root }) + "/t",
          }],
        });
        assert.equal(
          result.report.notRun,
          "the base's tests could not be run warm on the base's code",
        );
        assert.deepEqual(compiled.sort(), [...want].sort());
      });
    }
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("oracleBlinding() takes same-named functions of two files in turn as two functions", async () => {
  // f() changed and names g(); each changed file has its own g().
  const m = (f: string) =>
    `from pkg.n import e\n\n\n${f}\n\ndef g(x):\n    return x + 1\n`;
  const n = (e: string) => `${e}\n\ndef g(x):\n    return x - 2\n`;
  const files = { "pkg/__init__.py": "", [TEST]: "from pkg.m import f\n" };
  const base = {
    ...files,
    "pkg/m.py": m("def f(x):\n    return g(x)\n"),
    "pkg/n.py": n("def e():\n    return 1\n"),
  };
  const head = {
    ...files,
    "pkg/m.py": m("def f(x):\n    return g(x) * 3\n"),
    "pkg/n.py": n("def e():\n    return 5\n"),
  };
  const of = (file: "pkg/m.py" | "pkg/n.py") =>
    generateMutants(parser, file, head[file])
      .filter((x) => x.function === "g").map((x) => x.id);
  const [mg, ng] = [of("pkg/m.py"), of("pkg/n.py")];
  assert.ok(mg.length >= 2 && ng.length >= 2);
  const root = await Deno.makeTempDir({ prefix: "pawl-oracle-blinding-" });
  try {
    await Deno.mkdir(`${root}/base/pkg`, { recursive: true });
    await Deno.mkdir(`${root}/reports`);
    const compiled: string[] = [];
    // The base's driver: what it would compile in. It reports no
    // baseline, so nothing runs.
    const sandbox = compilingSandbox(compiled);
    const o = options(base, head);
    await oracleBlinding({
      ...o,
      settings: { ...o.settings, "max_mutants": 2 },
      base: { template: `${root}/base`, files: new Map() },
      oracle: { template: `${root}/base`, files: new Map() },
      observer: await installObserver(root),
      driver: await installWarmDriver(root),
      workers: [{
        sandbox,
        reportDir: `${root}/reports`,
        workPath: () => Deno.makeTempDirSync({ dir: root }) + "/t",
      }],
    });
    assert.deepEqual(compiled.sort(), [mg[0]!, ng[0]!].sort());
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

// The runs themselves: the real warm driver, pawl's observer and pytest,
// in plain child processes (`LocalSandbox`).

const WIRE = `def double(x):
    if x > 100:
        return x + x
    return x * 2


def check(value, expected):
    return double(value) == expected


def unused(x):
    return x - 1


def seed():
    return 7


SEED = seed()
`;

const WIRE_TEST = `from pkg.m import check


def test_double():
    assert check(3, 6)
    assert check(0, 0)
`;

/** The head's check(), as each pull request writes it. */
const CHECKS: Record<string, string> = {
  // Blind: it runs double() and lets every value pass.
  "blind": "def check(value, expected):\n    double(value)\n    return True\n",
  // Honest: the same comparison, the other way round.
  "reversed":
    "def check(value, expected):\n    return expected == double(value)\n",
  // Honest: double() is no longer run, so nothing about it can be judged.
  "no longer calling double()":
    "def check(value, expected):\n    return value * 2 == expected\n",
  // Blind, and failing in the warm interpreter itself: the head's warm
  // baseline cannot be trusted, so its runs are lost, and run cold.
  "blind, but not in the warm interpreter":
    `def check(value, expected):\n    import builtins\n    if hasattr(builtins, "__pawl_active__"):\n        raise RuntimeError("not now")\n    double(value)\n    return True\n`,
  // Blind, and failing only when a mutant is on: the active id is in the
  // code's text. Every warm run on the head's code kills, and the kills
  // that a run one process each does not confirm count for nothing.
  "blind, but failing under a mutant":
    `def check(value, expected):\n    import builtins, pathlib\n    active = getattr(builtins, "__pawl_active__", None)\n    if active is not None and ('"%s"' % active) in pathlib.Path(__file__).read_text():\n        raise RuntimeError("a mutant")\n    double(value)\n    return True\n`,
  // Blind, and failing whenever it runs under pawl's forking driver: its
  // warm runs on the head's code are lost, and run cold.
  "blind, but not when forked":
    `def check(value, expected):\n    import builtins\n    if getattr(builtins, "__pawl_active__", None):\n        raise RuntimeError("not now")\n    double(value)\n    return True\n`,
};

interface RunFixture {
  sandbox: LocalSandbox;
  progress: string[];
  /** Options for a pull request whose head's check() is `check`. */
  options(check: string): Promise<OracleBlindingOptions>;
}

/**
 * The run fixture; with `broken`, the base also has a property whose test
 * fails on the base's own code, as a test the base already had broken.
 */
async function runFixture(
  broken = false,
  loose = false,
): Promise<RunFixture & AsyncDisposable> {
  const root = await Deno.makeTempDir({ prefix: "pawl-oracle-blinding-" });
  const observer = await installObserver(root);
  const driver = await installWarmDriver(root);
  const sandbox = new LocalSandbox();
  const progress: string[] = [];
  let n = 0;
  const tree = async (name: string, files: Record<string, string>) => {
    for (const [path, text] of Object.entries(files)) {
      const full = `${root}/${name}/${path}`;
      await Deno.mkdir(full.slice(0, full.lastIndexOf("/")), {
        recursive: true,
      });
      await Deno.writeTextFile(full, text);
    }
    return {
      template: `${root}/${name}`,
      files: new Map(Object.entries(files)),
    };
  };
  await Deno.mkdir(`${root}/reports`);
  const base = {
    "pkg/__init__.py": "",
    "pkg/m.py": WIRE,
    "tests/__init__.py": "",
    [TEST]: `${WIRE_TEST}${
      broken ? "\n\ndef test_broken():\n    assert check(3, 7)\n" : ""
    }${loose ? "\n\ndef test_loose():\n    check(3, 6)\n" : ""}`,
  };
  return {
    sandbox,
    progress,
    options: async (check) => {
      const head = {
        ...base,
        "pkg/m.py": WIRE.replace(
          "def check(value, expected):\n    return double(value) == expected\n",
          check,
        ),
      };
      return {
        ...options(base, head, progress),
        properties: [
          {
            key: "000/double",
            id: "double",
            layout: "000",
            file: TEST,
            nodeId: `${TEST}::test_double`,
          },
          ...(broken
            ? [{
              key: "000/broken",
              id: "broken",
              layout: "000",
              file: TEST,
              nodeId: `${TEST}::test_broken`,
            }]
            : []),
          ...(loose
            ? [{
              key: "000/loose",
              id: "loose",
              layout: "000",
              file: TEST,
              nodeId: `${TEST}::test_loose`,
            }]
            : []),
        ],
        base: await tree(`base-${n}`, base),
        oracle: await tree(`oracle-${n++}`, head),
        observer,
        driver,
        workers: [{
          sandbox,
          reportDir: `${root}/reports`,
          workPath: () => `${root}/w${n++}`,
        }],
        command: [...DEFAULT_PYTEST_COMMAND],
        env: { PATH: SANDBOX_PATH },
        // A clock that was running long before the mutants start, as the
        // gate's CPU clock is.
        clock: () => 1e12 + performance.now(),
      };
    },
    [Symbol.asyncDispose]: () => Deno.remove(root, { recursive: true }),
  };
}

/** The mutants of seed(), which runs only at import. */
const SEEDED =
  generateMutants(parser, "pkg/m.py", WIRE).filter((m) => m.function === "seed")
    .length;

/** How many runs were `python3 -m pytest`, not the driver. */
function coldRuns(sandbox: LocalSandbox): number {
  return sandbox.calls.filter((c) => c.argv[1] === "-m").length;
}

Deno.test("oracleBlinding() judges nothing when the base's tests cannot run warm on the base's code", async () => {
  await using f = await runFixture();
  const o = await f.options(CHECKS["blind"]!);
  const result = await oracleBlinding({
    ...o,
    driver: { ...o.driver, path: `${o.driver.dir}/missing.py` },
  });
  assert.deepEqual(result.findings, []);
  assert.equal(
    result.report.notRun,
    "the base's tests could not be run warm on the base's code",
  );
  assert.equal(result.report.ran, 0);
});

Deno.test("oracleBlinding() counts the mutants the budget leaves unrun, and judges none of them", async () => {
  await using f = await runFixture();
  let now = 0;
  const result = await oracleBlinding({
    ...await f.options(CHECKS["blind"]!),
    // Past the budget from its first reading on.
    clock: () => (now += 1e9),
  });
  const r = result.report;
  assert.deepEqual(result.findings, []);
  assert.equal(r.ran, 0);
  assert.equal(r.lost, 0);
  assert.ok(r.cutByBudget > 0);
  assert.ok(r.cutByBudget <= r.selected);
});

/** A local sandbox that tells `watch` each tree it is handed and each command it runs. */
class WatchedSandbox implements Sandbox {
  readonly #local = new LocalSandbox();
  readonly #watch: {
    prepared?: (dir: string) => Promise<void>;
    running?: (command: SandboxCommand) => void;
  };
  readonly isolation = this.#local.isolation;

  constructor(watch: {
    prepared?: (dir: string) => Promise<void>;
    running?: (command: SandboxCommand) => void;
  }) {
    this.#watch = watch;
  }

  /** Every command run, in order. */
  get calls(): readonly SandboxCommand[] {
    return this.#local.calls;
  }

  async prepareDir(dir: string): Promise<void> {
    await this.#watch.prepared?.(dir);
  }

  run(command: SandboxCommand): Promise<SandboxResult> {
    this.#watch.running?.(command);
    return this.#local.run(command);
  }
}

Deno.test("oracleBlinding() counts the head's runs the budget cuts as cut, not lost, and judges none of them", async () => {
  await using f = await runFixture();
  const o = await f.options(CHECKS["blind"]!);
  // The budget runs out as the head's code is first handed to a sandbox:
  // every base run finished in time, and no head run starts.
  let late = 0;
  const sandbox = new WatchedSandbox({
    prepared: async (dir) => {
      const code = await Deno.readTextFile(`${dir}/pkg/m.py`).catch(() => "");
      if (code.includes("return True")) late = 1e12;
    },
  });
  const result = await oracleBlinding({
    ...o,
    workers: [{ ...o.workers[0]!, sandbox }],
    clock: () => 1e12 + performance.now() + late,
  });
  const r = result.report;
  const about = JSON.stringify(r);
  assert.ok(late > 0, about);
  assert.ok(r.cutByBudget > 0, about);
  assert.equal(r.lost, SEEDED, about);
  assert.equal(r.blinded, 0, about);
  assert.deepEqual(result.findings, []);
  // Only the warm drivers ran: nothing cut was run cold instead.
  assert.equal(sandbox.calls.filter((c) => c.argv[1] === "-m").length, 0);
});

Deno.test("oracleBlinding() counts as lost the head's lost runs the budget then cuts cold, and judges none of them", async () => {
  await using f = await runFixture();
  const o = await f.options(CHECKS["blind, but not when forked"]!);
  // The budget runs out as the first plain pytest starts: the cold
  // baseline of the head's code, before any cold mutant run.
  let late = 0;
  const sandbox = new WatchedSandbox({
    running: (command) => {
      if (command.argv[1] === "-m") late = 1e12;
    },
  });
  const result = await oracleBlinding({
    ...o,
    workers: [{ ...o.workers[0]!, sandbox }],
    clock: () => 1e12 + performance.now() + late,
  });
  const r = result.report;
  const about = JSON.stringify(r);
  assert.ok(late > 0, about);
  assert.ok(r.lost > SEEDED, about);
  assert.equal(r.cutByBudget, 0, about);
  assert.equal(r.blinded, 0, about);
  assert.deepEqual(result.findings, []);
  assert.equal(sandbox.calls.filter((c) => c.argv[1] === "-m").length, 1);
});

/**
 * Judge a pull request whose head's check() is `CHECKS[check]`: which
 * mutants it blinds the test to, and the plain pytest runs beside the
 * killed mutants' own (none when no warm run on the head's code kills,
 * else the head's unmutated baseline, and one more to confirm a warm
 * baseline that failed).
 */
async function judged(
  check: string,
  blinded: "all" | "none" | "unexecuted",
  baselines: number | null,
) {
  await using f = await runFixture();
  const result = await oracleBlinding(await f.options(CHECKS[check]!));
  const r = result.report;
  const about = `${JSON.stringify(r)}\n${f.progress.join("\n")}`;
  // unused() and double()'s branch for large values are mutated too, but
  // no test runs them: they are never judged. seed() runs only at import,
  // where no child can run a mutant of it: those are lost.
  assert.ok(r.selected > r.ran + SEEDED, about);
  // double()'s guard is run and not pinned by the test: its mutants
  // survive on the base's code and never run on the head's.
  assert.ok(0 < r.killed && r.killed < r.ran, about);
  assert.equal(r.lost, SEEDED, about);
  assert.equal(r.cutByBudget, 0, about);
  assert.equal(r.blinded, blinded === "all" ? r.killed : 0, about);
  assert.equal(r.notExecuted, blinded === "unexecuted" ? r.killed : 0);
  const found = result.findings.filter((x) =>
    x.rule === "property.oracle_blinded"
  );
  assert.equal(found.length, blinded === "all" ? 1 : 0, about);
  assert.equal(result.findings.length, found.length, about);
  // The runs lost on the head's code, and its warm kills, run cold, one each.
  assert.equal(
    coldRuns(f.sandbox),
    baselines === null ? 0 : baselines + r.killed,
    about,
  );
}

Deno.test("oracleBlinding() finds the mutants of unchanged code the base's tests kill on the base's code and let survive on the head's, which runs them", () =>
  judged("blind", "all", null));

Deno.test("oracleBlinding() finds nothing when the head's code still lets the base's tests kill those mutants, each kill confirmed one process each", () =>
  judged("reversed", "none", 1));

Deno.test("oracleBlinding() judges none of those mutants when the head's code no longer runs them", () =>
  judged("no longer calling double()", "unexecuted", null));

Deno.test("oracleBlinding() runs cold the head's warm kills when its code fails only under a mutant, and still finds the blinding", () =>
  judged("blind, but failing under a mutant", "all", 1));

Deno.test("oracleBlinding() runs cold the head's runs lost to code that fails when forked, and still finds the blinding", () =>
  judged("blind, but not when forked", "all", 1));

Deno.test("oracleBlinding() runs cold the head's runs when its tests fail in the warm interpreter itself, and still finds the blinding", () =>
  judged("blind, but not in the warm interpreter", "all", 2));

Deno.test("oracleBlinding() judges by the base's tests that pass on the base's code: one failing there anyway kills no mutant and decides nothing on the head", async (t) => {
  for (const check of ["blind", "reversed"]) {
    await t.step(check, async () => {
      const judge = async (broken: boolean) => {
        await using f = await runFixture(broken);
        const result = await oracleBlinding(await f.options(CHECKS[check]!));
        return { ...result, progress: f.progress, cold: coldRuns(f.sandbox) };
      };
      const plain = await judge(false);
      const withBroken = await judge(true);
      assert.ok(plain.report.killed > 0, JSON.stringify(plain.report));
      assert.deepEqual(withBroken.report, plain.report);
      assert.deepEqual(withBroken.findings, plain.findings);
      // Nor does it make the head's code run more: the same mutants, warm,
      // with the same tests. The one run more is the base's unmutated one,
      // confirming the failure its warm baseline saw.
      assert.deepEqual(withBroken.progress, plain.progress);
      assert.equal(withBroken.cold, plain.cold + 1);
    });
  }
});

Deno.test("oracleBlinding() runs warm on the head's code even a single mutant the base's tests killed", async () => {
  await using f = await runFixture();
  const o = await f.options(CHECKS["blind"]!);
  // Of the arithmetic changes, only double()'s `x * 2` is both run and
  // pinned by the test.
  const result = await oracleBlinding({
    ...o,
    settings: { ...o.settings, operators: ["arithmetic"] },
  });
  const r = result.report;
  const about = `${JSON.stringify(r)}\n${f.progress.join("\n")}`;
  assert.equal(r.killed, 1, about);
  assert.equal(r.blinded, 1, about);
  assert.equal(coldRuns(f.sandbox), 0, about);
});

Deno.test("oracleBlinding() runs on the head's code a mutant one base test kills though another runs it and lets it survive", async () => {
  await using f = await runFixture(false, true);
  const result = await oracleBlinding(await f.options(CHECKS["blind"]!));
  const r = result.report;
  const about = `${JSON.stringify(r)}\n${f.progress.join("\n")}`;
  assert.ok(r.killed > 0, about);
  assert.equal(r.blinded, r.killed, about);
  assert.deepEqual(result.findings.map((x) => x.rule), [
    "property.oracle_blinded",
  ]);
  // Each killed mutant ran warm on the head's code, none cold.
  assert.equal(coldRuns(f.sandbox), 0, about);
});

Deno.test("oracleBlinding() runs on the head's code only the mutants the base's tests killed, and takes them from the runner's cache again", async () => {
  await using f = await runFixture();
  const cache = memoryMutationCache();
  const first = await oracleBlinding({
    ...await f.options(CHECKS["blind"]!),
    cache,
  });
  const r = first.report;
  assert.ok(0 < r.killed && r.killed < r.ran, JSON.stringify(r));
  f.progress.length = 0;
  const again = await oracleBlinding({
    ...await f.options(CHECKS["blind"]!),
    cache,
  });
  assert.ok(
    f.progress.includes(
      `mutation: the head's baseline and its ${r.killed} runs from the runner's cache`,
    ),
    f.progress.join("\n"),
  );
  assert.deepEqual(again.report, r);
  assert.deepEqual(again.findings, first.findings);
});
