import assert from "node:assert/strict";
import { type Finding, finding } from "../core/finding.ts";
import type { RuleId } from "../core/rules.ts";
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

Deno.test("baseProblems() tells a base that cannot be judged from a base the patch may still fix", async (t) => {
  const cases: [RuleId, boolean][] = [
    ["property.module_missing", true],
    ["property.test_missing", true],
    ["property.source_changed", true],
    ["property.examples_below_contract", true],
    ["fixture.missing", true],
    ["fixture.digest_mismatch", true],
    ["fixture.path_unsafe", true],
    ["fixture.symlink", true],
    ["property.removed", false],
    ["property.vacuous", false],
    ["fixture.removed", false],
    ["freeze.expired", false],
  ];
  for (const [rule, unusable] of cases) {
    await t.step(
      `${rule} ${unusable ? "makes" : "does not make"} the base unusable`,
      () => {
        const found = baseProblems(
          [loaded([finding(rule, "the base breaks it")])],
          {} as StaticInput,
        );
        assert.equal(found.length, unusable ? 1 : 0);
      },
    );
  }
  await t.step("a non-blocking finding never makes the base unusable", () => {
    const found = baseProblems(
      [loaded([finding("fixture.missing", "gone", { blocking: false })])],
      {} as StaticInput,
    );
    assert.deepEqual(found, []);
  });
});

Deno.test("BaseProblemError names the base, how many problems it has and where the first one is", async (t) => {
  const gone = finding("fixture.missing", "Fixture is gone", {
    path: "fixtures.lock",
    line: 4,
  });
  const cases: [string, string, Finding[], RegExp[]][] = [
    [
      "one problem with a path and a line",
      "fedcba9876543210fedc",
      [gone],
      [
        /the base commit fedcba987654 already/,
        /\(1 problem; first: fixtures\.lock:4: Fixture is gone \[fixture\.missing\]\)/,
        /not the pull request's fault: fix the base branch$/,
      ],
    ],
    [
      "a problem with a path and no line",
      "abc",
      [finding("fixture.missing", "Fixture is gone", {
        path: "fixtures.lock",
      })],
      [/\(1 problem; first: fixtures\.lock: Fixture is gone \[/],
    ],
    [
      "a problem with no path",
      "abc",
      [finding("fixture.missing", "Fixture is gone"), gone, gone],
      [/\(3 problems; first: Fixture is gone \[fixture\.missing\]\)/],
    ],
    [
      "no problem at all",
      "abc",
      [],
      [/\(0 problems; first: \? \[\?\]\)/],
    ],
  ];
  for (const [name, base, findings, patterns] of cases) {
    await t.step(name, () => {
      const error = new BaseProblemError(base, findings);
      assert.equal(error.name, "BaseProblemError");
      assert.equal(error.base, base);
      assert.deepEqual(error.findings, findings);
      for (const pattern of patterns) assert.match(error.message, pattern);
    });
  }
});
