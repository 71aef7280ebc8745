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

async function project(dir: string): Promise<void> {
  const files: Record<string, string> = {
    "kit/__init__.py": "",
    "kit/core.py": CORE,
    "tests/__init__.py": "",
    "tests/test_kit.py": TEST,
  };
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

Deno.test("the warm driver reports its baseline, then for each mutant the tests it ran and how its child ended", async () => {
  const dir = await Deno.makeTempDir({ prefix: "pawl-warm-driver-" });
  const channel = await DriverChannel.open({
    channels: dir,
  } as ObserverPlugin);
  try {
    await project(dir);
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
    const hello = readMessage(helloSchema, await channel.next());
    assert.equal(hello?.token, channel.token);
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

    const mutant = async (
      id: string,
      cover: number[] | null,
      run: string[] | null = null,
    ) => {
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
    };
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
