/**
 * The Python driver's side of the line protocol, run for real (python3,
 * pytest, Hypothesis) on a small project with a hand-written schemata
 * file, with pawl's side played here over a real `DriverChannel`.
 */
import assert from "node:assert/strict";
import type { ObserverPlugin } from "../run/observer.ts";
import { DriverChannel } from "./driver_channel.ts";
import {
  baselineSchema,
  helloSchema,
  readMessage,
  resultSchema,
} from "./warm_driver_messages.ts";

const DRIVER = new URL("./warm_driver/pawl_warm_driver.py", import.meta.url)
  .pathname;
const PLUGINS = new URL("../run/pytest_plugin", import.meta.url).pathname;

/** kit/core.py with mutants compiled in by hand; line numbers matter below. */
const CORE = `import builtins


def clamp(x, lo, hi):
    if builtins.__pawl_active__ == "mkill":
        return lo
    if builtins.__pawl_active__ == "mloop":
        while True:
            pass
    if x < lo:
        return lo
    if x > hi:
        return hi
    return x


def table():
    return [1, 2]


TABLE = table()


def unused(x):
    return x + 1
`;

const TEST = `from hypothesis import given, settings, strategies as st

from kit.core import clamp


@settings(max_examples=30)
@given(st.integers(), st.integers(), st.integers())
def test_clamp(x, a, b):
    lo, hi = min(a, b), max(a, b)
    assert clamp(x, lo, hi) == min(max(x, lo), hi)


def test_other():
    assert 1 + 1 == 2
`;

const SELECT = [
  "tests/test_kit.py::test_clamp",
  "tests/test_kit.py::test_other",
];

async function project(
  dir: string,
  files: Record<string, string> = {
    "kit/__init__.py": "",
    "kit/core.py": CORE,
    "tests/__init__.py": "",
    "tests/test_kit.py": TEST,
  },
): Promise<void> {
  for (const [path, text] of Object.entries(files)) {
    await Deno.mkdir(`${dir}/tree/${path.slice(0, path.lastIndexOf("/"))}`, {
      recursive: true,
    });
    await Deno.writeTextFile(`${dir}/tree/${path}`, text);
  }
}

async function places(dir: string, name: string) {
  await Deno.mkdir(`${dir}/${name}`);
  return {
    junit: `${dir}/${name}/junit.xml`,
    home: `${dir}/${name}`,
    socket: "",
    token: "",
  };
}

/**
 * Start the driver in `dir`'s tree, talking over `channel`, once it has
 * said hello with the channel's token.
 */
async function startDriver(
  dir: string,
  channel: DriverChannel,
): Promise<Deno.ChildProcess> {
  const child = new Deno.Command("python3", {
    args: [DRIVER],
    cwd: `${dir}/tree`,
    clearEnv: true,
    env: {
      PATH: "/usr/local/bin:/usr/bin:/bin",
      HOME: dir,
      PYTHONPATH: PLUGINS,
      PYTHONDONTWRITEBYTECODE: "1",
      PAWL_DRIVER_SOCKET: channel.path,
      PAWL_DRIVER_TOKEN: channel.token,
    },
    stdout: "null",
    stderr: "null",
  }).spawn();
  assert.equal(
    readMessage(helloSchema, await channel.next())?.token,
    channel.token,
  );
  return child;
}

/**
 * Sends the driver mutant `id` of kit/core.py, covering `cover` (null: no
 * coverage) and running `run` (tests chosen by the driver when left out),
 * and reads the result it reports for that mutant.
 */
async function runMutant(
  channel: DriverChannel,
  dir: string,
  id: string,
  cover: number[] | null,
  run: string[] | null = null,
) {
  await channel.send({
    event: "mutant",
    id,
    cover: cover === null ? null : [{ file: "kit/core.py", lines: cover }],
    run,
    child: await places(dir, id),
  });
  const result = readMessage(resultSchema, await channel.next());
  assert.equal(result?.id, id);
  return result!;
}

Deno.test("the warm driver reports its baseline, then for each mutant the tests it ran and how its child ended", async () => {
  const dir = await Deno.makeTempDir({ prefix: "pawl-warm-driver-" });
  const channel = await DriverChannel.open({
    channels: dir,
  } as ObserverPlugin);
  try {
    await project(dir);
    const child = await startDriver(dir, channel);
    await channel.send({
      event: "config",
      args: ["-q", "-p", "no:cacheprovider", "--hypothesis-seed=7"],
      observer: "pawl_observer",
      select: SELECT,
      files: ["kit/core.py"],
      baseline: await places(dir, "baseline"),
      cpu: { factor: 2, margin: 0.5 },
      wall: { factor: 3, margin: 5 },
    });
    const baseline = readMessage(baselineSchema, await channel.next());
    assert.ok(baseline !== undefined);
    assert.equal(baseline.exit, 0);
    assert.equal(baseline.threads, 1);
    assert.deepEqual(Object.keys(baseline.tests).sort(), SELECT);
    assert.ok(Object.values(baseline.tests).every((t) => t.passed));
    assert.ok((baseline.tests[SELECT[0]!]?.cpu ?? 0) > 0);
    await Deno.stat(`${dir}/baseline/junit.xml`);

    const mutant = (id: string, cover: number[] | null, run?: string[]) =>
      runMutant(channel, dir, id, cover, run);
    const killed = await mutant("mkill", [10]);
    assert.equal(killed.status, "ran");
    assert.deepEqual(killed.selected, [SELECT[0]]);
    assert.equal(killed.exit, 1);
    assert.match(
      await Deno.readTextFile(`${dir}/mkill/junit.xml`),
      /<failure/,
    );

    const loop = await mutant("mloop", [10]);
    assert.equal(loop.signal, "SIGPROF");
    assert.ok(loop.cpuLimit < 5, `limit ${loop.cpuLimit}`);
    assert.ok(
      loop.cpu <= loop.cpuLimit + 0.3,
      `${loop.cpu} > ${loop.cpuLimit}`,
    );

    assert.equal((await mutant("mimport", [18])).status, "import_only");
    const uncovered = await mutant("munused", [25]);
    assert.equal(uncovered.status, "not_covered");
    assert.deepEqual(
      await Array.fromAsync(Deno.readDir(`${dir}/munused`)),
      [],
      "an uncovered mutant never runs",
    );

    const named = await mutant("mdecoy", null, [SELECT[1]!]);
    assert.equal(named.status, "ran");
    assert.deepEqual(named.selected, [SELECT[1]]);
    assert.equal(named.exit, 0);

    await channel.send({ event: "end" });
    assert.equal((await child.status).code, 0);
  } finally {
    await channel.close();
    await Deno.remove(dir, { recursive: true });
  }
});

/** kit/core.py of a project whose tests pass, fail and share fixtures. */
const MIXED_CORE = `import builtins


def clamp(x, lo, hi):
    if builtins.__pawl_active__ == "msleep":
        import time
        time.sleep(120)
    if builtins.__pawl_active__ == "mleave" and x == 1:
        import os
        import subprocess
        left = subprocess.Popen(["sleep", "120"])
        with open(os.path.join(os.environ["HOME"], "left.pid"), "w") as out:
            out.write(str(left.pid))
    if x > hi:
        return hi
    return max(x, lo)


def setup_value():
    return 5


def cleanup():
    return None


def half():
    return 1
`;

const MIXED_TEST = `import os
import tempfile
import threading

import pytest

from kit.core import clamp, cleanup, half, setup_value

threading.Thread(target=threading.Event().wait, daemon=True).start()


@pytest.fixture
def value():
    yield setup_value()
    cleanup()


@pytest.fixture
def bad_teardown():
    yield
    raise RuntimeError("teardown")


def test_fixture(value):
    assert value == 5
    assert tempfile.gettempdir() == os.environ["HOME"]


@pytest.mark.parametrize("x", [1, 20])
def test_param(x):
    assert clamp(x, 0, 10) == min(x, 10)


def test_param_one():
    assert clamp(4, 0, 10) == 4


def test_skipped():
    clamp(5, 0, 10)
    pytest.skip("later")


@pytest.mark.parametrize("x", [1, 2])
def test_half(x):
    assert half() == x


def test_failing():
    assert clamp(1, 0, 10) == 2


def test_teardown_fails(bad_teardown):
    assert clamp(3, 0, 10) == 3
`;

const MIXED_SELECT = [
  "tests/test_kit.py::test_fixture",
  "tests/test_kit.py::test_param",
  "tests/test_kit.py::test_param_one",
  "tests/test_kit.py::test_skipped",
  "tests/test_kit.py::test_half",
  "tests/test_kit.py::test_failing",
  "tests/test_kit.py::test_teardown_fails",
];

/** The 1-based line of `text` in `MIXED_CORE`. */
function mixedLine(text: string): number {
  return MIXED_CORE.split("\n").indexOf(text) + 1;
}

Deno.test("the warm driver runs a mutant only on tests that wholly passed, all of them for fixture lines, and reports a wall-clock kill", async () => {
  const dir = await Deno.makeTempDir({ prefix: "pawl-warm-driver-" });
  const channel = await DriverChannel.open({
    channels: dir,
  } as ObserverPlugin);
  try {
    await project(dir, {
      "kit/__init__.py": "",
      "kit/core.py": MIXED_CORE,
      "tests/__init__.py": "",
      "tests/test_kit.py": MIXED_TEST,
    });
    const child = await startDriver(dir, channel);
    await channel.send({
      event: "config",
      args: ["-q", "-p", "no:cacheprovider"],
      observer: "pawl_observer",
      select: MIXED_SELECT,
      files: ["kit/core.py"],
      baseline: await places(dir, "baseline"),
      cpu: { factor: 2, margin: 0.5 },
      wall: { factor: 2, margin: 1 },
    });
    const baseline = readMessage(baselineSchema, await channel.next());
    assert.ok(baseline !== undefined);
    assert.equal(baseline.exit, 1);
    assert.equal(baseline.threads, 2, "the tests' module started a thread");
    assert.deepEqual(
      Object.fromEntries(
        Object.entries(baseline.tests).map(([n, t]) => [n, t.passed]),
      ),
      {
        "tests/test_kit.py::test_fixture": true,
        "tests/test_kit.py::test_param[1]": true,
        "tests/test_kit.py::test_param[20]": true,
        "tests/test_kit.py::test_param_one": true,
        "tests/test_kit.py::test_skipped": false,
        "tests/test_kit.py::test_half[1]": true,
        "tests/test_kit.py::test_half[2]": false,
        "tests/test_kit.py::test_failing": false,
        "tests/test_kit.py::test_teardown_fails": false,
      },
    );
    const junit = await Deno.readTextFile(`${dir}/baseline/junit.xml`);
    assert.doesNotMatch(junit, /<testcase [^>]*\bfile=/, "xunit2 reports");

    const mutant = (id: string, cover: number[] | null, run?: string[]) =>
      runMutant(channel, dir, id, cover, run);
    const clamped = await mutant("mclamp", [
      mixedLine("    return max(x, lo)"),
    ]);
    assert.equal(clamped.status, "ran");
    assert.deepEqual(clamped.selected, [
      "tests/test_kit.py::test_param",
      "tests/test_kit.py::test_param_one",
    ]);
    assert.equal(clamped.exit, 0);
    const cpu = ["test_param[1]", "test_param[20]", "test_param_one"]
      .reduce(
        (sum, n) => sum + baseline.tests[`tests/test_kit.py::${n}`]!.cpu,
        0,
      );
    assert.ok(
      Math.abs(clamped.cpuLimit - (baseline.overhead + 2 * cpu + 0.5)) < 1e-6,
      `limit ${clamped.cpuLimit}`,
    );
    // One case of a parametrized test is enough to select it.
    const capped = await mutant("mcap", [mixedLine("        return hi")]);
    assert.deepEqual(capped.selected, ["tests/test_kit.py::test_param"]);

    for (
      const [id, line] of [
        ["msetup", "    return 5"],
        ["mcleanup", "    return None"],
      ] as const
    ) {
      const shared = await mutant(id, [mixedLine(line)]);
      assert.equal(shared.status, "ran", id);
      assert.deepEqual(shared.selected, [
        "tests/test_kit.py::test_fixture",
        "tests/test_kit.py::test_param",
        "tests/test_kit.py::test_param_one",
      ], id);
    }

    const partly = await mutant("mhalf", [mixedLine("    return 1")]);
    assert.equal(partly.status, "not_covered");
    assert.deepEqual(partly.selected, []);

    const named = await mutant("mnamed", null, [
      "tests/test_kit.py::test_param",
      "tests/test_kit.py::test_fixture",
    ]);
    assert.deepEqual(named.selected, [
      "tests/test_kit.py::test_fixture",
      "tests/test_kit.py::test_param",
    ]);
    const none = await mutant("mnone", [mixedLine("    return 5")], []);
    assert.equal(none.status, "not_covered");
    assert.deepEqual(none.selected, []);

    const asleep = await mutant("msleep", [mixedLine("    return max(x, lo)")]);
    assert.equal(asleep.wallKilled, true);
    assert.equal(asleep.signal, "SIGKILL");
    assert.equal(asleep.exit, null);
    assert.ok(
      asleep.wall >= 2 * asleep.cpuLimit + 1 && asleep.wall < 60,
      `wall ${asleep.wall}, limit ${asleep.cpuLimit}`,
    );

    const leaving = await mutant("mleave", [
      mixedLine("    return max(x, lo)"),
    ]);
    assert.equal(leaving.exit, 0);
    const pid = await Deno.readTextFile(`${dir}/mleave/left.pid`);
    assert.ok(
      await gone(Number(pid), 20_000),
      "what a mutant's run leaves running goes with it",
    );

    await channel.send({ event: "end" });
    assert.equal((await child.status).code, 0);
  } finally {
    await channel.close();
    await Deno.remove(dir, { recursive: true });
  }
});

/** Whether process `pid` is gone (or a zombie) before `ms` milliseconds pass. */
async function gone(pid: number, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    try {
      const stat = await Deno.readTextFile(`/proc/${pid}/stat`);
      if (stat.slice(stat.lastIndexOf(")") + 2).startsWith("Z")) return true;
    } catch {
      return true;
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return false;
}

Deno.test("the warm driver exits with 4 when the baseline run hands back nothing", async () => {
  const dir = await Deno.makeTempDir({ prefix: "pawl-warm-driver-" });
  const channel = await DriverChannel.open({
    channels: dir,
  } as ObserverPlugin);
  try {
    await project(dir, {
      "kit/__init__.py": "",
      "kit/core.py": "def one():\n    return 1\n",
      "tests/__init__.py": "",
      "tests/test_kit.py":
        "import os\n\nfrom kit.core import one\n\n\ndef test_gone():\n    one()\n    os._exit(0)\n",
    });
    const child = await startDriver(dir, channel);
    await channel.send({
      event: "config",
      args: ["-q", "-p", "no:cacheprovider"],
      observer: "pawl_observer",
      select: ["tests/test_kit.py::test_gone"],
      files: ["kit/core.py"],
      baseline: await places(dir, "baseline"),
      cpu: { factor: 2, margin: 0.5 },
      wall: { factor: 3, margin: 5 },
    });
    assert.equal((await child.status).code, 4);
  } finally {
    await channel.close();
    await Deno.remove(dir, { recursive: true });
  }
});
