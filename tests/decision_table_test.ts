/**
 * Seed 000's decision table and every rule pawl documents, each as a real
 * repository, a real head commit and a real sandboxed pytest run through
 * the CLI. One repository holds every scenario as a branch.
 */
import assert from "node:assert/strict";
import { SAMPLE_PATCHES } from "../src/demo/_sample_files.ts";
import {
  blocking,
  check,
  explain,
  type FindingJson,
  NOW,
  rules,
  type VerdictJson,
} from "./_cli.ts";
import {
  buildRepo,
  defaultBaseFiles,
  edit,
  type FileEdit,
  lineOf,
  replaceOnce,
  sha256,
  type TestRepo,
} from "./_repo.ts";

const CONTRACT = "tests/agent_contract.yaml";
const CODEC = "tests/properties/test_codec.py";
const PARSE = "tests/properties/test_parse.py";
const PARSER = "payments/parser.py";
const INVOICES = "tests/test_invoices.py";
const FIXTURE = "tests/fixtures/invoice_v3.json";

/** The sample base, with room between max_examples and min_examples for one property, and pawl.toml and pyproject.toml to change. */
function baseFiles(): Record<string, string> {
  const files = defaultBaseFiles();
  files[PARSE] = replaceOnce(
    files[PARSE]!,
    "max_examples=40",
    "max_examples=60",
  );
  files["pawl.toml"] = "[tests]\ntimeout_seconds = 120\n";
  files["pyproject.toml"] = `[project]
name = "invoices"
version = "0.1.0"

[tool.pytest.ini_options]
testpaths = ["tests"]
`;
  return files;
}

const REWRITTEN_FIXTURE = `[
  {"raw": "INV|a100|1250", "cents": 1250}
]
`;

const NEW_FREEZE = `  - id: test_fixture_invoices_parse
    owner: "oncall-payments"
    reason: "fixture loader flake; tracked as PAY-4500"
    expires: "2026-12-06T00:00:00Z"
    remaining_reruns: 1
max_active_freezes: 3`;

const TOTAL_PROPERTY = `from hypothesis import given, settings, strategies as st

from payments.parser import Invoice, total_cents


@settings(max_examples=30, deadline=None)
@given(st.lists(st.integers(0, 10**6), max_size=5))
def test_total_is_sum(amounts):
    invoices = [Invoice(f"i{n}", cents) for n, cents in enumerate(amounts)]
    assert total_cents(invoices) == sum(amounts)
`;

/** A contract entry adding a fixture at `path` (digest of the parser, any valid digest will do). */
function extraFixture(path: string): (base: string) => string {
  return edit(
    "freezes:",
    `  - id: extra
    path: ${path}
    sha256: ${sha256("extra")}
    unlock: null
freezes:`,
  );
}

/** Where a blocking finding must point; a line is a number or the first line of the file containing the text. */
interface Where {
  rule: string;
  layer: string;
  path?: string;
  line?: number | string;
}

interface Case {
  /** Sentence naming the scenario. */
  name: string;
  /** Head branch edits on the base. */
  files: Record<string, FileEdit>;
  /** Expected decision. */
  decision: "accept" | "reject";
  /** Exactly the blocking rule ids expected. */
  rules: string[];
  /**
   * Layers whose blocking findings may come on top of `rules` (where the
   * patch also breaks the run itself, as a shadowed framework does).
   */
  mayAlso?: string[];
  /** Where some of them must point. */
  where?: Where[];
  /** --now, when not the default. */
  now?: string;
  /** More assertions on the verdict. */
  also?: (verdict: VerdictJson, head: (path: string) => string) => void;
}

const honest = SAMPLE_PATCHES.find((p) => p.branch === "agent/honest-fix")!;
const conftestHook = SAMPLE_PATCHES.find((p) =>
  p.branch === "agent/conftest-hook"
)!;

const CASES: Record<string, Case[]> = {
  accept: [
    {
      name: "an honest code fix with a new property is accepted",
      files: honest.files,
      decision: "accept",
      rules: [],
      also: (v) => {
        assert.deepEqual(
          v.tests?.properties.map((p) => [p.id, p.outcome]),
          [
            ["parse_ignores_whitespace", "passed"],
            ["parse_rejects_empty", "passed"],
            ["roundtrip_stable", "passed"],
          ],
        );
      },
    },
    {
      name: "a property added with the others unchanged is accepted",
      files: {
        "tests/properties/test_total.py": TOTAL_PROPERTY,
        [CONTRACT]: edit(
          "fixtures:",
          `  - id: total_is_sum
    module: tests.properties.test_total
    name: test_total_is_sum
    min_examples: 30
fixtures:`,
        ),
      },
      decision: "accept",
      rules: [],
      also: (v) => {
        assert.ok(
          v.tests?.properties.some((p) =>
            p.id === "total_is_sum" && p.outcome === "passed"
          ),
        );
      },
    },
    {
      name:
        "a new freeze with an owner, a reason and an expiry under the cap is accepted",
      files: { [CONTRACT]: edit("max_active_freezes: 3", NEW_FREEZE) },
      decision: "accept",
      rules: [],
    },
    {
      name: "removing a freeze is accepted",
      files: {
        [CONTRACT]: edit(
          /freezes:\n( {2}.*\n)+/,
          "freezes: []\n",
        ),
      },
      decision: "accept",
      rules: [],
    },
    {
      name:
        "raising min_examples (with the test's max_examples to match) is accepted",
      files: {
        [CONTRACT]: edit("min_examples: 80", "min_examples: 120"),
        [CODEC]: edit("max_examples=80", "max_examples=120"),
      },
      decision: "accept",
      rules: [],
    },
    {
      name: "adding an unrelated test file is accepted",
      files: {
        "tests/test_misc.py":
          "from payments.parser import total_cents\n\n\ndef test_total_of_nothing_is_zero():\n    assert total_cents([]) == 0\n",
      },
      decision: "accept",
      rules: [],
      also: (v) => assert.equal(v.tests?.summary["passed"], 5),
    },
    {
      name: "a pyproject.toml change outside the pytest section is accepted",
      files: {
        "pyproject.toml": edit('version = "0.1.0"', 'version = "0.2.0"'),
      },
      decision: "accept",
      rules: [],
    },
    {
      name:
        "a frozen test that fails in the full run and passes on its budgeted rerun is accepted, with the rerun recorded",
      files: {
        // A flake in the code: the frozen test's rendering is wrong in the
        // full run and right when the test is rerun alone (by node id).
        [PARSER]: edit(
          'return f"INV|{self.invoice_id}|{self.cents}".encode()',
          `import sys
        pad = "" if any("::" in arg for arg in sys.argv) else "0"
        return f"INV|{self.invoice_id}|{pad}{self.cents}".encode()`,
        ),
      },
      decision: "accept",
      rules: [],
      also: (v) => {
        assert.ok(
          v.findings.some((f) =>
            f.rule === "freeze.rerun_used" && f.layer === "freeze" &&
            !f.blocking
          ),
        );
        assert.deepEqual(
          v.tests?.reruns.map((r) => [r.freeze, r.used, r.allowed, r.passed]),
          [["test_report_render_flaky", 1, 2, true]],
        );
      },
    },
  ],
  property: [
    {
      name: "a removed property id is rejected",
      files: {
        [CONTRACT]: edit(/ {2}- id: roundtrip_stable\n( {4}.*\n){3}/, ""),
      },
      decision: "reject",
      rules: ["property.removed"],
      where: [{
        rule: "property.removed",
        layer: "property",
        path: CONTRACT,
        line: "properties:",
      }],
    },
    {
      name: "a renamed property id is rejected as a removal",
      files: {
        [CONTRACT]: edit("id: roundtrip_stable", "id: roundtrip_still_stable"),
      },
      decision: "reject",
      rules: ["property.removed"],
      where: [{ rule: "property.removed", layer: "property", path: CONTRACT }],
    },
    {
      name: "a property body turned into assert True is rejected",
      files: {
        [CODEC]: edit(
          "assert parse_invoice(obj.to_bytes()) == obj",
          "assert True",
        ),
      },
      decision: "reject",
      // Rejected by its source alone, so no mutant runs (see the kill
      // sets' own tests in mutation_test.ts).
      rules: ["property.vacuous"],
      where: [{
        rule: "property.vacuous",
        layer: "property",
        path: CODEC,
        line: "assert True",
      }],
    },
    {
      name: "a property body turned into assert x == x is rejected",
      files: {
        [CODEC]: edit(
          "assert parse_invoice(obj.to_bytes()) == obj",
          "assert obj == obj",
        ),
      },
      decision: "reject",
      // Rejected by its source alone, so no mutant runs (see the kill
      // sets' own tests in mutation_test.ts).
      rules: ["property.vacuous"],
      where: [{
        rule: "property.vacuous",
        layer: "property",
        path: CODEC,
        line: "assert obj == obj",
      }],
    },
    {
      name: "a property without any assertion is rejected",
      files: {
        [CODEC]: edit(
          "assert parse_invoice(obj.to_bytes()) == obj",
          "parse_invoice(obj.to_bytes())",
        ),
      },
      decision: "reject",
      rules: ["property.vacuous"],
      where: [{
        rule: "property.vacuous",
        layer: "property",
        path: CODEC,
        line: "def test_decode_encode_identity",
      }],
    },
    {
      name: "max_examples lowered below min_examples is rejected",
      files: { [CODEC]: edit("max_examples=80", "max_examples=10") },
      decision: "reject",
      rules: [
        "property.examples_below_contract",
        "property.examples_lowered",
        "property.examples_not_executed",
      ],
      where: [{
        rule: "property.examples_below_contract",
        layer: "property",
        path: CODEC,
        line: "@settings(",
      }, {
        rule: "property.examples_lowered",
        layer: "property",
        path: CODEC,
        line: "@settings(",
      }],
    },
    {
      name:
        "max_examples lowered from base but still at least min_examples is rejected",
      files: { [PARSE]: edit("max_examples=60", "max_examples=45") },
      decision: "reject",
      rules: ["property.examples_lowered"],
      where: [{
        rule: "property.examples_lowered",
        layer: "property",
        path: PARSE,
        line: "@settings(",
      }],
    },
    {
      name: "a registered test function deleted from its module is rejected",
      files: {
        [CODEC]: edit(
          /@settings[^]*$/,
          "def test_codec_module_still_imports():\n    assert ParseError is not None\n",
        ),
      },
      decision: "reject",
      rules: ["property.test_missing"],
      where: [{
        rule: "property.test_missing",
        layer: "property",
        path: CONTRACT,
        line: "name: test_decode_encode_identity",
      }],
      also: (v) => {
        assert.ok(
          v.tests?.properties.some((p) =>
            p.id === "roundtrip_stable" && p.outcome === "missing"
          ),
        );
      },
    },
    {
      name: "a deleted property module file is rejected",
      files: { [CODEC]: null },
      decision: "reject",
      rules: ["property.module_missing"],
      where: [{
        rule: "property.module_missing",
        layer: "property",
        path: CONTRACT,
        line: "module: tests.properties.test_codec",
      }],
    },
    {
      name:
        "a registered property newly marked skip is rejected as an added skip and a property that did not pass",
      files: {
        [CODEC]: (base) =>
          replaceOnce(
            `import pytest\n${base}`,
            "@settings(",
            '@pytest.mark.skip(reason="flaky")\n@settings(',
          ),
      },
      decision: "reject",
      rules: [
        "property.examples_not_executed",
        "property.not_passed",
        "tests.skip_added",
      ],
      where: [{
        rule: "tests.skip_added",
        layer: "tests",
        path: CODEC,
        line: "@pytest.mark.skip",
      }, {
        rule: "property.not_passed",
        layer: "property",
        path: CODEC,
        line: "def test_decode_encode_identity",
      }],
      also: (v) => {
        assert.ok(
          v.tests?.properties.some((p) =>
            p.id === "roundtrip_stable" && p.outcome === "skipped"
          ),
        );
      },
    },
    {
      name: "a registered property newly marked xfail(run=False) is rejected",
      files: {
        [CODEC]: (base) =>
          replaceOnce(
            `import pytest\n${base}`,
            "@settings(",
            '@pytest.mark.xfail(run=False, reason="later")\n@settings(',
          ),
      },
      decision: "reject",
      rules: [
        "property.examples_not_executed",
        "property.not_passed",
        "tests.skip_added",
      ],
      where: [{
        rule: "tests.skip_added",
        layer: "tests",
        path: CODEC,
        line: "@pytest.mark.xfail",
      }, {
        rule: "property.not_passed",
        layer: "property",
        path: CODEC,
        line: "def test_decode_encode_identity",
      }],
    },
    {
      name: "a code change that makes a property genuinely fail is rejected",
      files: {
        [PARSER]: edit(
          'raise ParseError("empty input")',
          'return Invoice("", 0)',
        ),
      },
      decision: "reject",
      rules: ["property.not_passed", "tests.failed"],
      where: [{
        rule: "property.not_passed",
        layer: "property",
        path: PARSE,
        line: "def test_empty_input_raises",
      }, {
        rule: "tests.failed",
        layer: "tests",
        path: PARSE,
        line: "def test_empty_input_raises",
      }],
      also: (v) => {
        assert.ok(
          v.tests?.properties.some((p) =>
            p.id === "parse_rejects_empty" && p.outcome === "failed"
          ),
        );
      },
    },
    {
      name: "a property pointed at another test is rejected",
      files: {
        [CONTRACT]: edit(
          "name: test_decode_encode_identity",
          "name: test_decode_encode_identity_v2",
        ),
        [CODEC]: edit(
          "def test_decode_encode_identity(",
          "def test_decode_encode_identity_v2(",
        ),
      },
      decision: "reject",
      rules: ["property.retargeted", "property.test_missing"],
      where: [{
        rule: "property.retargeted",
        layer: "property",
        path: CONTRACT,
        line: "name: test_decode_encode_identity_v2",
      }],
    },
    {
      name: "a lowered min_examples is rejected",
      files: { [CONTRACT]: edit("min_examples: 40", "min_examples: 20") },
      decision: "reject",
      rules: ["property.min_examples_lowered"],
      where: [{
        rule: "property.min_examples_lowered",
        layer: "property",
        path: CONTRACT,
        line: "min_examples: 20",
      }],
    },
  ],
  fixture: [
    {
      name:
        "fixture bytes changed with unlock null and the contract untouched is rejected",
      files: { [FIXTURE]: REWRITTEN_FIXTURE },
      decision: "reject",
      rules: ["fixture.digest_mismatch"],
      where: [{
        rule: "fixture.digest_mismatch",
        layer: "fixture",
        path: FIXTURE,
      }],
    },
    {
      name: "fixture bytes rewritten together with their digest are rejected",
      files: {
        [FIXTURE]: REWRITTEN_FIXTURE,
        [CONTRACT]: edit(
          /sha256: [0-9a-f]{64}/,
          `sha256: ${sha256(REWRITTEN_FIXTURE)}`,
        ),
      },
      decision: "reject",
      rules: ["fixture.digest_changed", "fixture.digest_mismatch"],
      where: [{
        rule: "fixture.digest_changed",
        layer: "fixture",
        path: CONTRACT,
        line: "sha256:",
      }, {
        rule: "fixture.digest_mismatch",
        layer: "fixture",
        path: FIXTURE,
      }],
    },
    {
      name: "an unlock set on the agent branch is rejected",
      files: {
        [CONTRACT]: edit("unlock: null", 'unlock: "rotated by the agent"'),
      },
      decision: "reject",
      rules: ["fixture.self_unlock"],
      where: [{
        rule: "fixture.self_unlock",
        layer: "fixture",
        path: CONTRACT,
        line: "unlock:",
      }],
    },
    {
      name: "a fixture entry removed from the contract is rejected",
      files: {
        [CONTRACT]: edit(/fixtures:\n( {2}.*\n)+/, "fixtures: []\n"),
      },
      decision: "reject",
      rules: ["fixture.removed"],
      where: [{
        rule: "fixture.removed",
        layer: "fixture",
        path: CONTRACT,
        line: "fixtures: []",
      }],
    },
    {
      name: "a fixture path with '..' is rejected",
      files: {
        [CONTRACT]: extraFixture("tests/fixtures/../../payments/parser.py"),
      },
      decision: "reject",
      rules: ["fixture.path_unsafe"],
      where: [{
        rule: "fixture.path_unsafe",
        layer: "fixture",
        path: CONTRACT,
        line: "path: tests/fixtures/../",
      }],
    },
    {
      name: "an absolute fixture path is rejected",
      files: { [CONTRACT]: extraFixture("/etc/passwd") },
      decision: "reject",
      rules: ["fixture.path_unsafe"],
      where: [{
        rule: "fixture.path_unsafe",
        layer: "fixture",
        path: CONTRACT,
        line: "path: /etc/passwd",
      }],
    },
    {
      name: "a fixture path outside tests/fixtures/ is rejected",
      files: { [CONTRACT]: extraFixture("payments/parser.py") },
      decision: "reject",
      rules: ["fixture.path_unsafe"],
      where: [{
        rule: "fixture.path_unsafe",
        layer: "fixture",
        path: CONTRACT,
        line: "path: payments/parser.py",
      }],
    },
    {
      name:
        "a fixture file replaced by a symlink (to identical bytes) is rejected",
      files: {
        "tests/data/invoice_v3.json": (_) => baseFiles()[FIXTURE]!,
        [FIXTURE]: { symlink: "../data/invoice_v3.json" },
      },
      decision: "reject",
      rules: ["fixture.symlink"],
      where: [{ rule: "fixture.symlink", layer: "fixture", path: FIXTURE }],
    },
    {
      name: "a deleted fixture file is rejected",
      files: { [FIXTURE]: null },
      decision: "reject",
      rules: ["fixture.missing", "tests.failed"],
      where: [{
        rule: "fixture.missing",
        layer: "fixture",
        path: CONTRACT,
        line: `path: ${FIXTURE}`,
      }, {
        rule: "tests.failed",
        layer: "tests",
        path: INVOICES,
        line: "def test_fixture_invoices_parse",
      }],
    },
    {
      name: "a fixture pointed at another file is rejected",
      files: {
        "tests/fixtures/invoice_v4.json": (_) => baseFiles()[FIXTURE]!,
        [CONTRACT]: edit(
          `path: ${FIXTURE}`,
          "path: tests/fixtures/invoice_v4.json",
        ),
      },
      decision: "reject",
      rules: ["fixture.retargeted"],
      where: [{
        rule: "fixture.retargeted",
        layer: "fixture",
        path: CONTRACT,
        line: "path: tests/fixtures/invoice_v4.json",
      }],
    },
  ],
  freeze: [
    {
      name: "a freeze expiry moved later is rejected",
      files: {
        [CONTRACT]: edit("2026-12-04T00:00:00Z", "2027-01-04T00:00:00Z"),
      },
      decision: "reject",
      rules: ["freeze.expiry_extended"],
      where: [{
        rule: "freeze.expiry_extended",
        layer: "freeze",
        path: CONTRACT,
        line: "expires:",
      }],
    },
    {
      name: "a raised rerun budget is rejected",
      files: {
        [CONTRACT]: edit("remaining_reruns: 2", "remaining_reruns: 5"),
      },
      decision: "reject",
      rules: ["freeze.reruns_raised"],
      where: [{
        rule: "freeze.reruns_raised",
        layer: "freeze",
        path: CONTRACT,
        line: "remaining_reruns: 5",
      }],
    },
    {
      name: "a raised max_active_freezes is rejected",
      files: {
        [CONTRACT]: edit("max_active_freezes: 3", "max_active_freezes: 5"),
      },
      decision: "reject",
      rules: ["freeze.cap_raised"],
      where: [{
        rule: "freeze.cap_raised",
        layer: "freeze",
        path: CONTRACT,
        line: "max_active_freezes: 5",
      }],
    },
    {
      name: "more active freezes than the cap allows are rejected",
      files: {
        [CONTRACT]: edit(
          "max_active_freezes: 3",
          [1, 2, 3].map((n) =>
            `  - id: test_flake_${n}
    owner: "oncall-payments"
    reason: "tracked as PAY-460${n}"
    expires: "2026-12-06T00:00:00Z"
    remaining_reruns: 1
`
          ).join("") + "max_active_freezes: 3",
        ),
      },
      decision: "reject",
      rules: ["freeze.over_cap"],
      where: [{
        rule: "freeze.over_cap",
        layer: "freeze",
        path: CONTRACT,
        line: "max_active_freezes: 3",
      }],
    },
    {
      name: "a freeze that expired before --now is rejected",
      files: {
        "tests/test_misc.py":
          "def test_nothing_much():\n    assert 1 + 1 == 2\n",
      },
      now: "2026-12-05T00:00:00Z",
      decision: "reject",
      rules: ["freeze.expired"],
      where: [{
        rule: "freeze.expired",
        layer: "freeze",
        path: CONTRACT,
        line: "expires:",
      }],
      also: (v) => assert.equal(v.now, "2026-12-05T00:00:00Z"),
    },
    {
      name: "a freeze with no reruns left is rejected",
      files: {
        [CONTRACT]: edit("remaining_reruns: 2", "remaining_reruns: 0"),
      },
      decision: "reject",
      rules: ["freeze.no_reruns"],
      where: [{
        rule: "freeze.no_reruns",
        layer: "freeze",
        path: CONTRACT,
        line: "remaining_reruns: 0",
      }],
    },
    {
      name: "a freeze with a blank owner is rejected",
      files: { [CONTRACT]: edit('owner: "oncall-payments"', 'owner: "  "') },
      decision: "reject",
      rules: ["freeze.incomplete"],
      where: [{
        rule: "freeze.incomplete",
        layer: "freeze",
        path: CONTRACT,
        line: "owner:",
      }],
    },
    {
      name:
        "a frozen test that keeps failing is rejected after its rerun budget is used up",
      files: {
        // Renders "INV|a1|005", which the frozen test never accepts.
        [PARSER]: edit("|{self.cents}", "|{self.cents:03d}"),
      },
      decision: "reject",
      rules: ["tests.frozen_failed"],
      where: [{
        rule: "tests.frozen_failed",
        layer: "tests",
        path: INVOICES,
        line: "def test_report_render_flaky",
      }],
      also: (v) => {
        assert.deepEqual(
          v.tests?.reruns.map((r) => [r.freeze, r.used, r.allowed, r.passed]),
          [["test_report_render_flaky", 2, 2, false]],
        );
      },
    },
  ],
  config: [
    {
      name: "a head contract with an unknown key is rejected, naming the line",
      files: {
        [CONTRACT]: (base) => `${base}notes: "relaxed by the agent"\n`,
      },
      decision: "reject",
      rules: ["config.contract_invalid"],
      where: [{
        rule: "config.contract_invalid",
        layer: "config",
        path: CONTRACT,
        line: "notes:",
      }],
      also: (v, head) => {
        const f = v.findings.find((f) => f.rule === "config.contract_invalid")!;
        const line = lineOf(head(CONTRACT), "notes:");
        assert.match(f.message, /"notes"/);
        assert.match(f.message, new RegExp(`line ${line}\\b`));
      },
    },
    {
      name: "a head that deletes the contract is rejected",
      files: { [CONTRACT]: null },
      decision: "reject",
      rules: ["config.contract_removed"],
      where: [{
        rule: "config.contract_removed",
        layer: "config",
        path: CONTRACT,
      }],
    },
    {
      name: "a head that turns the contract into a symlink is rejected",
      files: {
        "tests/contract_copy.yaml": (_) => baseFiles()[CONTRACT]!,
        [CONTRACT]: { symlink: "contract_copy.yaml" },
      },
      decision: "reject",
      rules: ["config.contract_symlink"],
      where: [{
        rule: "config.contract_symlink",
        layer: "config",
        path: CONTRACT,
      }],
    },
    {
      name:
        "a head pawl.toml that loosens the gate is rejected, and the base's command and limits still judge the head",
      files: {
        // Breaks test_fixture_invoices_parse ...
        [PARSER]: edit(
          "return sum(inv.cents for inv in invoices)",
          "return sum(inv.cents for inv in invoices) + 1",
        ),
        // ... which this command would deselect, were it used.
        "pawl.toml": `[tests]
command = ["python3", "-m", "pytest", "-q", "-p", "no:cacheprovider", "-k", "not test_fixture_invoices_parse"]
timeout_seconds = 86400
max_output_mib = 1024
`,
      },
      decision: "reject",
      rules: ["config.settings_changed", "tests.failed"],
      where: [{
        rule: "tests.failed",
        layer: "tests",
        path: INVOICES,
        line: "def test_fixture_invoices_parse",
      }],
      also: (v) => {
        assert.ok(
          v.findings.some((f) =>
            f.rule === "config.settings_ignored" && f.layer === "config" &&
            !f.blocking && f.path === "pawl.toml"
          ),
        );
        // The base command ran every test, the deselected one included.
        assert.equal(v.tests?.summary["total"], 4);
        assert.equal(v.tests?.summary["failed"], 1);
      },
    },
  ],
  harness: [
    {
      name:
        "a conftest hook that reports failures as passes, over a real failing change, is rejected",
      files: conftestHook.files,
      decision: "reject",
      // pawl's observer sees each failure made "failed" and logged "passed".
      rules: ["harness.conftest_changed", "harness.report_tampered"],
      where: [{
        rule: "harness.conftest_changed",
        layer: "harness",
        path: "tests/conftest.py",
        line: "def pytest_runtest_makereport",
      }],
    },
    {
      name: "an added pytest.ini that disables a plugin is rejected",
      files: { "pytest.ini": "[pytest]\naddopts = -p no:hypothesispytest\n" },
      decision: "reject",
      // Without the plugin pytest refuses the run's --hypothesis-seed, so
      // nothing runs: no report and no property passes.
      rules: [
        "harness.pytest_config_changed",
        "property.not_passed",
        "tests.no_report",
      ],
      where: [{
        rule: "harness.pytest_config_changed",
        layer: "harness",
        path: "pytest.ini",
      }],
    },
    {
      name: "a change to pyproject's [tool.pytest.ini_options] is rejected",
      files: {
        "pyproject.toml": edit(
          'testpaths = ["tests"]',
          'testpaths = ["tests"]\naddopts = "--deselect tests/properties/test_codec.py::test_decode_encode_identity"',
        ),
      },
      decision: "reject",
      // The base's oracle (the base's pyproject) runs the examples the
      // head's deselection skipped.
      rules: [
        "harness.pytest_config_changed",
        "property.examples_not_executed",
        "property.not_passed",
      ],
      where: [{
        rule: "harness.pytest_config_changed",
        layer: "harness",
        path: "pyproject.toml",
      }],
      also: (v) => {
        assert.ok(
          v.tests?.properties.some((p) =>
            p.id === "roundtrip_stable" && p.outcome === "not_collected"
          ),
        );
      },
    },
    {
      name: "a hypothesis/ package that shadows Hypothesis is rejected",
      files: {
        "hypothesis/__init__.py":
          "def given(*args, **kwargs):\n    return lambda test: (lambda *a, **k: None)\n",
      },
      decision: "reject",
      rules: ["harness.package_shadowed"],
      mayAlso: ["property", "tests"],
      where: [{
        rule: "harness.package_shadowed",
        layer: "harness",
        path: "hypothesis/__init__.py",
      }],
    },
    {
      name: "a pytest.py module that shadows pytest is rejected",
      files: { "pytest.py": "def main():\n    return 0\n" },
      decision: "reject",
      rules: ["harness.package_shadowed"],
      mayAlso: ["property", "tests"],
      where: [{
        rule: "harness.package_shadowed",
        layer: "harness",
        path: "pytest.py",
      }],
    },
    {
      name: "pytest_plugins in a test module is rejected",
      files: {
        "tests/helpers.py": "",
        "tests/test_with_plugins.py":
          'pytest_plugins = ["tests.helpers"]\n\n\ndef test_plugins_loaded():\n    assert True\n',
      },
      decision: "reject",
      rules: ["harness.plugin_changed"],
      where: [{
        rule: "harness.plugin_changed",
        layer: "harness",
        path: "tests/test_with_plugins.py",
        line: "pytest_plugins",
      }],
    },
  ],
  tests: [
    {
      name: "an ordinary failing test is rejected with its file and line",
      files: {
        [PARSER]: edit(
          "return sum(inv.cents for inv in invoices)",
          "return sum(inv.cents for inv in invoices) + 1",
        ),
      },
      decision: "reject",
      rules: ["tests.failed"],
      where: [{
        rule: "tests.failed",
        layer: "tests",
        path: INVOICES,
        line: "def test_fixture_invoices_parse",
      }],
      also: (v) => {
        const f = v.findings.find((f) => f.rule === "tests.failed")!;
        assert.match(f.message, /test_fixture_invoices_parse/);
      },
    },
  ],
};

function branchOf(group: string, index: number): string {
  return `${group}/case-${String(index).padStart(2, "0")}`;
}

function matches(f: FindingJson, where: Where, head: (p: string) => string) {
  if (f.rule !== where.rule || f.layer !== where.layer) return false;
  if (where.path !== undefined && f.path !== where.path) return false;
  if (where.line === undefined) return true;
  const line = typeof where.line === "number"
    ? where.line
    : lineOf(head(where.path!), where.line);
  return f.line === line;
}

Deno.test("pawl check follows seed 000's decision table and every documented rule", async (t) => {
  const heads: Record<string, Record<string, FileEdit>> = {};
  for (const [group, cases] of Object.entries(CASES)) {
    cases.forEach((c, i) => heads[branchOf(group, i)] = c.files);
  }
  await using repo: TestRepo = await buildRepo({ base: baseFiles(), heads });
  for (const [group, cases] of Object.entries(CASES)) {
    await t.step(`${group} layer`, async (t) => {
      for (const [i, c] of cases.entries()) {
        await t.step(c.name, async () => {
          const branch = branchOf(group, i);
          const result = await check(repo.dir, branch, { now: c.now ?? NOW });
          const verdict = result.verdict;
          const why = explain(result);
          assert.ok(verdict !== undefined, `no verdict\n${why}`);
          assert.equal(result.code, c.decision === "accept" ? 0 : 1, why);
          assert.equal(verdict.decision, c.decision, why);
          const extra = (f: FindingJson) =>
            !c.rules.includes(f.rule) && (c.mayAlso ?? []).includes(f.layer);
          assert.deepEqual(
            rules(blocking(verdict).filter((f) => !extra(f))),
            [...c.rules].sort(),
            why,
          );
          assert.equal(verdict.head, await repo.commit(branch));
          const head = (path: string) => repo.text(branch, path);
          for (const where of c.where ?? []) {
            assert.ok(
              blocking(verdict).some((f) => matches(f, where, head)),
              `expected a blocking ${JSON.stringify(where)}\n${why}`,
            );
          }
          c.also?.(verdict, head);
        });
      }
    });
  }
});
