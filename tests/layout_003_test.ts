/**
 * Seed 003's decision table and workflow, end to end: a real repository
 * whose base holds `invariants.toml` (source hashes computed by seed 003's
 * own Python), `fixtures.lock` and `freeze.yml`, real Hypothesis
 * properties and frozen tests, one head branch per row, each judged
 * through the CLI with a real sandboxed pytest run.
 */
import assert from "node:assert/strict";
import { check, type VerdictJson } from "./_cli.ts";
import {
  assertJudged,
  CLOCK_EXPIRES,
  CLOCK_FREEZE,
  L003,
  layout003Base,
  MONEY_SPLIT_FIX,
  PRICES_FIXTURE,
  propertyRow,
  ROUNDING_FREEZE,
  seed003Hashes,
  withoutMutationNotes,
} from "./_layouts.ts";
import {
  buildRepo,
  edit,
  type FileEdit,
  replaceOnce,
  sha256,
  type TestRepo,
} from "./_repo.ts";

/** The fixture as a weakening patch leaves it (two prices dropped). */
const WEAKER_FIXTURE = `[
  {"text": "7", "cents": 700}
]
`;

/** The fixture as a human rotates it (one price added). */
const ROTATED_FIXTURE = `[
  {"text": "12.34", "cents": 1234},
  {"text": "0.5", "cents": 50},
  {"text": "7", "cents": 700},
  {"text": "1000.01", "cents": 100001}
]
`;

const TOTAL_PROPERTY_MODULE = "tests/properties/test_total_props.py";
const TOTAL_PROPERTY = `from hypothesis import given, settings, strategies as st

from shop.money import total


@settings(max_examples=10, deadline=None)
@given(st.lists(st.integers(0, 10**6), max_size=5), st.lists(st.integers(0, 10**6), max_size=5))
def test_total_is_additive(a, b):
    assert total(a + b) == total(a) + total(b)
`;

const SPLIT_TEST = `from shop.money import split_evenly


def test_split_keeps_every_cent():
    for cents in range(0, 50):
        for ways in range(1, 5):
            parts = split_evenly(cents, ways)
            assert len(parts) == ways
            assert sum(parts) == cents
            assert max(parts) - min(parts) <= 1
`;

/** A freeze entry for freeze.yml, indented as the base writes them. */
function freezeEntry(fields: Record<string, string>): string {
  const [first, ...rest] = Object.entries(fields);
  return [
    `  - ${first![0]}: ${first![1]}`,
    ...rest.map(([k, v]) => `    ${k}: ${v}`),
  ].join("\n") + "\n";
}

interface Case {
  /** Sentence naming the scenario. */
  name: string;
  /** Head branch. */
  branch: string;
  /** `--now`, when not the default. */
  now?: string;
  /** More CLI arguments. */
  extra?: string[];
  /** Exactly the blocking findings expected: rule id → layer. */
  blocks: Record<string, string>;
  /** More assertions on the verdict. */
  also?: (verdict: VerdictJson) => void;
}

/** `[freeze, bodyHash]` pairs of the verdict, in freeze.yml order. */
function bodyHashes(v: VerdictJson): [string, string][] {
  return v.contract.freezeBodyHashes.map((h) => [h.freeze, h.bodyHash]);
}

Deno.test("seed 003's decision table, judged through the CLI", async (t) => {
  const base = await layout003Base();
  const [additiveHash] = await seed003Hashes(
    { ...base.files, [TOTAL_PROPERTY_MODULE]: TOTAL_PROPERTY },
    [{
      module: "tests.properties.test_total_props",
      function: "test_total_is_additive",
    }],
  );
  // The agent re-records hashes to match its own edits.
  const weakerProperties = replaceOnce(
    base.files[L003.properties]!,
    "assert parse_amount(format_amount(cents)) == cents",
    "assert parse_amount(format_amount(cents)) >= 0",
  );
  const editedRounding = replaceOnce(
    base.files[L003.rounding]!,
    "assert round_cents(0.125) in (12, 13)",
    "assert round_cents(0.125) >= 0",
  );
  const [weakerHash, editedRoundingHash] = await seed003Hashes(
    {
      ...base.files,
      [L003.properties]: weakerProperties,
      [L003.rounding]: editedRounding,
    },
    [
      {
        module: "tests.properties.test_money",
        function: "test_format_parse_roundtrip",
      },
      { module: "tests.test_rounding", function: "test_banker_rounding" },
    ],
  );

  const heads: Record<string, Record<string, FileEdit>> = {
    "agent/unchanged": {
      "README.md": edit("Money helpers", "Money helpers (cents)"),
    },
    "agent/remove-property": {
      [L003.invariants]: edit(
        /\n\[\[property\]\]\nid = "money\.two_decimals"[^]*$/,
        "\n",
      ),
    },
    "agent/remove-property-and-lower-minimum": {
      [L003.invariants]: (text) =>
        replaceOnce(
          replaceOnce(
            text,
            /\n\[\[property\]\]\nid = "money\.two_decimals"[^]*$/,
            "\n",
          ),
          "min_properties = 3",
          "min_properties = 2",
        ),
    },
    "agent/lower-min-properties": {
      [L003.invariants]: edit("min_properties = 3", "min_properties = 2"),
    },
    "agent/weaken-assertion": { [L003.properties]: weakerProperties },
    "agent/weaken-assertion-and-rehash": {
      [L003.properties]: weakerProperties,
      [L003.invariants]: edit(
        base.propertyHashes["money.roundtrip"]!,
        weakerHash!,
      ),
    },
    "agent/lower-max-examples": {
      [L003.properties]: edit(
        "@settings(max_examples=15, deadline=None)",
        "@settings(max_examples=3, deadline=None)",
      ),
    },
    "agent/add-property": {
      [TOTAL_PROPERTY_MODULE]: TOTAL_PROPERTY,
      [L003.invariants]: (text) =>
        `${text}\n${
          propertyRow(
            "money.total.additive",
            "tests.properties.test_total_props",
            "test_total_is_additive",
            additiveHash!,
          )
        }`,
    },
    "agent/rewrite-fixture": { [L003.fixture]: WEAKER_FIXTURE },
    "human/rotate-fixture": {
      [L003.fixture]: ROTATED_FIXTURE,
      [L003.lock]: edit(sha256(PRICES_FIXTURE), sha256(ROTATED_FIXTURE)),
    },
    "agent/freeze-over-cap": {
      [L003.freeze]: (text) =>
        text + freezeEntry({
          id: "test_total_of_two_flaky",
          path: `${L003.total}::test_total_of_two`,
          body_sha256: `"${sha256(base.files[L003.total]!)}"`,
          reason: '"sum overflows on 32-bit hosts"',
          expires_on: '"2026-12-10"',
          owner: '"oncall-payments"',
        }),
    },
    "agent/raise-max-frozen": {
      [L003.freeze]: edit("max_frozen: 2", "max_frozen: 3"),
    },
    "agent/agent-owned-freeze": {
      [L003.freeze]: edit(
        `expires_on: "${CLOCK_EXPIRES}"\n    owner: "oncall-payments"`,
        `expires_on: "${CLOCK_EXPIRES}"\n    owner: "agent"`,
      ),
    },
    "agent/extend-expiry": {
      [L003.freeze]: edit(
        `expires_on: "${CLOCK_EXPIRES}"`,
        'expires_on: "2027-03-01"',
      ),
    },
    "agent/edit-frozen-test": { [L003.rounding]: editedRounding },
    "agent/edit-frozen-test-and-rehash": {
      [L003.rounding]: editedRounding,
      [L003.freeze]: edit(base.roundingFunctionHash, editedRoundingHash!),
    },
    "agent/freeze-without-body-hash": {
      [L003.freeze]: edit(`    body_sha256: "${base.clockFileHash}"\n`, ""),
    },
    "agent/comment-in-whole-file-frozen-test": {
      [L003.clock]: (text) => `# Touched by the agent.\n${text}`,
    },
    "agent/edit-beside-sliced-frozen-test": {
      [L003.rounding]: edit(
        "assert round_cents(3.0) == 300",
        "assert round_cents(3.0) == 300\n    assert round_cents(0.0) == 0",
      ),
    },
    "agent/honest-fix": {
      [L003.money]: edit(
        /def split_evenly[^]*$/,
        MONEY_SPLIT_FIX,
      ),
      "tests/test_split.py": SPLIT_TEST,
    },
    "agent/ci-red": {
      [L003.money]: edit(
        "return sum(amounts)",
        "return sum(amounts[:-1])",
      ),
    },
  };
  await using repo: TestRepo = await buildRepo({ base: base.files, heads });

  const allPassed = (v: VerdictJson) =>
    assert.deepEqual(
      v.tests?.properties.map((p) => [p.layout, p.id, p.outcome]),
      [
        ["003", "money.negative_refused", "passed"],
        ["003", "money.roundtrip", "passed"],
        ["003", "money.two_decimals", "passed"],
      ],
    );

  const CASES: Record<string, Case[]> = {
    "the contract held": [
      {
        name:
          "CI green with all three files unchanged is accepted, the hashes seed 003's Python recorded matching pawl's",
        branch: "agent/unchanged",
        blocks: {},
        also: (v) => {
          assert.deepEqual(v.contract.layouts, ["003"]);
          assert.deepEqual(
            v.contract.files.map((f) => [f.path, f.layout]),
            [
              [L003.invariants, "003"],
              [L003.lock, "003"],
              [L003.freeze, "003"],
            ],
          );
          allPassed(v);
          assert.deepEqual(withoutMutationNotes(v.findings), []);
          assert.equal(v.options.allowFixtureRotate, false);
        },
      },
      {
        name:
          "a frozen test that fails is deselected while its freeze holds: the run is green without it",
        branch: "agent/unchanged",
        blocks: {},
        also: (v) => {
          // 8 tests at base; both frozen tests are deselected, and the
          // clock test (which always fails in the sandbox: no TZ) with them.
          assert.deepEqual(
            [v.tests?.summary["total"], v.tests?.summary["failed"]],
            [6, 0],
          );
          assert.ok(
            !v.findings.some((f) => f.message.includes("test_clock_skew")),
          );
        },
      },
      {
        name:
          "a freeze still holds on the last second of its expires_on date (UTC)",
        branch: "agent/unchanged",
        now: `${CLOCK_EXPIRES}T23:59:59Z`,
        blocks: {},
      },
      {
        name: "an honest code fix with a new unit test is accepted",
        branch: "agent/honest-fix",
        blocks: {},
        also: (v) => {
          allPassed(v);
          assert.deepEqual(
            [v.tests?.summary["total"], v.tests?.summary["passed"]],
            [7, 7],
          );
        },
      },
      {
        name:
          "an edit beside a function-hashed frozen test is accepted: the freeze pins the function, not the file",
        branch: "agent/edit-beside-sliced-frozen-test",
        blocks: {},
        also: (v) =>
          assert.deepEqual(bodyHashes(v), [
            [CLOCK_FREEZE, "file"],
            [ROUNDING_FREEZE, "function"],
          ]),
      },
    ],
    "property": [
      {
        name:
          "a property id removed is rejected, and the registry falls below min_properties",
        branch: "agent/remove-property",
        blocks: {
          "property.below_minimum": "property",
          "property.removed": "property",
        },
        also: (v) => {
          const removed = v.findings.find((f) => f.rule === "property.removed");
          assert.match(removed?.message ?? "", /"money\.two_decimals"/);
          assert.equal(removed?.path, L003.invariants);
        },
      },
      {
        name:
          "a removal hidden by lowering min_properties is still below the base's minimum",
        branch: "agent/remove-property-and-lower-minimum",
        blocks: {
          "property.below_minimum": "property",
          "property.policy_loosened": "property",
          "property.removed": "property",
        },
      },
      {
        name: "min_properties lowered is rejected as a loosened policy",
        branch: "agent/lower-min-properties",
        blocks: { "property.policy_loosened": "property" },
      },
      {
        name:
          "an edited assertion changes the property's source hash and is rejected",
        branch: "agent/weaken-assertion",
        blocks: {
          "property.assertion_removed": "property",
          "property.source_changed": "property",
        },
        also: (v) => {
          const changed = v.findings.find((f) =>
            f.rule === "property.source_changed"
          );
          assert.equal(changed?.path, L003.properties);
          assert.match(
            changed?.message ?? "",
            new RegExp(
              `expected ${
                base.propertyHashes["money.roundtrip"]!.slice(0, 12)
              }`,
            ),
          );
        },
      },
      {
        name:
          "an edited assertion whose new hash the agent recorded in invariants.toml is still rejected",
        branch: "agent/weaken-assertion-and-rehash",
        blocks: {
          "property.assertion_removed": "property",
          "property.source_changed": "property",
        },
        also: (v) =>
          assert.deepEqual(
            v.findings.filter((f) => f.rule === "property.source_changed")
              .map((f) => f.path).sort(),
            [L003.invariants, L003.properties],
          ),
      },
      {
        name:
          "max_examples lowered in the decorator keeps the source hash but is rejected as examples lowered",
        branch: "agent/lower-max-examples",
        // The static rule sees the lowered count; the run sees fewer
        // examples executed than the base's oracle executes.
        blocks: {
          "property.examples_lowered": "property",
          "property.examples_not_executed": "property",
        },
        also: (v) => {
          const lowered = v.findings.find((f) =>
            f.rule === "property.examples_lowered"
          );
          assert.equal(lowered?.path, L003.properties);
          assert.ok(
            !v.findings.some((f) => f.rule === "property.source_changed"),
          );
        },
      },
      {
        name:
          "a property added while allow_agent_additions is false is rejected, though its hash is right and it passes",
        branch: "agent/add-property",
        blocks: { "property.addition_forbidden": "property" },
        also: (v) =>
          assert.ok(
            v.tests?.properties.some((p) =>
              p.id === "money.total.additive" && p.outcome === "passed"
            ),
          ),
      },
    ],
    "fixture": [
      {
        name: "fixture bytes changed without the rotate flag are rejected",
        branch: "agent/rewrite-fixture",
        blocks: { "fixture.digest_mismatch": "fixture" },
      },
      {
        name:
          "fixture bytes and lock changed together without --allow-fixture-rotate are rejected",
        branch: "human/rotate-fixture",
        blocks: { "fixture.digest_changed": "fixture" },
      },
      {
        name:
          "fixture bytes and lock changed together with --allow-fixture-rotate are accepted as a recorded rotation",
        branch: "human/rotate-fixture",
        extra: ["--allow-fixture-rotate"],
        blocks: {},
        also: (v) => {
          assert.equal(v.options.allowFixtureRotate, true);
          assert.deepEqual(
            withoutMutationNotes(v.findings).map((
              f,
            ) => [f.rule, f.layer, f.blocking, f.path]),
            [["fixture.rotated", "fixture", false, L003.fixture]],
          );
        },
      },
    ],
    "freeze": [
      {
        name: "a freeze count over max_frozen is rejected",
        branch: "agent/freeze-over-cap",
        blocks: { "freeze.over_cap": "freeze" },
      },
      {
        name: "max_frozen raised is rejected",
        branch: "agent/raise-max-frozen",
        blocks: { "freeze.cap_raised": "freeze" },
      },
      {
        name:
          "a freeze owned by the agent is rejected and its failing test returns to the gate",
        branch: "agent/agent-owned-freeze",
        blocks: { "freeze.agent_owner": "freeze", "tests.failed": "tests" },
        also: (v) => {
          const failed = v.findings.find((f) => f.rule === "tests.failed");
          assert.equal(failed?.path, L003.clock);
          assert.match(failed?.message ?? "", /test_clock_skew/);
        },
      },
      {
        name:
          "a freeze past expires_on at --now fails closed and its test returns to the gate",
        branch: "agent/unchanged",
        now: "2026-12-16T00:00:00Z",
        blocks: { "freeze.expired": "freeze", "tests.failed": "tests" },
        also: (v) => {
          const expired = v.findings.find((f) => f.rule === "freeze.expired");
          assert.match(expired?.message ?? "", new RegExp(CLOCK_FREEZE));
          assert.equal(v.tests?.summary["failed"], 1);
        },
      },
      {
        name: "a freeze's expiry extended by the agent is rejected",
        branch: "agent/extend-expiry",
        blocks: { "freeze.expiry_extended": "freeze" },
      },
      {
        name:
          "a function-hashed frozen test whose body changed is rejected, the verdict saying no hash matched",
        branch: "agent/edit-frozen-test",
        blocks: { "freeze.body_changed": "freeze" },
        also: (v) => {
          assert.deepEqual(bodyHashes(v), [
            [CLOCK_FREEZE, "file"],
            [ROUNDING_FREEZE, "none"],
          ]);
          const changed = v.findings.find((f) =>
            f.rule === "freeze.body_changed"
          );
          assert.equal(changed?.path, L003.rounding);
          assert.match(
            changed?.message ?? "",
            new RegExp(base.roundingFunctionHash.slice(0, 12)),
          );
        },
      },
      {
        name:
          "a frozen test edited together with its recorded body hash is rejected: the base record is enforced",
        branch: "agent/edit-frozen-test-and-rehash",
        blocks: { "freeze.body_changed": "freeze" },
        also: (v) => {
          assert.deepEqual(
            v.findings.filter((f) => f.rule === "freeze.body_changed")
              .map((f) => f.path).sort(),
            [L003.freeze, L003.rounding],
          );
          assert.deepEqual(bodyHashes(v), [
            [CLOCK_FREEZE, "file"],
            [ROUNDING_FREEZE, "none"],
          ]);
        },
      },
      {
        name: "a freeze that lacks body_sha256 is rejected as incomplete",
        branch: "agent/freeze-without-body-hash",
        blocks: { "freeze.incomplete": "freeze" },
        also: (v) =>
          assert.match(
            v.findings.find((f) => f.rule === "freeze.incomplete")?.message ??
              "",
            /"body_sha256"/,
          ),
      },
      {
        name:
          "a comment added to a whole-file-hashed frozen test's file is rejected as a body change",
        branch: "agent/comment-in-whole-file-frozen-test",
        blocks: { "freeze.body_changed": "freeze" },
        also: (v) =>
          assert.deepEqual(bodyHashes(v), [
            [CLOCK_FREEZE, "none"],
            [ROUNDING_FREEZE, "function"],
          ]),
      },
    ],
    "tests": [
      {
        name: "CI red with the three files unchanged is rejected",
        branch: "agent/ci-red",
        blocks: { "tests.failed": "tests" },
        also: (v) => {
          const failed = v.findings.find((f) => f.rule === "tests.failed");
          assert.equal(failed?.path, L003.total);
          allPassed(v);
        },
      },
    ],
  };

  for (const [group, cases] of Object.entries(CASES)) {
    await t.step(group, async (t) => {
      for (const c of cases) {
        await t.step(c.name, async () => {
          const result = await check(repo.dir, c.branch, {
            ...(c.now === undefined ? {} : { now: c.now }),
            ...(c.extra === undefined ? {} : { extra: c.extra }),
          });
          const verdict = assertJudged(result, c.blocks);
          assert.equal(verdict.head, await repo.commit(c.branch));
          assert.deepEqual(verdict.contract.layouts, ["003"]);
          c.also?.(verdict);
        });
      }
    });
  }

  await t.step(
    "every freeze's body hash is reported: one pins the whole file, one the sliced function",
    async () => {
      const result = await check(repo.dir, "agent/unchanged", {
        command: "diff",
      });
      const verdict = assertJudged(result, {});
      assert.deepEqual(bodyHashes(verdict), [
        [CLOCK_FREEZE, "file"],
        [ROUNDING_FREEZE, "function"],
      ]);
      assert.notEqual(base.clockFileHash, base.roundingFunctionHash);
      assert.match(
        base.files[L003.freeze]!,
        new RegExp(`body_sha256: "${base.clockFileHash}"`),
      );
    },
  );
});
