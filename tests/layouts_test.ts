/**
 * Layouts together: every layout present at the base is judged, a layout
 * the head deletes is still enforced from the base, a base without any
 * contract cannot be decided, verdicts of seed-003 and seed-002 runs
 * (fresh seeds, replays and witnesses included) are reproducible, and
 * `pawl diff` gives their static findings without executing anything.
 */
import assert from "node:assert/strict";
import { freshSeed } from "../src/seeds/fresh_seed.ts";
import { check, explain, type FindingJson, NOW } from "./_cli.ts";
import {
  APPLY_MIN_TRIALS,
  assertJudged,
  FROZEN_SEED,
  L002,
  L003,
  layout002Base,
  layout003Base,
  LEGACY_BUG,
  RUN_RULES,
  seed003Hashes,
} from "./_layouts.ts";
import {
  buildRepo,
  defaultBaseFiles,
  edit,
  type FileEdit,
  sha256,
  type TestRepo,
} from "./_repo.ts";

const CONTRACT_000 = "tests/agent_contract.yaml";
const CODEC = "tests/properties/test_codec.py";
const FIXTURE_000 = "tests/fixtures/invoice_v3.json";
const APPLY_DEF = /def apply\(invoice_id: str\) -> str:[^]*$/;

/** The sample's seed-000 base plus seed 003's three files over the same tests. */
async function mixedBase(): Promise<Record<string, string>> {
  const files = defaultBaseFiles();
  const [codecHash] = await seed003Hashes(files, [{
    module: "tests.properties.test_codec",
    function: "test_decode_encode_identity",
  }]);
  return {
    ...files,
    [L003.invariants]: `[policy]
min_properties = 1
allow_agent_additions = true

[[property]]
id = "codec.roundtrip"
module = "tests.properties.test_codec"
function = "test_decode_encode_identity"
source_sha256 = "${codecHash}"
`,
    [L003.lock]: JSON.stringify(
      {
        policy: { allow_rotate_on_agent_pr: false },
        files: { [FIXTURE_000]: sha256(files[FIXTURE_000]!) },
      },
      null,
      2,
    ) + "\n",
    [L003.freeze]:
      "policy:\n  max_frozen: 1\n  fail_on_expired: true\nfreezes: []\n",
  };
}

/** A head test module that leaves a marker when imported, and fails. */
function markerTest(marker: string): string {
  return `import pathlib

pathlib.Path(${JSON.stringify(marker)}).write_text(__name__)


def test_marker():
    assert False, "the marker test always fails"
`;
}

Deno.test("a repository with seed 000's and seed 003's layouts is judged by both", async (t) => {
  const heads: Record<string, Record<string, FileEdit>> = {
    "agent/readme": { "README.md": edit("A tiny", "A small") },
    "agent/lower-min-examples": {
      [CONTRACT_000]: edit("min_examples: 80", "min_examples: 20"),
    },
    "agent/weaken-codec-property": {
      [CODEC]: edit(
        "assert parse_invoice(obj.to_bytes()) == obj",
        "assert parse_invoice(obj.to_bytes()).cents == obj.cents",
      ),
    },
    "agent/remove-freeze-yml": { [L003.freeze]: null },
    "agent/remove-003-layout": {
      [L003.invariants]: null,
      [L003.lock]: null,
      [L003.freeze]: null,
    },
  };
  await using repo: TestRepo = await buildRepo({
    base: await mixedBase(),
    heads,
  });
  const cases: {
    name: string;
    branch: string;
    blocks: Record<string, string>;
    also?: (findings: FindingJson[]) => void;
  }[] = [
    {
      name:
        "an unrelated change is accepted, with both layouts' properties run",
      branch: "agent/readme",
      blocks: {},
    },
    {
      name: "a weakening of the seed-000 contract rejects",
      branch: "agent/lower-min-examples",
      blocks: { "property.min_examples_lowered": "property" },
    },
    {
      name:
        "a weakened assertion is rejected by seed 003's source hash and by the assertion rule",
      branch: "agent/weaken-codec-property",
      // Comparing one field of both sides claims less than comparing
      // the whole: a weakening by its form, whatever the kill sets show.
      blocks: {
        "property.assertion_removed": "property",
        "property.source_changed": "property",
      },
    },
    {
      name:
        "freeze.yml present at base and deleted at head is a removed contract",
      branch: "agent/remove-freeze-yml",
      blocks: { "config.contract_removed": "config" },
      also: (findings) =>
        assert.deepEqual(
          findings.filter((f) => f.rule === "config.contract_removed")
            .map((f) => f.path),
          [L003.freeze],
        ),
    },
    {
      name:
        "the whole seed-003 layout deleted at head is three removed contracts, still enforced from the base",
      branch: "agent/remove-003-layout",
      blocks: { "config.contract_removed": "config" },
      also: (findings) =>
        assert.deepEqual(
          findings.filter((f) => f.rule === "config.contract_removed")
            .map((f) => f.path).sort(),
          [L003.lock, L003.freeze, L003.invariants].sort(),
        ),
    },
  ];
  for (const c of cases) {
    await t.step(c.name, async () => {
      const verdict = assertJudged(await check(repo.dir, c.branch), c.blocks);
      assert.deepEqual(verdict.contract.layouts, ["000", "003"]);
      assert.deepEqual(
        verdict.contract.files.map((f) => [f.layout, f.path]),
        [
          ["000", CONTRACT_000],
          ["003", L003.invariants],
          ["003", L003.lock],
          ["003", L003.freeze],
        ],
      );
      // Both layouts' registered properties ran on every head.
      assert.deepEqual(
        verdict.tests?.properties.map((p) => [p.layout, p.id, p.outcome]),
        [
          ["000", "parse_rejects_empty", "passed"],
          ["000", "roundtrip_stable", "passed"],
          ["003", "codec.roundtrip", "passed"],
        ],
      );
      c.also?.(verdict.findings);
    });
  }
});

Deno.test("the seed-002 layout deleted at head is still enforced from the base", async () => {
  await using repo: TestRepo = await buildRepo({
    base: layout002Base(),
    heads: {
      "agent/remove-002-layout": {
        [L002.contracts]: null,
        [L002.freeze]: null,
      },
    },
  });
  const verdict = assertJudged(
    await check(repo.dir, "agent/remove-002-layout"),
    {
      "config.contract_removed": "config",
      "freeze.file_touched": "freeze",
    },
  );
  assert.deepEqual(verdict.contract.layouts, ["002"]);
  assert.deepEqual(
    verdict.findings.filter((f) => f.rule === "config.contract_removed")
      .map((f) => f.path).sort(),
    [L002.contracts, L002.freeze],
  );
  assert.deepEqual(
    verdict.tests?.properties.map((p) => [p.id, p.outcome]),
    [
      ["ledger.apply.idempotent", "passed"],
      ["ledger.split_id.roundtrip", "passed"],
    ],
  );
  assert.deepEqual(
    verdict.tests?.seeds.replays.map((r) => [r.freeze, r.seed, r.passed]),
    [["F-184", FROZEN_SEED, true]],
  );
});

Deno.test("a base without any contract layout cannot be decided and points at pawl propose", async () => {
  const base = layout002Base();
  delete base[L002.contracts];
  delete base[L002.freeze];
  await using repo: TestRepo = await buildRepo({
    base,
    heads: { "agent/readme": { "README.md": edit("A ledger", "The ledger") } },
  });
  const result = await check(repo.dir, "agent/readme");
  const why = explain(result);
  assert.equal(result.code, 2, why);
  assert.match(result.stderr, /pawl propose/, why);
  for (const file of [CONTRACT_000, L003.invariants, L002.contracts]) {
    assert.ok(result.stderr.includes(`"${file}"`), why);
  }
  assert.equal(result.verdict?.decision, "undecided", why);
});

Deno.test("the same inputs give byte-identical verdicts for seed-003 and seed-002 repositories", async (t) => {
  const base003 = await layout003Base();
  await using repo003: TestRepo = await buildRepo({
    base: base003.files,
    heads: {
      "agent/red-and-weaker": {
        [L003.money]: edit("return sum(amounts)", "return sum(amounts[:-1])"),
        [L003.properties]: edit(
          "assert parse_amount(format_amount(cents)) == cents",
          "assert parse_amount(format_amount(cents)) >= 0",
        ),
      },
    },
  });
  await using repo002: TestRepo = await buildRepo({
    base: layout002Base(),
    heads: {
      "agent/legacy-bug": { [L002.ledger]: edit(APPLY_DEF, LEGACY_BUG) },
      "agent/break-split": {
        [L002.ledger]: edit(
          "return prefix, int(number), currency",
          "return prefix, int(number), currency.upper()",
        ),
      },
    },
  });
  const runs = [
    { layout: "003", repo: repo003, branch: "agent/red-and-weaker" },
    { layout: "002", repo: repo002, branch: "agent/legacy-bug" },
    { layout: "002", repo: repo002, branch: "agent/break-split" },
  ];
  for (const { layout, repo, branch } of runs) {
    await t.step(
      `${layout} ${branch}: two runs are byte-identical`,
      async () => {
        const first = await check(repo.dir, branch, { extra: ["--json"] });
        const second = await check(repo.dir, branch, { extra: ["--json"] });
        assert.equal(first.code, 1, explain(first));
        assert.ok(first.outText !== undefined && first.outText.length > 0);
        assert.equal(second.outText, first.outText);
        assert.equal(first.stdout, first.outText);
        assert.equal(second.stdout, first.outText);
        const verdict = first.verdict!;
        assert.deepEqual(verdict.contract.layouts, [layout]);
        assert.equal(
          verdict.tests?.seeds.fresh,
          freshSeed(await repo.commit(branch), NOW),
        );
        assert.ok(
          verdict.findings.some((f) => RUN_RULES.has(f.rule)),
          "a test-stage finding is part of the compared verdict",
        );
        if (layout === "002") {
          assert.equal(verdict.tests?.seeds.trials, APPLY_MIN_TRIALS);
          assert.deepEqual(
            verdict.tests?.seeds.replays.map((r) => r.seed),
            [FROZEN_SEED],
          );
        }
      },
    );
  }
});

Deno.test("pawl diff gives the static findings of pawl check on seed-003 and seed-002 weakenings, executing nothing", async (t) => {
  const dir = await Deno.makeTempDir({ prefix: "pawl-e2e-marker-" });
  try {
    const base003 = await layout003Base();
    const marker003 = `${dir}/executed-003`;
    const marker002 = `${dir}/executed-002`;
    await using repo003: TestRepo = await buildRepo({
      // Mutation off: where it runs, the kill sets settle the assertion
      // rewrite below, and the finding says what they showed, which pawl
      // diff, running nothing, cannot.
      base: {
        ...base003.files,
        "pawl.toml": `${
          base003.files["pawl.toml"] ?? ""
        }\n[mutation]\nenabled = false\n`,
      },
      heads: {
        "agent/weaken": {
          [L003.properties]: edit(
            "assert parse_amount(format_amount(cents)) == cents",
            "assert parse_amount(format_amount(cents)) >= 0",
          ),
          [L003.fixture]: '[\n  {"text": "7", "cents": 700}\n]\n',
          [L003.freeze]: edit("max_frozen: 2", "max_frozen: 4"),
          "tests/test_marker.py": markerTest(marker003),
        },
      },
    });
    await using repo002: TestRepo = await buildRepo({
      base: layout002Base(),
      heads: {
        "agent/weaken": {
          [L002.contracts]: edit(
            `min_trials: ${APPLY_MIN_TRIALS}`,
            "min_trials: 5",
          ),
          [L002.examples]: (text) =>
            `${text}\n\ndef test_apply_keeps_the_number():\n    assert apply("inv-00002-eur") == "INV-00002-EUR"\n`,
          [L002.freeze]: edit("skip: false", "skip: true"),
          "tests/test_marker.py": markerTest(marker002),
        },
      },
    });
    const runs = [
      {
        layout: "003",
        repo: repo003,
        marker: marker003,
        statics: [
          "fixture.digest_mismatch",
          "freeze.cap_raised",
          "property.assertion_removed",
          "property.source_changed",
        ],
      },
      {
        layout: "002",
        repo: repo002,
        marker: marker002,
        statics: [
          "freeze.file_touched",
          "property.min_trials_lowered",
          "tests.unproven",
        ],
      },
    ];
    for (const { layout, repo, marker, statics } of runs) {
      await t.step(
        `${layout}: pawl diff reports the static findings and leaves no marker`,
        async () => {
          const diff = await check(repo.dir, "agent/weaken", {
            command: "diff",
          });
          const verdict = assertJudged(
            diff,
            Object.fromEntries(statics.map((r) => [r, r.split(".")[0]!])),
          );
          assert.equal(verdict.tests, null);
          assert.equal(verdict.isolation, null);
          assert.deepEqual(verdict.contract.layouts, [layout]);
          await assert.rejects(Deno.lstat(marker), Deno.errors.NotFound);

          // The control: pawl check runs the head's tests (unsandboxed here,
          // so the marker can land), and adds only test-stage findings.
          const full = await check(repo.dir, "agent/weaken", {
            extra: ["--isolation", "none"],
          });
          assert.ok((await Deno.lstat(marker)).isFile, explain(full));
          assert.equal(full.code, 1, explain(full));
          const staticOfFull = full.verdict!.findings.filter((f) =>
            !RUN_RULES.has(f.rule)
          );
          assert.deepEqual(
            verdict.findings,
            staticOfFull,
            `${explain(diff)}\n${explain(full)}`,
          );
          assert.ok(
            full.verdict!.findings.some((f) =>
              f.rule === "tests.failed" && f.path === "tests/test_marker.py"
            ),
            explain(full),
          );
          assert.equal(verdict.base, full.verdict?.base);
          assert.equal(verdict.head, full.verdict?.head);
        },
      );
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
