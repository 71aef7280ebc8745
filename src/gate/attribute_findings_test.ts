import assert from "node:assert/strict";
import { finding } from "../core/finding.ts";
import { attributeFindings } from "./attribute_findings.ts";

Deno.test("attributeFindings() turns only the failures the base shares into notes", () => {
  const property = finding(
    "property.not_passed",
    'Property "p" (t.py::test_p) did not pass on seed 1: it failed',
    { path: "t.py", line: 3 },
  );
  const other = finding(
    "property.not_passed",
    'Property "q" (t.py::test_q) did not pass on seed 1: it failed',
  );
  const test = finding("tests.failed", 'Test "t.py::test_p" failed: boom');
  const prefix = finding("tests.failed", 'Test "t.py::test_p2" failed: boom');
  const unrelated = finding("harness.conftest_changed", "conftest changed");
  const out = attributeFindings([property, other, test, prefix, unrelated], {
    base: "b".repeat(40),
    shared: new Map([["t.py::test_p", "it fails there too with ValueError"]]),
    properties: [
      { finding: property, property: { id: "p", nodeId: "t.py::test_p" } },
      { finding: other, property: { id: "q", nodeId: "t.py::test_q" } },
    ],
  });
  assert.deepEqual(out.map((f) => [f.rule, f.blocking]), [
    ["property.failed_at_base", false],
    ["property.not_passed", true],
    ["tests.failed_at_base", false],
    ["tests.failed", true],
    ["harness.conftest_changed", true],
  ]);
  assert.match(out[0]?.message ?? "", /it fails there too with ValueError/);
  assert.equal(out[0]?.path, "t.py");
  assert.equal(out[0]?.line, 3);
});
