/**
 * Every way a test can fail that pytest and unittest honour counts as an
 * assertion, each pinned on its own so that dropping one from the analysis
 * fails here.
 */
import assert from "node:assert/strict";
import { analyzePython } from "./analyze_python.ts";
import { loadPythonParser } from "./load_python_parser.ts";

const parser = await loadPythonParser();

function vacuity(...body: string[]): unknown {
  const source = [
    "import unittest",
    "class TestX(unittest.TestCase):",
    "    def test_x(self):",
    "        x = f()",
    ...body.map((row) => `        ${row}`),
    "",
  ].join("\n");
  const fn = analyzePython(parser, source).functions.get("TestX.test_x");
  assert.ok(fn !== undefined, source);
  return fn.vacuity;
}

Deno.test("analyzePython() counts each way a unittest test fails as an assertion", async (t) => {
  const cases: [string, string[]][] = [
    ["raise self.failureException(...)", [
      "if x != 2:",
      '    raise self.failureException("x is not 2")',
    ]],
    ["a bare raise self.failureException", [
      "if x != 2:",
      "    raise self.failureException",
    ]],
    ["raise AssertionError(...)", [
      "if x != 2:",
      '    raise AssertionError("x is not 2")',
    ]],
    ["self.fail(...)", ["if x != 2:", '    self.fail("x is not 2")']],
  ];
  for (const [name, body] of cases) {
    await t.step(name, () => assert.equal(vacuity(...body), undefined));
  }
});

Deno.test("analyzePython() does not count raising an ordinary exception as an assertion", () => {
  assert.notEqual(
    vacuity("if x != 2:", '    raise self.skipTest("later")'),
    undefined,
  );
  assert.notEqual(
    vacuity("if x != 2:", '    raise ValueError("x is not 2")'),
    undefined,
  );
});
