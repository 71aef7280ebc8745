import assert from "node:assert/strict";
import { finding } from "../core/finding.ts";
import { BaseProblemError, baseProblems } from "./base_problems.ts";
import type { LoadedDialect, StaticInput } from "./dialect.ts";

function loaded(findings: ReturnType<typeof finding>[]): LoadedDialect {
  return {
    check: () => findings,
  } as unknown as LoadedDialect;
}

Deno.test("baseProblems() keeps only what makes the base unusable", () => {
  const missing = finding("property.test_missing", "gone", {
    path: "c.yaml",
    line: 3,
  });
  const unsafe = finding("fixture.path_unsafe", "outside", { path: "c.yaml" });
  const expired = finding("freeze.expired", "expired");
  const found = baseProblems(
    [loaded([missing, expired]), loaded([unsafe])],
    {} as StaticInput,
  );
  assert.deepEqual(found.map((f) => f.rule), [
    "property.test_missing",
    "fixture.path_unsafe",
  ]);
  const error = new BaseProblemError("0123456789abcdef", found);
  assert.match(
    error.message,
    /^Cannot decide: the base commit 0123456789ab already breaks its own contract \(2 problems; first: c\.yaml:3: gone \[property\.test_missing\]\)/,
  );
});
