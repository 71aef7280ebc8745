import assert from "node:assert/strict";
import { finding } from "../core/finding.ts";
import { buildVerdict, type VerdictInput } from "../core/verdict.ts";
import {
  buildTestResultStatement,
  NoTestResultError,
  TEST_RESULT_PREDICATE_TYPE,
} from "./test_result_statement.ts";

const HEAD = "8e7d6c5b4a39".padEnd(40, "b");

function input(overrides: Partial<VerdictInput> = {}): VerdictInput {
  return {
    pawl: { version: "0.1.0" },
    now: "2026-11-30T12:00:00Z",
    repo: "https://github.com/octo/widgets",
    base: "3f1c2a9b0d11".padEnd(40, "a"),
    head: HEAD,
    contract: {
      layouts: ["000"],
      files: [{
        path: "tests/agent_contract.yaml",
        layout: "000",
        sha256: "c".repeat(64),
      }],
      digest: `sha256:${"d".repeat(64)}`,
      freezeBodyHashes: [],
    },
    options: { allowFixtureRotate: false, isolation: "auto" },
    isolation: { tier: "bwrap", network: "isolated" },
    tests: {
      summary: {
        total: 5,
        passed: 4,
        failed: 0,
        errors: 0,
        skipped: 1,
        xfailed: 0,
      },
      properties: [
        { layout: "000", id: "roundtrip_stable", outcome: "passed" },
        { layout: "000", id: "parse_rejects_empty", outcome: "passed" },
      ],
      reruns: [],
      seeds: {
        fresh: 1234567,
        trials: 200,
        replays: [{ freeze: "F-184", test: "t::x", seed: 42, passed: true }],
      },
    },
    ...overrides,
  };
}

Deno.test("buildTestResultStatement() states a clean accept as PASSED", () => {
  const s = buildTestResultStatement(buildVerdict([], input()));
  assert.equal(s._type, "https://in-toto.io/Statement/v1");
  assert.equal(s.predicateType, TEST_RESULT_PREDICATE_TYPE);
  assert.deepEqual(s.subject, [{
    name: "https://github.com/octo/widgets",
    digest: { gitCommit: HEAD },
  }]);
  assert.equal(s.predicate.result, "PASSED");
  assert.deepEqual(s.predicate.configuration, [{
    name: "tests/agent_contract.yaml",
    digest: { sha256: "c".repeat(64) },
    annotations: { layout: "000" },
  }]);
  assert.deepEqual(s.predicate.failedTests, []);
  assert.deepEqual(s.predicate.warnedTests, []);
  assert.ok(s.predicate.passedTests.includes("pawl/property"));
  assert.ok(s.predicate.passedTests.includes("property/000/roundtrip_stable"));
  assert.ok(s.predicate.passedTests.includes("seed/F-184/42"));
  assert.equal(s.predicate.pawl.summary.skipped, 1);
  assert.equal(s.predicate.pawl.seeds.trials, 200);
  assert.equal(s.predicate.pawl.contractDigest, `sha256:${"d".repeat(64)}`);
});

Deno.test("buildTestResultStatement() states advisory findings as WARNED and a reject as FAILED", () => {
  const warned = buildTestResultStatement(buildVerdict([
    finding("config.settings_ignored", "pawl.toml changed", {
      path: "pawl.toml",
    }),
  ], input()));
  assert.equal(warned.predicate.result, "WARNED");
  assert.deepEqual(warned.predicate.warnedTests, ["pawl/config"]);

  const failed = buildTestResultStatement(buildVerdict([
    finding("property.removed", 'Property "roundtrip_stable" was removed'),
  ], {
    ...input(),
    tests: {
      ...input().tests!,
      properties: [{
        layout: "000",
        id: "roundtrip_stable",
        outcome: "missing",
      }],
    },
  }));
  assert.equal(failed.predicate.result, "FAILED");
  assert.deepEqual(failed.predicate.failedTests, [
    "pawl/property",
    "property/000/roundtrip_stable",
  ]);
  assert.equal(failed.predicate.pawl.decision, "reject");
  assert.equal(failed.predicate.pawl.findings.blocking, 1);
});

Deno.test("buildTestResultStatement() refuses a run that executed no tests", () => {
  assert.throws(
    () => buildTestResultStatement(buildVerdict([], input({ tests: null }))),
    NoTestResultError,
  );
});

Deno.test("buildTestResultStatement() states every test and every fact of pawl's, entry by entry", () => {
  const verdict = buildVerdict([
    finding("config.settings_ignored", "pawl.toml changed", {
      path: "pawl.toml",
    }),
  ], {
    ...input(),
    isolation: null,
    tests: {
      ...input().tests!,
      properties: [
        { layout: "000", id: "a", outcome: "passed" },
        { layout: "003", id: "b", outcome: "missing" },
      ],
      seeds: {
        fresh: 7,
        trials: null,
        replays: [
          { freeze: "F-1", test: "t::x", seed: 1, passed: true },
          { freeze: "F-2", test: "t::y", seed: 2, passed: false },
        ],
      },
    },
  });
  const s = buildTestResultStatement(verdict);
  assert.equal(s.predicate.result, "WARNED");
  assert.deepEqual(
    s.predicate.passedTests.filter((t) => !t.startsWith("pawl/")),
    ["property/000/a", "seed/F-1/1"],
  );
  assert.deepEqual(s.predicate.warnedTests, ["pawl/config"]);
  assert.deepEqual(s.predicate.failedTests, [
    "property/003/b",
    "seed/F-2/2",
  ]);
  assert.deepEqual(s.predicate.pawl, {
    decision: "accept",
    now: "2026-11-30T12:00:00Z",
    base: "3f1c2a9b0d11".padEnd(40, "a"),
    contractDigest: `sha256:${"d".repeat(64)}`,
    summary: input().tests!.summary,
    seeds: {
      fresh: 7,
      trials: null,
      replays: [
        { freeze: "F-1", test: "t::x", seed: 1, passed: true },
        { freeze: "F-2", test: "t::y", seed: 2, passed: false },
      ],
    },
    isolation: null,
    findings: { blocking: 0, advisory: 1 },
  });
});

Deno.test("buildTestResultStatement() fails a rejected run even where every entry passed", () => {
  const verdict = buildVerdict([], input());
  const s = buildTestResultStatement({ ...verdict, decision: "reject" });
  assert.equal(s.predicate.result, "FAILED");
  assert.deepEqual(s.predicate.failedTests, []);
  assert.deepEqual(s.predicate.pawl.isolation, {
    tier: "bwrap",
    network: "isolated",
  });
});

Deno.test("buildTestResultStatement() says why a run without tests has no test result", () => {
  assert.throws(
    () => buildTestResultStatement(buildVerdict([], input({ tests: null }))),
    {
      name: "NoTestResultError",
      message:
        "Cannot state a test result: the run executed no tests (pawl diff); use pawl check",
    },
  );
});
