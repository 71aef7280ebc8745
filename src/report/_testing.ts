/**
 * Test builders for this folder: verdicts made with the real
 * {@linkcode buildVerdict} and {@linkcode finding}.
 *
 * @module
 */
import { type Finding, finding } from "../core/finding.ts";
import {
  buildVerdict,
  type Verdict,
  type VerdictInput,
} from "../core/verdict.ts";

/** The contract path the verdicts name. */
export const CONTRACT = "tests/agent_contract.yaml";

/** Base commit id of the test verdicts. */
export const BASE = "3f1c2a9b0d11".padEnd(40, "a");

/** Head commit id of the test verdicts. */
export const HEAD = "8e7d6c5b4a39".padEnd(40, "b");

/** A verdict input with a run that executed tests; override any part. */
export function input(overrides: Partial<VerdictInput> = {}): VerdictInput {
  return {
    pawl: { version: "0.1.0" },
    now: "2026-11-30T12:00:00Z",
    repo: "/tmp/repo",
    base: BASE,
    head: HEAD,
    contract: {
      layouts: ["000"],
      files: [{ path: CONTRACT, layout: "000", sha256: "c".repeat(64) }],
      digest: `sha256:${"d".repeat(64)}`,
      freezeBodyHashes: [],
    },
    options: { allowFixtureRotate: false, isolation: "auto" },
    isolation: { tier: "bwrap", network: "isolated" },
    tests: {
      summary: {
        total: 5,
        passed: 4,
        failed: 1,
        errors: 0,
        skipped: 0,
        xfailed: 0,
      },
      properties: [
        { layout: "000", id: "roundtrip_stable", outcome: "passed" },
        { layout: "000", id: "total_is_sum", outcome: "failed" },
      ],
      reruns: [{
        freeze: "test_report_render_flaky",
        test: "tests/test_report.py::test_render",
        selected: ["tests/test_report.py::test_render"],
        used: 1,
        allowed: 2,
        passed: true,
      }],
      seeds: {
        fresh: 1234567,
        trials: 50,
        replays: [{
          freeze: "seed_freeze",
          test: "tests/test_parse.py::test_parse",
          seed: 42,
          passed: true,
        }],
      },
    },
    ...overrides,
  };
}

/** An accepted verdict with no findings. */
export function acceptVerdict(): Verdict {
  return buildVerdict([], input());
}

/** The same verdict as {@linkcode acceptVerdict}, from `pawl diff` (nothing ran). */
export function staticVerdict(findings: readonly Finding[] = []): Verdict {
  return buildVerdict(findings, input({ isolation: null, tests: null }));
}

/** Blocking and non-blocking findings, with and without a location. */
export function mixedFindings(): Finding[] {
  return [
    finding(
      "freeze.expiry_extended",
      'Freeze "test_report_render_flaky" expiry moved from "2026-12-04T00:00:00Z" to "2027-01-04T00:00:00Z": let it expire, then fix the test',
      { path: CONTRACT, line: 21 },
    ),
    finding(
      "property.removed",
      'Property "roundtrip_stable" was removed or renamed away: restore it',
      { path: CONTRACT, line: 3 },
    ),
    finding(
      "tests.timeout",
      "The test run was stopped at its time limit of 600000 ms",
    ),
    finding(
      "harness.pytest_config_changed",
      'The pull request changed pytest configuration "pyproject.toml"',
      { path: "pyproject.toml" },
    ),
    finding(
      "config.settings_ignored",
      'The pull request changes "pawl.toml"; only the base commit\'s copy decides how it is judged',
      { path: "pawl.toml" },
    ),
    finding(
      "freeze.rerun_used",
      'Frozen test "tests/test_report.py::test_render" failed and passed on rerun 1 of 2',
      { path: "tests/test_report.py", line: 7 },
    ),
  ];
}

/** A rejected verdict with {@linkcode mixedFindings}. */
export function rejectVerdict(): Verdict {
  return buildVerdict(mixedFindings(), input());
}

/** A message with every character the reports must escape. */
export const HOSTILE_MESSAGE =
  "Test \"a|b\" failed: <script>alert(1)</script> & 'x' > y\nsecond line\u0007 bell\r\ncarriage @octocat <!-- pawl:verdict --> `tick` **bold** __init__";

/** A rejected verdict whose findings carry {@linkcode HOSTILE_MESSAGE}. */
export function hostileVerdict(): Verdict {
  return buildVerdict([
    finding("tests.failed", HOSTILE_MESSAGE, {
      path: "tests/test_a|b <x>.py",
      line: 4,
    }),
    finding("seed.fresh_failed", HOSTILE_MESSAGE, { blocking: false }),
  ], input());
}

/** A rejected verdict with `n` failing tests. */
export function longVerdict(n: number): Verdict {
  return buildVerdict(
    Array.from(
      { length: n },
      (_, i) =>
        finding("tests.failed", `Test "tests/test_many.py::test_${i}" failed`, {
          path: "tests/test_many.py",
          line: i + 1,
        }),
    ),
    input(),
  );
}
