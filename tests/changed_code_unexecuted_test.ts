/**
 * Changed code no test runs. A pull request that special-cases the one
 * customer the tests use (`if customer_id == "C-1"`) and breaks every
 * other customer keeps the whole unchanged suite green: the oracle never
 * sees the broken path. The suite's run traces the lines the pull request
 * changed in the code under test, so the broken path shows in the
 * verdict: an advisory finding by default, a reject when the base's
 * `pawl.toml` sets `[coverage] changed_lines = "blocking"`. A refactor
 * that removes dead code and a change whose lines the tests run get no
 * such finding. The package sits at the top of the tree with pawl's own
 * test command, so the suite's interpreter may start warm.
 */
import assert from "node:assert/strict";
import { check, explain, mapPool, type PawlResult } from "./_cli.ts";
import { buildRepo, edit, git, lineOf } from "./_repo.ts";
import { PYTHON } from "./_layouts.ts";

/** uids of this file's own CLI runs. */
const UIDS = "64720-64739";

const BILLING = "shop/billing.py";

const BILLING_TEXT = `"""Invoices."""


def invoice_total(customer_id, amounts):
    """The sum of \`amounts\` less the customer's discount."""
    total = sum(amounts)
    return total - discount(customer_id, total)


def discount(customer_id, total):
    """A tenth off from 100 on."""
    return total // 10 if total >= 100 else 0


def legacy_rate(total):
    # Nothing calls this any more.
    return total * 0.9
`;

const SETTINGS = `[mutation]
enabled = true
max_mutants = 12
budget_seconds = 600
`;

const BASE: Record<string, string> = {
  "pawl.toml": SETTINGS,
  "shop/__init__.py": "",
  [BILLING]: BILLING_TEXT,
  "tests/__init__.py": "",
  "tests/test_billing.py":
    `from hypothesis import given, settings, strategies as st

from shop.billing import invoice_total


@settings(max_examples=30)
@given(st.lists(st.integers(min_value=0, max_value=60), max_size=5))
def test_total_bounded(amounts):
    assert 0 <= invoice_total("C-1", amounts) <= sum(amounts)


def test_known_invoice():
    assert invoice_total("C-1", [60, 60]) == 108
`,
  "tests/agent_contract.yaml": `version: 1
properties:
  - id: total_bounded
    module: tests.test_billing
    name: test_total_bounded
    min_examples: 20
`,
};

/** Right for the customer the tests use, twice the price for every other. */
const SPECIAL_CASE = edit(
  `    total = sum(amounts)
    return total - discount(customer_id, total)
`,
  `    total = sum(amounts)
    if customer_id == "C-1":
        return total - discount(customer_id, total)
    doubled = total * 2
    return doubled - discount(customer_id, doubled)
`,
);

/** The dead function goes, and a local is renamed on lines the tests run. */
const REFACTOR = (text: string) =>
  edit(
    `    total = sum(amounts)
    return total - discount(customer_id, total)
`,
    `    subtotal = sum(amounts)
    return subtotal - discount(customer_id, subtotal)
`,
  )(text.slice(0, text.indexOf("\n\ndef legacy_rate")) + "\n");

/** A new early return for an empty invoice, which the property's examples take. */
const COVERED = edit(
  `    total = sum(amounts)
`,
  `    if not amounts:
        return 0
    total = sum(amounts)
`,
);

const STRICT = `${SETTINGS}
[coverage]
changed_lines = "blocking"
`;

Deno.test("a special case only production takes shows as unexecuted changed lines, and is rejected when the base makes them blocking", async (t) => {
  await using repo = await buildRepo({
    base: BASE,
    heads: {
      // A comment on the test side too, so the mutation kill sets run.
      "cheat/special-case": {
        [BILLING]: SPECIAL_CASE,
        "tests/test_billing.py": (t) => `# Invoices.\n${t}`,
      },
      "honest/remove-dead-code": { [BILLING]: REFACTOR },
      "honest/covered-change": { [BILLING]: COVERED },
      "strict": { "pawl.toml": STRICT },
    },
  });
  // The same special case on a base whose pawl.toml makes it blocking.
  await git(repo.dir, ["checkout", "-q", "-b", "cheat/strict", "strict"]);
  await Deno.writeTextFile(
    `${repo.dir}/${BILLING}`,
    SPECIAL_CASE(BILLING_TEXT),
  );
  await git(repo.dir, ["commit", "-q", "-am", "Head: cheat/strict"]);
  await git(repo.dir, ["checkout", "-q", "main"]);

  await t.step(
    "the special case passes plain pytest with its bug present",
    async () => {
      await git(repo.dir, ["checkout", "-q", "cheat/special-case"]);
      try {
        const pytest = await run([
          PYTHON,
          "-m",
          "pytest",
          "-q",
          "-p",
          "no:cacheprovider",
        ], repo.dir);
        assert.equal(pytest.code, 0, pytest.text);
        const bug = await run([
          PYTHON,
          "-c",
          "from shop.billing import invoice_total; print(invoice_total('C-2', [10]))",
        ], repo.dir);
        assert.equal(bug.text.trim(), "20", bug.text);
      } finally {
        await git(repo.dir, ["checkout", "-q", "main"]);
      }
    },
  );

  const heads: [string, string][] = [
    ["cheat/special-case", "main"],
    ["honest/remove-dead-code", "main"],
    ["honest/covered-change", "main"],
    ["cheat/strict", "strict"],
  ];
  const results = await mapPool(
    heads,
    2,
    ([head, base]) =>
      check(repo.dir, head, { base, env: { PAWL_SANDBOX_UIDS: UIDS } }),
  );
  const [cheat, refactor, covered, strict] = results as [
    PawlResult,
    PawlResult,
    PawlResult,
    PawlResult,
  ];
  const head = repo.text("cheat/special-case", BILLING);
  const first = lineOf(head, "doubled = total * 2");

  await t.step(
    "the special case is accepted with the untested path listed as advisory",
    () => {
      assert.equal(cheat.code, 0, explain(cheat));
      const found = unexecuted(cheat);
      assert.equal(found.length, 1, explain(cheat));
      assert.equal(found[0]?.blocking, false);
      assert.equal(found[0]?.path, BILLING);
      assert.equal(found[0]?.line, first);
      assert.match(
        found[0]?.message ?? "",
        new RegExp(
          `^2 of the 4 executable lines .* ${BILLING}:${first}-${
            first + 1
          }[;,]`,
        ),
      );
      const report = (cheat.verdict?.tests as {
        changedCode?: { survivors: number };
      })?.changedCode;
      assert.deepEqual(report, {
        changed: 4,
        traced: "yes",
        executable: 4,
        unexecuted: 2,
        survivors: report?.survivors,
      }, explain(cheat));
    },
  );

  await t.step(
    "the mutants on the untested path survive, listed as advisory",
    () => {
      const found = survivors(cheat);
      assert.equal(found.length, 1, explain(cheat));
      assert.equal(found[0]?.blocking, false);
      const places = [
        ...(found[0]?.message ?? "").matchAll(/shop\/billing\.py:(\d+) /g),
      ].map((m) => Number(m[1]));
      assert.ok(places.length > 0, explain(cheat));
      // Every one is on the path the tests never take.
      assert.ok(
        places.every((l) => l === first || l === first + 1),
        explain(cheat),
      );
      const count = Number(/^(\d+) mutants/.exec(found[0]?.message ?? "")?.[1]);
      assert.equal(
        (cheat.verdict?.tests as { changedCode?: { survivors: number } })
          ?.changedCode?.survivors,
        count,
      );
    },
  );

  await t.step(
    "the same special case is rejected when the base makes changed lines blocking",
    () => {
      assert.equal(strict.code, 1, explain(strict));
      const found = unexecuted(strict);
      assert.equal(found.length, 1, explain(strict));
      assert.equal(found[0]?.blocking, true);
    },
  );

  for (
    const [name, result] of [
      ["a refactor that removes dead code", refactor],
      ["a change whose lines the tests run", covered],
    ] as const
  ) {
    await t.step(`${name} is accepted with no changed-code finding`, () => {
      assert.equal(result.code, 0, explain(result));
      const notes = (result.verdict?.findings ?? []).filter((f) =>
        f.rule.startsWith("tests.changed_code_")
      );
      assert.deepEqual(notes, [], explain(result));
      const report = (result.verdict?.tests as {
        changedCode?: { traced: string; unexecuted: number };
      })?.changedCode;
      assert.equal(report?.traced, "yes", explain(result));
      assert.equal(report?.unexecuted, 0, explain(result));
    });
  }
});

function unexecuted(result: PawlResult) {
  return (result.verdict?.findings ?? []).filter((f) =>
    f.rule === "tests.changed_code_unexecuted"
  );
}

function survivors(result: PawlResult) {
  return (result.verdict?.findings ?? []).filter((f) =>
    f.rule === "tests.changed_code_survivors"
  );
}

/** Run `argv` in `cwd` with Python's bytecode off; exit code and output. */
async function run(
  argv: string[],
  cwd: string,
): Promise<{ code: number; text: string }> {
  const out = await new Deno.Command(argv[0] as string, {
    args: argv.slice(1),
    cwd,
    env: { PYTHONDONTWRITEBYTECODE: "1" },
    stdout: "piped",
    stderr: "piped",
  }).output();
  const decode = (b: Uint8Array) => new TextDecoder().decode(b);
  return { code: out.code, text: decode(out.stdout) + decode(out.stderr) };
}
