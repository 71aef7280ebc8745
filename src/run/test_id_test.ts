import assert from "node:assert/strict";
import type { TestCaseResult } from "./parse_junit.ts";
import {
  casesFor,
  casesForNodeId,
  junitAddress,
  locateCase,
  moduleFileCandidates,
  nodeId,
} from "./test_id.ts";

const CASES: TestCaseResult[] = [
  {
    classname: "tests.properties.test_parse",
    name: "test_x",
    outcome: "passed",
  },
  {
    classname: "tests.properties.test_parse",
    name: "test_xy",
    outcome: "passed",
  },
  {
    classname: "tests.properties.test_parse",
    name: "test_p[1]",
    outcome: "passed",
  },
  {
    classname: "tests.properties.test_parse",
    name: "test_p[2]",
    outcome: "failed",
  },
  {
    classname: "tests.properties.test_parse.TestK",
    name: "test_x",
    outcome: "skipped",
  },
  {
    classname: "tests.properties.test_parse.TestK",
    name: "test_m[a-b]",
    outcome: "passed",
  },
  {
    classname: "tests.properties.test_other",
    name: "test_x",
    outcome: "passed",
  },
];

Deno.test("nodeId() builds the pytest node id of a registered test", async (t) => {
  const table: [string, string, string][] = [
    [
      "tests.properties.test_parse",
      "test_x",
      "tests/properties/test_parse.py::test_x",
    ],
    [
      "tests.properties.test_parse",
      "TestK.test_x",
      "tests/properties/test_parse.py::TestK::test_x",
    ],
    ["test_top", "test_x", "test_top.py::test_x"],
  ];
  for (const [module, name, expected] of table) {
    await t.step(`${module} ${name} → ${expected}`, () => {
      assert.equal(nodeId(module, name), expected);
    });
  }
});

Deno.test("nodeId() refuses names that could be read as options or paths", async (t) => {
  const table: [string, string][] = [
    ["-p evil", "test_x"],
    ["tests/../etc", "test_x"],
    ["tests.test_a", "--rootdir=/"],
    ["", "test_x"],
    ["tests.test_a", ""],
  ];
  for (const [module, name] of table) {
    await t.step(`"${module}" "${name}" throws RangeError`, () => {
      assert.throws(() => nodeId(module, name), RangeError);
    });
  }
});

Deno.test("junitAddress() mangles a node id the way pytest's junitxml does", async (t) => {
  const table: [string, string, string][] = [
    ["tests/test_a.py::test_x", "tests.test_a", "test_x"],
    [
      "tests/test_a.py::TestK::test_x[1-a]",
      "tests.test_a.TestK",
      "test_x[1-a]",
    ],
    ["tests/test_a.py::test_x[a::b/c]", "tests.test_a", "test_x[a::b/c]"],
  ];
  for (const [id, classname, name] of table) {
    await t.step(id, () => {
      assert.deepEqual(junitAddress(id), { classname, name });
    });
  }
});

Deno.test("casesFor() finds a registered test's cases, parametrizations included", async (t) => {
  await t.step(
    "a plain function matches only its own name, not a longer one",
    () => {
      assert.deepEqual(
        casesFor(CASES, {
          module: "tests.properties.test_parse",
          name: "test_x",
        }),
        [CASES[0]],
      );
    },
  );
  await t.step("a parametrized function matches every parameter", () => {
    assert.deepEqual(
      casesFor(CASES, {
        module: "tests.properties.test_parse",
        name: "test_p",
      }),
      [CASES[2], CASES[3]],
    );
  });
  await t.step("a method matches through its class", () => {
    assert.deepEqual(
      casesFor(CASES, {
        module: "tests.properties.test_parse",
        name: "TestK.test_x",
      }),
      [CASES[4]],
    );
    assert.deepEqual(
      casesFor(CASES, {
        module: "tests.properties.test_parse",
        name: "TestK.test_m",
      }),
      [CASES[5]],
    );
  });
  await t.step("an absent test matches nothing", () => {
    assert.deepEqual(
      casesFor(CASES, {
        module: "tests.properties.test_parse",
        name: "test_gone",
      }),
      [],
    );
  });
  await t.step("a node id with a parameter selects that parameter only", () => {
    assert.deepEqual(
      casesForNodeId(CASES, "tests/properties/test_parse.py::test_p[2]"),
      [CASES[3]],
    );
  });
});

Deno.test("locateCase() finds the file and node id of a reported case", async (t) => {
  await t.step("upper-case trailing components are taken as classes", () => {
    assert.deepEqual(locateCase(CASES[5] as TestCaseResult), {
      file: "tests/properties/test_parse.py",
      nodeId: "tests/properties/test_parse.py::TestK::test_m[a-b]",
    });
  });
  await t.step("isFile settles where the module ends", () => {
    const located = locateCase(
      { classname: "tests.Weird.test_a.Check", name: "test_x" },
      { isFile: (p) => p === "tests/Weird/test_a.py" },
    );
    assert.deepEqual(located, {
      file: "tests/Weird/test_a.py",
      nodeId: "tests/Weird/test_a.py::Check::test_x",
    });
  });
  await t.step("the report's own file attribute wins", () => {
    const located = locateCase({
      classname: "tests.test_a.TestK",
      name: "test_x",
      file: "tests/test_a.py",
    });
    assert.equal(located.nodeId, "tests/test_a.py::TestK::test_x");
  });
  await t.step("a collection error points at its module", () => {
    assert.deepEqual(locateCase({ classname: "", name: "tests.test_broken" }), {
      file: "tests/test_broken.py",
      nodeId: "tests/test_broken.py",
    });
  });
  await t.step("candidates are listed longest first", () => {
    assert.deepEqual(moduleFileCandidates("a.b.C"), [
      "a/b/C.py",
      "a/b.py",
      "a.py",
    ]);
  });
});
