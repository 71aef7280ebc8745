import assert from "node:assert/strict";
import {
  reproduceCommand,
  reproducer,
  shellWord,
} from "./reproduce_command.ts";

Deno.test("reproducer() runs the base's command on one node id with the run's variables", async (t) => {
  const tree = new Set(["tests", "tests/test_a.py"]);
  const exists = (path: string) => Promise.resolve(tree.has(path));
  const cases: {
    name: string;
    command: string[];
    env: Record<string, string>;
    nodeId: string;
    want: string;
  }[] = [
    {
      name: "the default command with pawl's seeds",
      command: [
        "python3",
        "-m",
        "pytest",
        "-q",
        "-p",
        "no:cacheprovider",
        "--hypothesis-seed=3000630338",
      ],
      env: { CONTRACT_SEED: "3000630338", CONTRACT_TRIALS: "200" },
      nodeId: "tests/test_a.py::test_a",
      want:
        "CONTRACT_SEED=3000630338 CONTRACT_TRIALS=200 PYTHONHASHSEED=0 python3 -m pytest -q -p no:cacheprovider --hypothesis-seed=3000630338 'tests/test_a.py::test_a'",
    },
    {
      name:
        "a [tests] command naming tests, an import path and the sandbox's PATH",
      command: ["/opt/venv/bin/python", "-m", "pytest", "tests", "-x"],
      env: { PATH: "/opt/venv/bin:/usr/bin", PYTHONPATH: "src:." },
      nodeId: "tests/test_a.py::test_a[it's 1]",
      want:
        "PYTHONHASHSEED=0 PYTHONPATH=src:. /opt/venv/bin/python -m pytest -x 'tests/test_a.py::test_a[it'\\''s 1]'",
    },
    {
      name: "a variable of [environment] env that needs quoting",
      command: ["pytest"],
      env: { GREETING: "hello world", PYTHONHASHSEED: "7" },
      nodeId: "t.py::t",
      want: "GREETING='hello world' PYTHONHASHSEED=7 pytest 't.py::t'",
    },
  ];
  for (const c of cases) {
    await t.step(c.name, async () => {
      const reproduce = await reproducer(c.command, c.env, { exists });
      assert.equal(reproduce(c.nodeId), c.want);
    });
  }
});

Deno.test("reproduceCommand() quotes every word so the shell reads it back unchanged", async () => {
  const words = ["a b", "it's", "$HOME", "`id`", "x;y", "[1]", "*", "", "ü"];
  const command = reproduceCommand(
    ["/bin/sh", "-c", 'printf "%s\\n" "$V" "$@"', "sh", ...words],
    { V: "$(id) 'q'" },
    't.py::t["x"]',
  );
  const out = await new Deno.Command("/bin/sh", { args: ["-c", command] })
    .output();
  assert.equal(
    new TextDecoder().decode(out.stdout),
    ["$(id) 'q'", ...words, 't.py::t["x"]', ""].join("\n"),
  );
  assert.equal(shellWord("tests/test_a.py"), "tests/test_a.py");
});

Deno.test("reproduceCommand() leaves out the variables that only describe the sandbox", () => {
  assert.equal(
    reproduceCommand(["pytest"], {
      HOME: "/sandbox/home",
      TMPDIR: "/sandbox/tmp",
      PATH: "/sandbox/bin",
      LANG: "C.UTF-8",
    }, "t.py::t"),
    "LANG=C.UTF-8 PYTHONHASHSEED=0 pytest 't.py::t'",
  );
});

Deno.test("shellWord() leaves bare only the words the shell reads back unchanged", async (t) => {
  const table: [string, string][] = [
    ["a@b%c+d=e:f,g.h/i-j_K09", "a@b%c+d=e:f,g.h/i-j_K09"],
    ["a b", "'a b'"],
    ["-", "-"],
    ["", "''"],
    ["x\ny", "'x\ny'"],
    ["~", "'~'"],
    ["a*", "'a*'"],
  ];
  for (const [word, expected] of table) {
    await t.step(JSON.stringify(word), () => {
      assert.equal(shellWord(word), expected);
    });
  }
});
