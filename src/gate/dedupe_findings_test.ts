import assert from "node:assert/strict";
import { finding } from "../core/finding.ts";
import { dedupeFindings } from "./dedupe_findings.ts";

Deno.test("dedupeFindings() keeps the first of equal findings and every different one", () => {
  const a = finding("harness.conftest_changed", "conftest changed", {
    path: "conftest.py",
  });
  const b = finding("harness.conftest_changed", "conftest changed", {
    path: "tests/conftest.py",
  });
  const c = finding("harness.conftest_changed", "conftest changed", {
    path: "conftest.py",
    line: 3,
  });
  assert.deepEqual(dedupeFindings([a, b, { ...a }, c, { ...b }]), [a, b, c]);
});
