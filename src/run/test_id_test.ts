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
    ["tests.tést_ü2", "_Tést.test_é1", "tests/tést_ü2.py::_Tést::test_é1"],
  ];
  for (const [module, name, expected] of table) {
    await t.step(`${module} ${name} → ${expected}`, () => {
      assert.equal(nodeId(module, name), expected);
    });
  }
});

const DOTTED_FOR_TEST = /^[a-z_]+(?:\.[a-z_]+)*$/;

Deno.test("nodeId() refuses names that could be read as options or paths", async (t) => {
  const table: [string, string][] = [
    ["-p evil", "test_x"],
    ["tests/../etc", "test_x"],
    ["tests.test_a", "--rootdir=/"],
    ["", "test_x"],
    ["tests.test_a", ""],
    ["tests.1a", "test_x"],
    ["tests..test_a", "test_x"],
    ["tests.test_a.", "test_x"],
    ["tests.test_a", "test_x --lf"],
    ["tests.test_a", "test-x"],
  ];
  for (const [module, name] of table) {
    await t.step(`"${module}" "${name}" throws RangeError naming it`, () => {
      const bad = DOTTED_FOR_TEST.test(module)
        ? `Invalid test name "${name}"`
        : `Invalid test module "${module}"`;
      assert.throws(
        () => nodeId(module, name),
        (error: unknown) =>
          error instanceof RangeError && error.message.startsWith(bad),
      );
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

Deno.test("junitAddress() keeps what is not a module path as it is", async (t) => {
  const table: [string, string, string][] = [
    ["a module at the top", "test_a.py::test_x", "test_a"],
    [
      "a .py inside the path",
      "tests/a.pyx/test_a.py::test_x",
      "tests.a.pyx.test_a",
    ],
    ["a file that is not .py", "tests/test_a.txt::test_x", "tests.test_a.txt"],
  ];
  for (const [label, id, classname] of table) {
    await t.step(label, () => {
      assert.deepEqual(junitAddress(id), { classname, name: "test_x" });
    });
  }
  await t.step("a node id of a module alone has an empty classname", () => {
    assert.deepEqual(junitAddress("tests/test_a.py"), {
      classname: "",
      name: "tests.test_a",
    });
  });
});

Deno.test("casesForNodeId() selects what pytest would run for the node id", async (t) => {
  const cases: TestCaseResult[] = [
    { classname: "tests.test_a", name: "test_p[1]", outcome: "passed" },
    { classname: "tests.test_a", name: "test_p[1][2]", outcome: "passed" },
    { classname: "tests.test_a", name: "test_p[10]", outcome: "passed" },
    { classname: "tests.test_a", name: "test_px", outcome: "passed" },
    { classname: "tests.test_a.TestK", name: "test_p[1]", outcome: "failed" },
    { classname: "tests.test_b", name: "test_p", outcome: "passed" },
  ];
  const table: [string, string, TestCaseResult[]][] = [
    [
      "a parameter id selects only that parameter",
      "tests/test_a.py::test_p[1]",
      [
        cases[0] as TestCaseResult,
      ],
    ],
    [
      "no parameter id selects every parametrization",
      "tests/test_a.py::test_p",
      [
        cases[0] as TestCaseResult,
        cases[1] as TestCaseResult,
        cases[2] as TestCaseResult,
      ],
    ],
    ["a class selects its own methods only", "tests/test_a.py::TestK::test_p", [
      cases[4] as TestCaseResult,
    ]],
    ["another module is another test", "tests/test_b.py::test_p", [
      cases[5] as TestCaseResult,
    ]],
    ["a missing test selects nothing", "tests/test_a.py::test_q", []],
  ];
  for (const [label, id, expected] of table) {
    await t.step(label, () => {
      assert.deepEqual(casesForNodeId(cases, id), expected);
    });
  }
});

Deno.test("locateCase() places modules and classes when the report does not", async (t) => {
  const table: [string, Pick<TestCaseResult, "classname" | "name" | "file">, {
    isFile?: (path: string) => boolean;
  }, { file: string; nodeId: string }][] = [
    [
      "a collection error named by its path",
      { classname: "", name: "tests/test_broken.py" },
      {},
      { file: "tests/test_broken.py", nodeId: "tests/test_broken.py" },
    ],
    [
      "a collection error named by a top-level .py file",
      { classname: "", name: "test_broken.py" },
      {},
      { file: "test_broken.py", nodeId: "test_broken.py" },
    ],
    [
      "a module whose only part starts upper-case is still a module",
      { classname: "Tests", name: "test_x" },
      {},
      { file: "Tests.py", nodeId: "Tests.py::test_x" },
    ],
    [
      "a module with an upper-case letter inside its name is still a module",
      { classname: "tests.test_aB", name: "test_x" },
      {},
      { file: "tests/test_aB.py", nodeId: "tests/test_aB.py::test_x" },
    ],
    [
      "a class whose name starts with a non-Latin upper-case letter is a class",
      { classname: "tests.test_a.Ñame", name: "test_x" },
      {},
      { file: "tests/test_a.py", nodeId: "tests/test_a.py::Ñame::test_x" },
    ],
    [
      "nested classes are all classes",
      { classname: "tests.test_a.TestK.TestInner", name: "test_x" },
      {},
      {
        file: "tests/test_a.py",
        nodeId: "tests/test_a.py::TestK::TestInner::test_x",
      },
    ],
    [
      "a lower-case class found by isFile",
      { classname: "tests.test_a.check", name: "test_x" },
      { isFile: (p) => p === "tests/test_a.py" },
      { file: "tests/test_a.py", nodeId: "tests/test_a.py::check::test_x" },
    ],
    [
      "a report's file of one part settles a lower-case class",
      { classname: "test_a.check", name: "test_x", file: "test_a.py" },
      {},
      { file: "test_a.py", nodeId: "test_a.py::check::test_x" },
    ],
    [
      "the report's file wins over isFile",
      {
        classname: "tests.test_a.Check",
        name: "test_x",
        file: "tests/test_a.py",
      },
      { isFile: (p) => p === "tests/test_a/Check.py" },
      { file: "tests/test_a.py", nodeId: "tests/test_a.py::Check::test_x" },
    ],
    [
      "a file the classname does not lead to is kept, and the classname read alone",
      { classname: "tests.test_a.TestK", name: "test_x", file: "other/x.py" },
      {},
      { file: "other/x.py", nodeId: "tests/test_a.py::TestK::test_x" },
    ],
    [
      "without a file that isFile knows, upper-case parts are classes",
      { classname: "tests.test_a.TestK", name: "test_x" },
      { isFile: () => false },
      { file: "tests/test_a.py", nodeId: "tests/test_a.py::TestK::test_x" },
    ],
  ];
  for (const [label, testCase, options, expected] of table) {
    await t.step(label, () => {
      assert.deepEqual(locateCase(testCase, options), expected);
    });
  }
});
