import assert from "node:assert/strict";
import { selectionCommand, treeHas } from "./selection_command.ts";

/** The tree the cases run in: files and the directories on their way. */
const TREE = new Set([
  "",
  "tests",
  "tests/unit",
  "tests/unit/test_a.py",
  "tests/test_b.py",
  "src",
  "src/pkg",
  "src/pkg/tests",
  "conftest.py",
  "pytest.ini",
  "expr",
]);

const exists = (path: string) => Promise.resolve(TREE.has(path));

const PY = ["python3", "-m", "pytest"];

Deno.test("selectionCommand() leaves out the positional arguments that name tests of the tree", async (t) => {
  const table: [string, string[], string[]][] = [
    ["a directory", [...PY, "-q", "tests"], [...PY, "-q"]],
    ["a directory with a slash", [...PY, "tests/"], PY],
    ["the working directory", [...PY, "."], PY],
    ["a dotted path", [...PY, "./tests/unit"], PY],
    ["a path through ..", [...PY, "src/../tests"], PY],
    ["a file", [...PY, "tests/test_b.py", "-x"], [...PY, "-x"]],
    ["a node id", [...PY, "tests/test_b.py::test_b[1]"], PY],
    ["several", [...PY, "tests/unit", "-v", "src/pkg/tests"], [
      ...PY,
      "-v",
    ]],
    ["everything after --", [...PY, "-q", "--", "tests", "-k"], [
      ...PY,
      "-q",
      "--",
      "-k",
    ]],
    ["after flags grouped", [...PY, "-qx", "tests"], [...PY, "-qx"]],
    ["after an option with its value attached", [
      ...PY,
      "--rootdir=tests",
      "-kexpr",
      "-k=expr",
      "-pno:cacheprovider",
      "tests",
    ], [...PY, "--rootdir=tests", "-kexpr", "-k=expr", "-pno:cacheprovider"]],
    ["after an optional value given", [...PY, "--debug", "log", "tests"], [
      ...PY,
      "--debug",
      "log",
    ]],
    ["after an optional value not given", [...PY, "--debug", "-q", "tests"], [
      ...PY,
      "--debug",
      "-q",
    ]],
    ["of a pytest program", ["pytest", "tests"], ["pytest"]],
    ["of a pytest program by path", ["/venv/bin/py.test", "tests"], [
      "/venv/bin/py.test",
    ]],
    ["of -mpytest", ["python3", "-mpytest", "tests"], ["python3", "-mpytest"]],
    ["after the interpreter's options and env", [
      "env",
      "PYTHONPATH=src",
      "/venv/bin/python",
      "-X",
      "dev",
      "-m",
      "pytest",
      "tests",
    ], [
      "env",
      "PYTHONPATH=src",
      "/venv/bin/python",
      "-X",
      "dev",
      "-m",
      "pytest",
    ]],
    ["under coverage", [
      "python3",
      "-m",
      "coverage",
      "run",
      "-m",
      "pytest",
      "tests",
    ], ["python3", "-m", "coverage", "run", "-m", "pytest"]],
  ];
  for (const [name, command, expected] of table) {
    await t.step(name, async () => {
      assert.deepEqual(await selectionCommand(command, { exists }), expected);
    });
  }
});

Deno.test("selectionCommand() keeps options, their values and what may not name tests", async (t) => {
  const table: [string, string[]][] = [
    ["-k and -m with values that are paths", ["-k", "tests", "-m", "expr"]],
    ["-p, -o and -c", ["-p", "tests", "-o", "tests=1", "-c", "pytest.ini"]],
    ["-W and -r", ["-W", "expr", "-r", "expr"]],
    ["long options and their values", [
      "--rootdir",
      "tests",
      "--confcutdir",
      "tests",
      "--junitxml",
      "expr",
      "--basetemp",
      "expr",
    ]],
    ["the excuses' and the freezes' own", [
      "--deselect",
      "tests/test_b.py::test_b",
      "--ignore",
      "tests/unit",
      "--ignore=tests/unit",
      "--ignore-glob",
      "tests/*",
    ]],
    ["a grouped flag then an option taking the next argument", [
      "-vk",
      "tests",
    ]],
    ["Hypothesis's options", [
      "--hypothesis-seed",
      "7",
      "--hypothesis-profile",
      "expr",
    ]],
    ["the value of an option a plugin defines", [
      "-n",
      "tests",
      "--cov",
      "src",
    ]],
    ["a positional argument that is no path of the tree", [
      "no_such_dir",
      "pkg.tests",
      "tests/missing.py::t",
    ]],
    ["a path outside the tree", ["/tmp", "../tests", "tests/../../x"]],
    ["a lone dash", ["-"]],
  ];
  for (const [name, args] of table) {
    await t.step(name, async () => {
      const command = [...PY, ...args];
      assert.deepEqual(await selectionCommand(command, { exists }), command);
    });
  }
});

Deno.test("selectionCommand() keeps every argument of a command that does not run pytest itself", async (t) => {
  const table: string[][] = [
    ["sh", "-c", "python3 -m pytest tests"],
    ["tox", "-e", "py311", "--", "tests"],
    ["make", "test"],
    ["python3", "-m", "unittest", "tests"],
    ["python3", "run_tests.py", "tests"],
    [],
  ];
  for (const command of table) {
    await t.step(JSON.stringify(command), async () => {
      assert.deepEqual(await selectionCommand(command, { exists }), command);
    });
  }
});

Deno.test("selectionCommand() under --pyargs also leaves out dotted package names", async (t) => {
  const table: [string, string[], string[]][] = [
    ["a package", ["--pyargs", "mypkg.tests"], ["--pyargs"]],
    ["a package before --pyargs", ["mypkg", "--pyargs"], ["--pyargs"]],
    ["a module's test", ["--pyargs", "mypkg.test_a::test_a"], ["--pyargs"]],
    ["a path", ["--pyargs", "tests"], ["--pyargs"]],
    ["a value that reads like a package", ["--pyargs", "-k", "mypkg"], [
      "--pyargs",
      "-k",
      "mypkg",
    ]],
    ["a name that is no package", ["--pyargs", "no-such-dir"], [
      "--pyargs",
      "no-such-dir",
    ]],
    ["a dotted name with a part that is no identifier", [
      "--pyargs",
      "mypkg.te-st",
      "mypkg.1x",
    ], ["--pyargs", "mypkg.te-st", "mypkg.1x"]],
    ["nothing when --pyargs is an option's value", ["-k", "--pyargs", "pkg"], [
      "-k",
      "--pyargs",
      "pkg",
    ]],
  ];
  for (const [name, args, expected] of table) {
    await t.step(name, async () => {
      assert.deepEqual(
        await selectionCommand([...PY, ...args], { exists }),
        [...PY, ...expected],
      );
    });
  }
});

Deno.test("treeHas() tells the files and directories of a tree from what is not in it", async (t) => {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.mkdir(`${dir}/tests`);
    await Deno.writeTextFile(`${dir}/tests/test_a.py`, "");
    await Deno.symlink("loop", `${dir}/loop`);
    const has = treeHas(dir);
    const table: [string, boolean][] = [
      ["", true],
      ["tests", true],
      ["tests/test_a.py", true],
      ["tests/test_a.py/x", false],
      ["missing", false],
      ["loop", true],
      ["loop/x", false],
    ];
    for (const [path, expected] of table) {
      await t.step(JSON.stringify(path), async () => {
        assert.equal(await has(path), expected);
      });
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("selectionCommand() reads each argument as pytest's parser does", async (t) => {
  const table: [string, string[], string[]][] = [
    ["a value that looks like an option taking a value", [
      "-k",
      "-p",
      "tests",
    ], ["-k", "-p"]],
    ["a long option's value that looks like an option", [
      "--rootdir",
      "-p",
      "tests",
    ], ["--rootdir", "-p"]],
    ["an unknown option followed by an option", ["--cov", "-q", "tests"], [
      "--cov",
      "-q",
    ]],
    ["an unknown option followed by one taking a value", [
      "--cov",
      "-k",
      "tests",
    ], ["--cov", "-k", "tests"]],
    ["a long option with its value attached", ["--rootdir=x", "tests"], [
      "--rootdir=x",
    ]],
    ["an unknown long option with its value attached", ["--cov=x", "tests"], [
      "--cov=x",
    ]],
    ["a long flag", ["--lf", "tests"], ["--lf"]],
    ["grouped flags ending in an unknown one", ["-qn", "tests"], [
      "-qn",
      "tests",
    ]],
    ["an unknown short option with more after it", ["-nq", "tests"], ["-nq"]],
    ["a short option taking a value, grouped after a flag, with more", [
      "-vkexpr",
      "tests",
    ], ["-vkexpr"]],
    ["an empty argument", ["", "tests"], [""]],
    ["after --, what looks like an option is positional", [
      "--",
      "-k",
      "tests",
    ], ["--", "-k"]],
    ["a node id without a path", ["::test_a", "tests"], ["::test_a"]],
    ["a path with empty segments", ["tests//unit/"], []],
    ["a path that climbs back into the tree", ["tests/../src/./pkg"], []],
    ["a path that climbs out and back", ["../x/tests"], ["../x/tests"]],
  ];
  for (const [name, args, expected] of table) {
    await t.step(name, async () => {
      assert.deepEqual(
        await selectionCommand([...PY, ...args], { exists }),
        [...PY, ...expected],
      );
    });
  }
});

Deno.test("selectionCommand() knows pytest by each of its names", async (t) => {
  const table: [string[], number][] = [
    [["pytest-3", "tests"], 1],
    [["py.test3", "tests"], 1],
    [["python3", "-m", "py.test", "tests"], 3],
    [["python3", "-mpy.test-3", "tests"], 2],
    [["./bin/pytest", "-q", "tests"], 2],
    [["pytestx", "tests"], 2],
    [["python3", "-m", "pytest_cov", "tests"], 4],
    [["python3", "-mpytests", "tests"], 3],
    [["python3", "xxpytest", "tests"], 3],
    [["python3", "-m", "xpytest", "tests"], 4],
    [["coverage", "run", "--source", "src", "-mpytest", "tests"], 5],
    [["coverage", "run", "--source", "src", "-m", "pytest", "tests"], 6],
  ];
  for (const [command, kept] of table) {
    await t.step(command.join(" "), async () => {
      assert.deepEqual(
        await selectionCommand(command, { exists }),
        command.slice(0, kept),
      );
    });
  }
});

Deno.test("selectionCommand() reads pytest's arguments from the first word that runs it", async () => {
  // A directory named like pytest, or a file named "-", is a test path of
  // pytest's command line.
  const tree = new Set(["pytest", "tests", "-"]);
  assert.deepEqual(
    await selectionCommand(["pytest", "-", "pytest", "tests", "-q"], {
      exists: (path) => Promise.resolve(tree.has(path)),
    }),
    ["pytest", "-q"],
  );
  assert.deepEqual(
    await selectionCommand(["pytest", "pytest", "tests"], {
      exists: (path) => Promise.resolve(tree.has(path)),
    }),
    ["pytest"],
  );
  assert.deepEqual(
    await selectionCommand(["python3", "-mpytest", "pytest", "-q"], {
      exists: (path) => Promise.resolve(tree.has(path)),
    }),
    ["python3", "-mpytest", "-q"],
  );
});

Deno.test("selectionCommand() looks up only paths inside the tree", async () => {
  const asked: string[] = [];
  const command = [...PY, "/tmp", "../x", "", "tests/../..", "tests/./unit/"];
  const argv = await selectionCommand(command, {
    exists: (path) => {
      asked.push(path);
      return Promise.resolve(TREE.has(path));
    },
  });
  assert.deepEqual(asked, ["tests/unit"]);
  assert.deepEqual(argv, [...PY, "/tmp", "../x", "", "tests/../.."]);
});
