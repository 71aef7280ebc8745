import assert from "node:assert/strict";
import type { TestCaseResult } from "../run/parse_junit.ts";
import { memoryMutationCache } from "./mutation_cache.ts";
import { classify, copyTree } from "./run_mutants.ts";

const PROPS = [
  { key: "000/a", nodeId: "tests/test_m.py::test_a" },
  { key: "000/b", nodeId: "tests/test_m.py::test_b" },
  { key: "000/c", nodeId: "tests/test_m.py::test_c" },
];

function testCase(name: string, outcome: TestCaseResult["outcome"]) {
  return { classname: "tests.test_m", name, outcome };
}

Deno.test("classify() kills on a failure, an error or a property gone from the report", () => {
  assert.deepEqual(
    classify(
      false,
      [testCase("test_a", "failed"), testCase("test_b", "error")],
      PROPS,
    ),
    { "000/a": "killed", "000/b": "killed", "000/c": "killed" },
  );
});

Deno.test("classify() lets a pass, a skip or an xfail survive", () => {
  assert.deepEqual(
    classify(false, [
      testCase("test_a", "passed"),
      testCase("test_b", "skipped"),
      testCase("test_c", "xfailed"),
    ], PROPS),
    { "000/a": "survived", "000/b": "survived", "000/c": "survived" },
  );
});

Deno.test("classify() reads a timeout as its own outcome and a run without a report as killed", () => {
  assert.deepEqual(classify(true, null, PROPS.slice(0, 1)), {
    "000/a": "timeout",
  });
  assert.deepEqual(classify(false, null, PROPS.slice(0, 1)), {
    "000/a": "killed",
  });
});

Deno.test("classify() reads a Hypothesis deadline or flakiness error as slow, not as a kill", () => {
  const slow = (message: string) => ({
    ...testCase("test_a", "failed"),
    message,
  });
  assert.deepEqual(
    classify(false, [
      slow("hypothesis.errors.DeadlineExceeded: Test took 250.00ms"),
    ], PROPS.slice(0, 1)),
    { "000/a": "timeout" },
  );
  assert.deepEqual(
    classify(
      false,
      [slow("hypothesis.errors.Flaky: Unreliable assumption")],
      PROPS.slice(0, 1),
    ),
    { "000/a": "timeout" },
  );
  assert.deepEqual(
    classify(false, [slow("AssertionError: assert 3 == 4")], PROPS.slice(0, 1)),
    { "000/a": "killed" },
  );
});

Deno.test("classify() judges every parametrization of a property", () => {
  assert.deepEqual(
    classify(false, [
      testCase("test_a[1]", "passed"),
      testCase("test_a[2]", "failed"),
    ], PROPS.slice(0, 1)),
    { "000/a": "killed" },
  );
});

Deno.test("memoryMutationCache() returns what was put", async () => {
  const cache = memoryMutationCache();
  assert.equal(await cache.get("k"), undefined);
  await cache.put("k", { "000/a": "killed" });
  assert.deepEqual(await cache.get("k"), { "000/a": "killed" });
  assert.equal(cache.size(), 1);
});

Deno.test("classify() reads a run without a report as unknown when pawl's observer watched it", () => {
  assert.deepEqual(
    classify(false, null, PROPS.slice(0, 1), { missingReport: "unknown" }),
    { "000/a": "unknown" },
  );
  assert.deepEqual(
    classify(true, null, PROPS.slice(0, 1), { missingReport: "unknown" }),
    { "000/a": "timeout" },
  );
});

Deno.test("copyTree() copies a tree when the process's working directory is gone", async () => {
  const root = await Deno.makeTempDir({ prefix: "pawl_copy_tree_test_" });
  const gone = await Deno.makeTempDir({ prefix: "pawl_copy_tree_cwd_" });
  const cwd = Deno.cwd();
  try {
    await Deno.mkdir(`${root}/tree/pkg`, { recursive: true });
    await Deno.writeTextFile(`${root}/tree/pkg/m.py`, "x = 1\n");
    Deno.chdir(gone);
    await Deno.remove(gone);
    await copyTree(`${root}/tree`, `${root}/copy`);
    assert.equal(await Deno.readTextFile(`${root}/copy/pkg/m.py`), "x = 1\n");
  } finally {
    Deno.chdir(cwd);
    await Deno.remove(root, { recursive: true });
  }
});
