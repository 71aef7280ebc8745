/**
 * Seed 002's merge gate, end to end: a real repository with
 * `contracts.yml`, `flake_freeze.yml`, a public `billing.ledger.apply` and
 * the seed's `test_apply_contract` (reading `CONTRACT_SEED` and
 * `CONTRACT_TRIALS`), judged through the CLI with real sandboxed pytest
 * runs, fresh seeds and frozen-seed replays.
 */
import assert from "node:assert/strict";
import { freshSeed } from "../src/seeds/fresh_seed.ts";
import { check, explain, NOW, type VerdictJson } from "./_cli.ts";
import {
  APPLY_MIN_TRIALS,
  APPLY_TEST,
  assertJudged,
  FROZEN_SEED,
  FROZEN_WITNESS,
  L002,
  layout002Base,
  LEGACY_BUG,
  PYTHON,
  runPytestDirectly,
  SEED_FREEZE_EXPIRES,
  SPLIT_TEST,
  withoutMutationNotes,
} from "./_layouts.ts";
import {
  buildRepo,
  edit,
  type FileEdit,
  git,
  hashDir,
  sha256,
  type TestRepo,
} from "./_repo.ts";

/** `apply` as the base writes it, up to the end of the file. */
const APPLY_DEF = /def apply\(invoice_id: str\) -> str:[^]*$/;

/** An honest refactor: the same behaviour, written another way. */
const HONEST_APPLY = `def apply(invoice_id: str) -> str:
    """Book an invoice id; an empty currency code is refused."""
    _, _, currency = invoice_id.rpartition("-")
    if currency == "":
        raise LedgerError(f"invoice {invoice_id!r} has no currency code")
    return _normalise(invoice_id)
`;

/** A bug every seed reaches: EUR invoices gain a mark on every apply. */
const EUR_BUG = `def apply(invoice_id: str) -> str:
    """Book an invoice id; an empty currency code is refused."""
    if invoice_id.endswith("-"):
        raise LedgerError(f"invoice {invoice_id!r} has no currency code")
    booked = _normalise(invoice_id)
    return booked + "~" if "EUR" in booked else booked
`;

/**
 * A bug the frozen seed's replay does not reach: USD invoices whose number
 * falls in one of `residues` (mod 50) are re-stamped on every apply. The
 * residues are those the frozen seed's first 50 draws never produce for a
 * USD invoice (and never 1, which the example test books).
 */
function settlementBug(residues: readonly number[]): string {
  return `SETTLED = frozenset({${residues.join(", ")}})


def apply(invoice_id: str) -> str:
    """Book an invoice id; an empty currency code is refused."""
    if invoice_id.endswith("-"):
        raise LedgerError(f"invoice {invoice_id!r} has no currency code")
    booked = _normalise(invoice_id)
    parts = booked.split("-")
    # Settlement batches re-stamp some USD invoices on every apply.
    if len(parts) == 3 and parts[2].startswith("USD") and parts[1].isdigit() and int(parts[1]) % 50 in SETTLED:
        return booked + "*"
    return booked
`;
}

/** Residues mod 50 of the USD invoice numbers the frozen seed never draws in 50 trials. */
async function residuesTheFrozenSeedMisses(): Promise<number[]> {
  const out = await new Deno.Command(PYTHON, {
    args: [
      "-c",
      `import json, random
rng = random.Random(${FROZEN_SEED})
seen = {1}
for _ in range(50):
    suffix = rng.choice(["usd", "eur", ""])
    number = rng.randint(1, 10_000)
    if suffix == "usd":
        seen.add(number % 50)
print(json.dumps(sorted(set(range(50)) - seen)))
`,
    ],
    stdout: "piped",
  }).output();
  assert.ok(out.success);
  return JSON.parse(new TextDecoder().decode(out.stdout));
}

const CURRENCY_OF = `

def currency_of(invoice_id: str) -> str:
    """The currency code of an invoice id ("" when it has none)."""
    return invoice_id.rpartition("-")[2]
`;

/** A contract test in the seed's style: the seed and the budget come from the environment. */
function contractTest(name: string, body: string): string {
  return `import os
import random
import time

TRIALS = int(os.environ.get("CONTRACT_TRIALS", "200"))
SEED = int(os.environ.get("CONTRACT_SEED", "0")) or int(time.time())


def ${name}():
    rng = random.Random(SEED)
    for _ in range(TRIALS):
        invoice_id = f"INV-{rng.randint(1, 10_000):05d}-{rng.choice(['usd', 'eur', ''])}"
${body}
`;
}

const CURRENCY_CONTRACT_TEST = contractTest(
  "test_currency_contract",
  `        from billing.ledger import currency_of, split_id
        if currency_of(invoice_id) != split_id(invoice_id)[2]:
            raise AssertionError(f"seed={SEED} witness={invoice_id!r}")`,
);

const NORMALISE_CONTRACT_TEST = contractTest(
  "test_normalise_contract",
  `        from billing.ledger import _normalise
        if _normalise(_normalise(invoice_id)) != _normalise(invoice_id):
            raise AssertionError(f"seed={SEED} witness={invoice_id!r}")`,
);

const MORE_EXAMPLES = `

def test_apply_keeps_the_number():
    assert apply("inv-00002-eur") == "INV-00002-EUR"


def test_apply_of_a_booked_id():
    assert apply("INV-00003-USD") == "INV-00003-USD"
`;

/** A contracts.yml entry appended to the base's. */
function contractEntry(
  id: string,
  fn: string,
  test: string,
  minTrials: number,
): (base: string) => string {
  return (base) =>
    `${base}  - id: ${id}
    function: ${fn}
    test: ${test}
    min_trials: ${minTrials}
`;
}

interface Case {
  /** Sentence naming the scenario. */
  name: string;
  /** Head branch. */
  branch: string;
  /** Base branch, when not `main`. */
  base?: string;
  /** `--now`, when not the default. */
  now?: string;
  /** Exactly the blocking findings expected: rule id → layer. */
  blocks: Record<string, string>;
  /** More assertions on the verdict. */
  also?: (verdict: VerdictJson) => void;
}

/** Commit `files` on a new branch `name` forked from `from` (a stacked commit). */
async function stackBranch(
  repo: TestRepo,
  name: string,
  from: string,
  files: Record<string, (text: string) => string>,
): Promise<void> {
  await git(repo.dir, ["checkout", "-q", "-b", name, from]);
  try {
    for (const [path, change] of Object.entries(files)) {
      const full = `${repo.dir}/${path}`;
      await Deno.writeTextFile(full, change(await Deno.readTextFile(full)));
    }
    await git(repo.dir, ["add", "-A"]);
    await git(repo.dir, ["commit", "-q", "-m", `Stacked: ${name}`]);
  } finally {
    await git(repo.dir, ["checkout", "-q", "main"]);
  }
}

/** Export `rev`'s tree into a fresh temp dir (the caller removes it). */
async function exportTree(repo: TestRepo, rev: string): Promise<string> {
  const dir = await Deno.makeTempDir({ prefix: "pawl-e2e-tree-" });
  await git(repo.dir, ["archive", "--format=tar", "-o", `${dir}.tar`, rev]);
  try {
    const tar = await new Deno.Command("tar", {
      args: ["-xf", `${dir}.tar`, "-C", dir],
      stdout: "null",
      stderr: "piped",
    }).output();
    assert.ok(tar.success, new TextDecoder().decode(tar.stderr));
  } finally {
    await Deno.remove(`${dir}.tar`);
  }
  return dir;
}

/** The contract test, run directly with a seed and a trial budget. */
async function runContract(
  dir: string,
  seed: number,
  trials: number,
): Promise<{ code: number; output: string }> {
  return await runPytestDirectly(dir, [APPLY_TEST], {
    CONTRACT_SEED: String(seed),
    CONTRACT_TRIALS: String(trials),
  });
}

/** Ledger lines of a file, parsed. */
async function ledgerRows(path: string): Promise<Record<string, unknown>[]> {
  const text = await Deno.readTextFile(path);
  assert.ok(text.endsWith("\n"), text);
  return text.trimEnd().split("\n").map((line) => JSON.parse(line));
}

const TS = Date.parse(NOW) / 1000;

Deno.test("seed 002's merge gate, judged through the CLI", async (t) => {
  const missed = await residuesTheFrozenSeedMisses();
  assert.ok(missed.length >= 20, `only ${missed.length} residues left`);
  const heads: Record<string, Record<string, FileEdit>> = {
    "agent/legacy-bug": { [L002.ledger]: edit(APPLY_DEF, LEGACY_BUG) },
    "agent/honest-refactor": { [L002.ledger]: edit(APPLY_DEF, HONEST_APPLY) },
    "agent/eur-bug": { [L002.ledger]: edit(APPLY_DEF, EUR_BUG) },
    "agent/settlement-bug": {
      [L002.ledger]: edit(APPLY_DEF, settlementBug(missed)),
    },
    "agent/break-split": {
      [L002.ledger]: edit(
        "return prefix, int(number), currency",
        "return prefix, int(number), currency.upper()",
      ),
    },
    "agent/add-public-contract": {
      [L002.ledger]: (text) => text + CURRENCY_OF,
      "tests/contracts/test_currency_contract.py": CURRENCY_CONTRACT_TEST,
      [L002.contracts]: contractEntry(
        "ledger.currency_of.matches_split",
        "billing.ledger.currency_of",
        "tests/contracts/test_currency_contract.py::test_currency_contract",
        APPLY_MIN_TRIALS,
      ),
    },
    "agent/example-only": {
      [L002.examples]: (text) => text + MORE_EXAMPLES,
    },
    "agent/touch-freeze-file": { [L002.freeze]: (text) => `${text}\n` },
    "agent/private-contract": {
      "tests/contracts/test_normalise_contract.py": NORMALISE_CONTRACT_TEST,
      [L002.contracts]: contractEntry(
        "ledger.normalise.idempotent",
        "billing.ledger._normalise",
        "tests/contracts/test_normalise_contract.py::test_normalise_contract",
        10,
      ),
    },
    "agent/remove-contract": {
      [L002.contracts]: edit(
        / {2}- id: ledger\.split_id\.roundtrip\n[^]*$/,
        "",
      ),
    },
    "agent/lower-min-trials": {
      [L002.contracts]: edit(
        `min_trials: ${APPLY_MIN_TRIALS}`,
        "min_trials: 5",
      ),
    },
  };
  await using repo: TestRepo = await buildRepo({
    base: layout002Base(),
    heads,
  });
  // A human committed skip: true to the freeze file; the agent's patch
  // sits on top of that commit.
  await stackBranch(repo, "human/skip-true", "main", {
    [L002.freeze]: edit("skip: false", "skip: true"),
  });
  await stackBranch(repo, "agent/on-skip-true", "human/skip-true", {
    [L002.ledger]: edit(APPLY_DEF, HONEST_APPLY),
  });

  await t.step(
    "a frozen seed catches a bug only that seed reaches",
    async (t) => {
      const head = await repo.commit("agent/legacy-bug");
      const fresh = freshSeed(head, NOW);

      await t.step(
        "run directly, the contract test hits the bug on the frozen seed and misses it on the run's fresh seed",
        async () => {
          const buggy = await exportTree(repo, "agent/legacy-bug");
          const honest = await exportTree(repo, "main");
          try {
            const onFrozen = await runContract(buggy, FROZEN_SEED, 50);
            assert.equal(onFrozen.code, 1, onFrozen.output);
            assert.match(
              onFrozen.output,
              new RegExp(`seed=${FROZEN_SEED} witness='${FROZEN_WITNESS}'`),
            );
            const onFresh = await runContract(buggy, fresh, APPLY_MIN_TRIALS);
            assert.equal(
              onFresh.code,
              0,
              `fresh seed ${fresh}\n${onFresh.output}`,
            );
            const honestOnFrozen = await runContract(honest, FROZEN_SEED, 50);
            assert.equal(honestOnFrozen.code, 0, honestOnFrozen.output);
          } finally {
            await Deno.remove(buggy, { recursive: true });
            await Deno.remove(honest, { recursive: true });
          }
        },
      );

      await t.step(
        "pawl rejects it: the replay of the frozen seed fails, naming the seed and the witness",
        async () => {
          const verdict = assertJudged(
            await check(repo.dir, "agent/legacy-bug"),
            { "seed.replay_failed": "seed" },
          );
          const replay = verdict.findings.find((f) =>
            f.rule === "seed.replay_failed"
          );
          assert.equal(replay?.path, L002.applyTest);
          assert.match(
            replay?.message ?? "",
            new RegExp(`frozen seed ${FROZEN_SEED}\\b`),
          );
          assert.match(replay?.message ?? "", /freeze "F-184"/);
          assert.match(
            replay?.message ?? "",
            new RegExp(`"${FROZEN_WITNESS}"`),
          );
          assert.deepEqual(verdict.tests?.seeds, {
            fresh,
            trials: APPLY_MIN_TRIALS,
            replays: [{
              freeze: "F-184",
              test: APPLY_TEST,
              seed: FROZEN_SEED,
              passed: false,
            }],
          });
          // The fresh seed did not reach the bug: both contracts passed.
          assert.deepEqual(
            verdict.tests?.properties.map((p) => [p.layout, p.id, p.outcome]),
            [
              ["002", "ledger.apply.idempotent", "passed"],
              ["002", "ledger.split_id.roundtrip", "passed"],
            ],
          );
          assert.ok(
            !verdict.findings.some((f) => f.rule.startsWith("seed.fresh")),
          );
        },
      );

      await t.step(
        "the honest head is accepted with the frozen seed's replay recorded as passed",
        async () => {
          const verdict = assertJudged(
            await check(repo.dir, "agent/honest-refactor"),
            {},
          );
          assert.deepEqual(withoutMutationNotes(verdict.findings), []);
          assert.deepEqual(verdict.tests?.seeds.replays, [{
            freeze: "F-184",
            test: APPLY_TEST,
            seed: FROZEN_SEED,
            passed: true,
          }]);
          assert.equal(
            verdict.tests?.seeds.fresh,
            freshSeed(await repo.commit("agent/honest-refactor"), NOW),
          );
        },
      );
    },
  );

  const CASES: Case[] = [
    {
      name: "a contract added on a public function is accepted and run",
      branch: "agent/add-public-contract",
      blocks: {},
      also: (v) =>
        assert.deepEqual(
          v.tests?.properties.map((p) => [p.id, p.outcome]),
          [
            ["ledger.apply.idempotent", "passed"],
            ["ledger.currency_of.matches_split", "passed"],
            ["ledger.split_id.roundtrip", "passed"],
          ],
        ),
    },
    {
      name:
        "an example-only test diff (new assert f(x) == literal tests, no contract change) is unproven",
      branch: "agent/example-only",
      blocks: { "tests.unproven": "tests" },
      also: (v) =>
        assert.equal(
          v.findings.find((f) => f.rule === "tests.unproven")?.path,
          L002.examples,
        ),
    },
    {
      name: "an agent edit to flake_freeze.yml, even whitespace, is rejected",
      branch: "agent/touch-freeze-file",
      blocks: { "freeze.file_touched": "freeze" },
    },
    {
      name: "a freeze that expired before --now is rejected",
      branch: "agent/honest-refactor",
      now: "2026-12-16T00:00:00Z",
      blocks: { "freeze.expired": "freeze" },
      also: (v) => {
        assert.match(
          v.findings.find((f) => f.rule === "freeze.expired")?.message ?? "",
          new RegExp(`"${SEED_FREEZE_EXPIRES}".*seed ${FROZEN_SEED}`),
        );
        // An expired freeze is not replayed: its seed is a required pass.
        assert.deepEqual(v.tests?.seeds.replays, []);
      },
    },
    {
      name: "a contract added on a private _helper is rejected",
      branch: "agent/private-contract",
      blocks: { "property.private_contract": "property" },
      also: (v) =>
        assert.match(
          v.findings.find((f) => f.rule === "property.private_contract")
            ?.message ?? "",
          /"billing\.ledger\._normalise"/,
        ),
    },
    {
      name: "a contract id removed is rejected",
      branch: "agent/remove-contract",
      blocks: { "property.removed": "property" },
      also: (v) =>
        assert.match(
          v.findings.find((f) => f.rule === "property.removed")?.message ?? "",
          /"ledger\.split_id\.roundtrip"/,
        ),
    },
    {
      name:
        "min_trials lowered is rejected, and the run still uses the base's budget",
      branch: "agent/lower-min-trials",
      blocks: { "property.min_trials_lowered": "property" },
      also: (v) => assert.equal(v.tests?.seeds.trials, APPLY_MIN_TRIALS),
    },
  ];

  await t.step("the review checklist", async (t) => {
    for (const c of CASES) {
      await t.step(c.name, async () => {
        const verdict = assertJudged(
          await check(repo.dir, c.branch, {
            ...(c.base === undefined ? {} : { base: c.base }),
            ...(c.now === undefined ? {} : { now: c.now }),
          }),
          c.blocks,
        );
        assert.deepEqual(verdict.contract.layouts, ["002"]);
        c.also?.(verdict);
      });
    }
  });

  await t.step(
    "a freeze with skip: true on the base is could-not-decide, pointing at the base commit",
    async () => {
      const base = await repo.commit("human/skip-true");
      const result = await check(repo.dir, "agent/on-skip-true", {
        base: "human/skip-true",
        command: "diff",
      });
      assert.equal(result.code, 2, result.stderr);
      assert.match(
        result.stderr,
        new RegExp(
          `could not decide: Cannot read contract "flake_freeze\\.yml": the base commit's own copy breaks rule "freeze\\.skip_not_false" at line \\d+: freeze "F-184" has skip true, not false.* \\(in the base commit ${
            base.slice(0, 12)
          }; the pull request is not at fault: fix the base branch\\)`,
        ),
      );
    },
  );

  await t.step("the fresh seed", async (t) => {
    await t.step(
      "is derived from (head, --now), recorded, and received by the contract test",
      async () => {
        const head = await repo.commit("agent/break-split");
        for (const now of [NOW, "2026-11-30T12:00:01Z"]) {
          const fresh = freshSeed(head, now);
          const verdict = assertJudged(
            await check(repo.dir, "agent/break-split", { now }),
            { "property.not_passed": "property", "tests.failed": "tests" },
          );
          assert.equal(verdict.tests?.seeds.fresh, fresh);
          assert.equal(verdict.tests?.seeds.trials, APPLY_MIN_TRIALS);
          // The test itself printed the seed it read from CONTRACT_SEED.
          const failed = verdict.findings.find((f) =>
            f.rule === "tests.failed"
          );
          assert.equal(failed?.path, L002.splitTest);
          assert.match(
            failed?.message ?? "",
            new RegExp(`seed=${fresh} witness='INV-\\d{5}-(usd|eur)'`),
          );
          const notPassed = verdict.findings.find((f) =>
            f.rule === "property.not_passed"
          );
          assert.ok(
            notPassed?.message.includes(
              `(${SPLIT_TEST}) did not pass on seed ${fresh}:`,
            ),
            notPassed?.message,
          );
        }
        assert.notEqual(
          freshSeed(head, NOW),
          freshSeed(head, "2026-11-30T12:00:01Z"),
        );
      },
    );

    await t.step(
      "a fresh-seed failure of a frozen test does not block, but the frozen seed's replay does",
      async () => {
        const fresh = freshSeed(await repo.commit("agent/eur-bug"), NOW);
        const result = await check(repo.dir, "agent/eur-bug");
        const verdict = assertJudged(result, { "seed.replay_failed": "seed" });
        const freshFailed = verdict.findings.filter((f) =>
          f.rule === "seed.fresh_failed"
        );
        assert.ok(freshFailed.length > 0, explain(result));
        assert.ok(freshFailed.every((f) => !f.blocking && f.layer === "seed"));
        assert.ok(
          freshFailed.some((f) =>
            new RegExp(`seed=${fresh} witness='INV-\\d{5}-eur'`).test(f.message)
          ),
          explain(result),
        );
        assert.deepEqual(
          verdict.tests?.seeds.replays.map((r) => [r.seed, r.passed]),
          [[FROZEN_SEED, false]],
        );
      },
    );
  });

  await t.step(
    "a fresh-seed failure of a frozen test that the frozen seed still passes is reported and accepted",
    async () => {
      const fresh = freshSeed(await repo.commit("agent/settlement-bug"), NOW);
      const tree = await exportTree(repo, "agent/settlement-bug");
      try {
        const onFresh = await runContract(tree, fresh, APPLY_MIN_TRIALS);
        assert.equal(onFresh.code, 1, `fresh seed ${fresh}\n${onFresh.output}`);
        const onFrozen = await runContract(tree, FROZEN_SEED, 50);
        assert.equal(onFrozen.code, 0, onFrozen.output);
      } finally {
        await Deno.remove(tree, { recursive: true });
      }
      const result = await check(repo.dir, "agent/settlement-bug");
      const verdict = assertJudged(result, {});
      const freshFailed = verdict.findings.filter((f) =>
        f.rule === "seed.fresh_failed"
      );
      assert.ok(freshFailed.length > 0, explain(result));
      assert.ok(freshFailed.every((f) => !f.blocking && f.layer === "seed"));
      assert.ok(
        freshFailed.some((f) =>
          new RegExp(`seed=${fresh} witness='INV-\\d{5}-usd'`).test(f.message)
        ),
        explain(result),
      );
      assert.deepEqual(
        verdict.tests?.properties.map((p) => [p.id, p.outcome]),
        [
          ["ledger.apply.idempotent", "failed"],
          ["ledger.split_id.roundtrip", "passed"],
        ],
      );
      assert.deepEqual(verdict.tests?.seeds.replays, [{
        freeze: "F-184",
        test: APPLY_TEST,
        seed: FROZEN_SEED,
        passed: true,
      }]);
    },
  );

  await t.step(
    "once the freeze expired, a fresh-seed failure of its test blocks",
    async () => {
      const now = "2026-12-16T00:00:00Z";
      const fresh = freshSeed(await repo.commit("agent/settlement-bug"), now);
      const tree = await exportTree(repo, "agent/settlement-bug");
      try {
        const onFresh = await runContract(tree, fresh, APPLY_MIN_TRIALS);
        assert.equal(onFresh.code, 1, `fresh seed ${fresh}\n${onFresh.output}`);
      } finally {
        await Deno.remove(tree, { recursive: true });
      }
      const verdict = assertJudged(
        await check(repo.dir, "agent/settlement-bug", { now }),
        {
          "freeze.expired": "freeze",
          "property.not_passed": "property",
          "tests.failed": "tests",
        },
      );
      assert.ok(!verdict.findings.some((f) => f.rule === "seed.fresh_failed"));
      assert.deepEqual(verdict.tests?.seeds.replays, []);
    },
  );

  await t.step("--ledger", async (t) => {
    const dir = await Deno.makeTempDir({ prefix: "pawl-e2e-ledger-" });
    try {
      await t.step(
        "appends one row per property run and per replay, with ts the Unix seconds of --now, and writes nothing into the repository",
        async () => {
          const ledger = `${dir}/seed_ledger.jsonl`;
          const before = await hashDir(repo.dir);
          const fresh = freshSeed(
            await repo.commit("agent/honest-refactor"),
            NOW,
          );
          const expected = [
            {
              seed: fresh,
              trials: APPLY_MIN_TRIALS,
              ok: true,
              witness_sha256: null,
              ts: TS,
              layout: "002",
              id: "ledger.apply.idempotent",
              kind: "fresh",
            },
            {
              seed: fresh,
              trials: APPLY_MIN_TRIALS,
              ok: true,
              witness_sha256: null,
              ts: TS,
              layout: "002",
              id: "ledger.split_id.roundtrip",
              kind: "fresh",
            },
            {
              seed: FROZEN_SEED,
              trials: 50,
              ok: true,
              witness_sha256: null,
              ts: TS,
              layout: "002",
              id: "F-184",
              kind: "replay",
            },
          ];
          for (const runs of [1, 2]) {
            assertJudged(
              await check(repo.dir, "agent/honest-refactor", {
                extra: ["--ledger", ledger],
              }),
              {},
            );
            assert.deepEqual(
              await ledgerRows(ledger),
              Array.from({ length: runs }, () => expected).flat(),
            );
          }
          assert.equal(await hashDir(repo.dir), before);
        },
      );

      await t.step(
        "records a failed replay with the witness's sha256",
        async () => {
          const ledger = `${dir}/bug_ledger.jsonl`;
          assertJudged(
            await check(repo.dir, "agent/legacy-bug", {
              extra: ["--ledger", ledger],
            }),
            { "seed.replay_failed": "seed" },
          );
          const rows = await ledgerRows(ledger);
          assert.deepEqual(
            rows.map((r) => [r["kind"], r["seed"], r["trials"], r["ok"]]),
            [
              [
                "fresh",
                freshSeed(await repo.commit("agent/legacy-bug"), NOW),
                APPLY_MIN_TRIALS,
                true,
              ],
              [
                "fresh",
                freshSeed(await repo.commit("agent/legacy-bug"), NOW),
                APPLY_MIN_TRIALS,
                true,
              ],
              ["replay", FROZEN_SEED, 50, false],
            ],
          );
          assert.equal(rows[2]?.["witness_sha256"], sha256(FROZEN_WITNESS));
          assert.ok(rows.every((r) => r["ts"] === TS));
        },
      );
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  });
});
