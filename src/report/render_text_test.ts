import { equal, match } from "node:assert/strict";
import { finding } from "../core/finding.ts";
import { buildVerdict } from "../core/verdict.ts";
import { renderText } from "./render_text.ts";

const verdict = buildVerdict([
  finding("freeze.expiry_extended", 'Freeze "f" expiry moved later', {
    path: "tests/agent_contract.yaml",
    line: 21,
  }),
  finding("config.settings_ignored", "pawl.toml changed", {
    path: "pawl.toml",
  }),
], {
  pawl: { version: "0" },
  now: "2026-11-30T12:00:00Z",
  repo: ".",
  base: "1".repeat(40),
  head: "2".repeat(40),
  contract: {
    layouts: ["000"],
    files: [],
    digest: "sha256:abc",
    freezeBodyHashes: [],
  },
  options: { allowFixtureRotate: false, isolation: "auto" },
  isolation: { tier: "bwrap", network: "isolated" },
  tests: {
    summary: {
      total: 3,
      passed: 3,
      failed: 0,
      errors: 0,
      skipped: 0,
      xfailed: 0,
    },
    properties: [{ layout: "000", id: "p", outcome: "passed" }],
    reruns: [],
    seeds: { fresh: 7, trials: null, replays: [] },
  },
});

Deno.test("renderText() puts the decision first and each finding at file:line", () => {
  const text = renderText(verdict);
  const lines = text.split("\n");
  equal(
    lines[0],
    "REJECT  111111111111..222222222222  1 blocking finding",
  );
  equal(
    lines[1],
    '  ✗ tests/agent_contract.yaml:21: Freeze "f" expiry moved later [freeze.expiry_extended]',
  );
  equal(lines[2], "  • pawl.toml: pawl.toml changed [config.settings_ignored]");
  match(text, /tests: 3 passed, 0 failed/);
  match(text, /sandbox bwrap \(network isolated\)/);
});

Deno.test("renderText() uses colour only when asked", () => {
  equal(renderText(verdict).includes("\x1b["), false);
  equal(
    renderText(verdict, { color: true }).includes("\x1b[1;31mREJECT"),
    true,
  );
});

Deno.test("renderText() says what a static-only run (pawl diff) did not do", () => {
  const staticOnly = buildVerdict([], {
    pawl: { version: "0" },
    now: "2026-11-30T12:00:00Z",
    repo: ".",
    base: "1".repeat(40),
    head: "2".repeat(40),
    contract: {
      layouts: ["000"],
      files: [],
      digest: "sha256:abc",
      freezeBodyHashes: [],
    },
    options: { allowFixtureRotate: false, isolation: "auto" },
    isolation: null,
    tests: null,
  });
  const lines = renderText(staticOnly).split("\n");
  equal(
    lines[0],
    "ACCEPT  111111111111..222222222222  the contract held in the static checks; no tests were run",
  );
  equal(
    lines[1],
    "  not checked: the tests, the registered properties and the frozen seeds did not run " +
      "(static checks only; nothing from the repository was executed; pawl check runs them)",
  );
  match(lines[2] ?? "", /sandbox not used \(nothing ran\)/);
  equal(renderText(staticOnly).includes("tests passed"), false);
});

Deno.test("renderText() says briefly which interpreter, import path and variables the tests ran with", () => {
  const tests = verdict.tests;
  if (tests === null) throw new Error("the verdict ran tests");
  const text = renderText({
    ...verdict,
    tests: {
      ...tests,
      environment: {
        command: ["/opt/venv/bin/python", "-m", "pytest"],
        python: "/opt/venv/bin/python",
        pythonpath: ["src", "lib"],
        env: ["APP_MODE", "TZ_NAME"],
      },
      setup: {
        key: "e".repeat(64),
        command: ["true"],
        network: false,
        inputs: [],
      },
    },
  });
  const lines = text.split("\n");
  const at = lines.findIndex((l) => l.startsWith("  tests: "));
  equal(
    lines[at + 1],
    "  ran with: /opt/venv/bin/python; PYTHONPATH src:lib; env APP_MODE, TZ_NAME; setup eeeeeeeeeeee",
  );
  equal(renderText(verdict).includes("ran with"), false);
});

Deno.test("renderText() shows what a failed test showed under its finding, quoted", () => {
  const text = renderText(buildVerdict([
    finding(
      "property.not_passed",
      'Property "p" (tests/test_p.py::test_p) did not pass on seed 7: it failed with AssertionError',
      {
        path: "tests/test_p.py",
        line: 3,
        failure: {
          test: "tests/test_p.py::test_p",
          example: "test_p(\n    x=10,\n)",
          exception: "AssertionError: assert 10 < 10\nACCEPT  forged\x1b[2K",
          traceback: [
            ">       assert x < 10",
            "tests/test_p.py:4: AssertionError",
          ],
          reproduce:
            "CONTRACT_SEED=7 PYTHONHASHSEED=0 python3 -m pytest --hypothesis-seed=7 'tests/test_p.py::test_p'",
        },
      },
    ),
  ], verdict));
  const lines = text.split("\n");
  const at = lines.findIndex((l) => l.includes("[property.not_passed]"));
  equal(
    lines.slice(at + 1, at + 13).join("\n"),
    [
      "      falsifying example:",
      "      | test_p(",
      "      |     x=10,",
      "      | )",
      "      exception:",
      "      | AssertionError: assert 10 < 10",
      "      | ACCEPT  forged\ufffd[2K",
      "      traceback (last lines):",
      "      | >       assert x < 10",
      "      | tests/test_p.py:4: AssertionError",
      "      reproduce: CONTRACT_SEED=7 PYTHONHASHSEED=0 python3 -m pytest --hypothesis-seed=7 'tests/test_p.py::test_p'",
      "  tests: 3 passed, 0 failed, 0 errors, 0 skipped, 0 xfailed",
    ].join("\n"),
  );
  // Nothing the test printed starts a line of its own.
  for (const line of lines.slice(at + 1, at + 11)) {
    match(line, /^ {6}(\| |[a-z (),]+:)/);
  }
});

Deno.test("renderText() shows one failure once when two findings carry it", () => {
  const failure = {
    test: "tests/test_p.py::test_p",
    exception: "AssertionError: assert 10 < 10",
    reproduce: "python3 -m pytest 'tests/test_p.py::test_p'",
  };
  const text = renderText(buildVerdict([
    finding("property.not_passed", "Property p did not pass", { failure }),
    finding("tests.failed", 'Test "tests/test_p.py::test_p" failed', {
      failure,
    }),
    finding("tests.failed", 'Test "tests/test_q.py::test_q" failed', {
      failure: { ...failure, test: "tests/test_q.py::test_q" },
    }),
  ], verdict));
  equal(text.split("      reproduce: ").length - 1, 2);
  equal(text.split("      (what it showed is above)").length - 1, 1);
});
