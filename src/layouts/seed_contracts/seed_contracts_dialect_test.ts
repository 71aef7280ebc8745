import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { ContractSyntaxError } from "../../contract/contract_syntax_error.ts";
import type { ChangedPath, EntryKind, Tree, TreeEntry } from "../../git/git.ts";
import { analyzePython } from "../../python/analyze_python.ts";
import { loadPythonParser } from "../../python/load_python_parser.ts";
import type { PythonModule } from "../../python/python_module.ts";
import type { ContractBlob, StaticInput, TestPlan } from "../dialect.ts";
import { seedContractsDialect } from "./seed_contracts_dialect.ts";
import { type ContractReader, ParsedTexts } from "../parsed_texts.ts";

const parser = await loadPythonParser();

const CONTRACTS = "contracts.yml";
const FREEZE = "flake_freeze.yml";
const LEDGER_TEST = "tests/contracts/test_ledger_contracts.py";
const EXAMPLES = "tests/test_ledger.py";
const APPLY = `${LEDGER_TEST}::test_apply_contract`;
/** The seed's review day: the freeze expires a week later. */
const REVIEW = "2026-09-08T12:00:00Z";

const SEED_CONTRACTS = `version: 1
contracts:
  - id: ledger.apply.idempotent
    function: billing.ledger.apply
    test: ${APPLY}
    min_trials: 200
`;

const SEED_FREEZE =
  `# flake_freeze.yml — human-owned; agent patches that touch this file fail CI
freezes:
  - id: F-184
    test: ${APPLY}
    seed: 1725781203
    witness_sha256: "9c56cc51b374c32ba11507e6e0c2484e"
    owner: "platform-payments"
    expires: "2026-09-15"
    reason: "empty currency code vs concurrent apply"
    skip: false
`;

/** The seed's contract test, abridged to its predicate and test. */
const LEDGER_SOURCE = `import os
import random
import time

TRIALS = int(os.environ.get("CONTRACT_TRIALS", "200"))
SEED = int(os.environ.get("CONTRACT_SEED", "0")) or int(time.time())

def holds(invoice_id: str) -> bool:
    from billing.ledger import apply, apply_error
    if invoice_id.endswith("-"):
        try:
            apply(invoice_id)
        except apply_error:
            return True
        return False
    once = apply(invoice_id)
    twice = apply(apply(invoice_id))
    return once == twice

def test_apply_contract():
    rng = random.Random(SEED)
    for i in range(TRIALS):
        suffix = rng.choice(["usd", "eur", ""])
        sample = f"INV-{rng.randint(1, 10_000):05d}-{suffix}"
        if not holds(sample):
            raise AssertionError(f"seed={SEED} witness={sample!r}")
`;

/** A new contract test on the error path, as a patch that proves itself would add. */
const DASH_TEST = `

def test_apply_rejects_trailing_dash():
    from billing.ledger import apply, apply_error
    rng = random.Random(SEED)
    for _ in range(TRIALS):
        sample = f"INV-{rng.randint(1, 10_000):05d}-"
        try:
            apply(sample)
        except apply_error:
            continue
        raise AssertionError(f"seed={SEED} witness={sample!r}")
`;

const EXAMPLES_SOURCE = `import unittest
from billing.ledger import apply

class TestLedger(unittest.TestCase):
    def test_usd(self):
        self.assertEqual(apply("INV-00001-usd"), "INV-00001-usd")
`;

/** The agent's "three new examples": green bar, no contract. */
const MORE_EXAMPLES = EXAMPLES_SOURCE + `
    def test_eur(self):
        self.assertEqual(apply("INV-00002-eur"), "INV-00002-eur")

    def test_empty(self):
        self.assertEqual(apply("INV-00003-"), "INV-00003-")
        assert apply("INV-00004-usd") == "INV-00004-usd"
`;

/** One commit: path → content, or a symlink target. */
type Commit = Record<
  string,
  string | { symlink: string } | { executable: string }
>;

const BASE: Commit = {
  [CONTRACTS]: SEED_CONTRACTS,
  [FREEZE]: SEED_FREEZE,
  [LEDGER_TEST]: LEDGER_SOURCE,
  [EXAMPLES]: EXAMPLES_SOURCE,
  "billing/ledger.py": "def apply(x):\n    return x\n",
};

function contentOf(entry: Commit[string]): { kind: EntryKind; text: string } {
  if (typeof entry === "string") return { kind: "file", text: entry };
  if ("symlink" in entry) return { kind: "symlink", text: entry.symlink };
  return { kind: "executable", text: entry.executable };
}

function treeOf(commit: Commit): Tree {
  const tree = new Map<string, TreeEntry>();
  for (const [path, entry] of Object.entries(commit)) {
    const { kind, text } = contentOf(entry);
    const oid = createHash("sha1").update(text).digest("hex");
    tree.set(path, { path, kind, oid, size: text.length });
  }
  return tree;
}

function blobsOf(commit: Commit): Map<string, ContractBlob> {
  const blobs = new Map<string, ContractBlob>();
  for (const path of seedContractsDialect.files) {
    const entry = commit[path];
    if (entry === undefined) continue;
    const { kind, text } = contentOf(entry);
    blobs.set(
      path,
      kind === "symlink"
        ? { kind: "symlink" }
        : { kind: "file", text, bytes: new TextEncoder().encode(text) },
    );
  }
  return blobs;
}

function changesOf(base: Tree, head: Tree): ChangedPath[] {
  const paths = [...new Set([...base.keys(), ...head.keys()])].sort();
  const out: ChangedPath[] = [];
  for (const path of paths) {
    const b = base.get(path);
    const h = head.get(path);
    if (b === undefined) out.push({ status: "A", path });
    else if (h === undefined) out.push({ status: "D", path });
    else if (b.kind !== h.kind) out.push({ status: "T", path });
    else if (b.oid !== h.oid) out.push({ status: "M", path });
  }
  return out;
}

function analyses(
  commit: Commit,
  tree: Tree,
  paths: Iterable<string>,
): Map<string, PythonModule> {
  const out = new Map<string, PythonModule>();
  for (const path of paths) {
    const entry = commit[path];
    const kind = tree.get(path)?.kind;
    if (entry === undefined || (kind !== "file" && kind !== "executable")) {
      continue;
    }
    out.set(path, analyzePython(parser, contentOf(entry).text));
  }
  return out;
}

/** Run the dialect the way the shell does: load, ask what to read, read it, judge and plan. */
function gate(head: Commit, options: { base?: Commit; now?: string } = {}) {
  const base = options.base ?? BASE;
  const nowText = options.now ?? REVIEW;
  const loaded = seedContractsDialect.load(blobsOf(base), blobsOf(head));
  const baseTree = treeOf(base);
  const headTree = treeOf(head);
  const changes = changesOf(baseTree, headTree);
  const reads = loaded.reads(baseTree, headTree);
  const changedPy = changes.map((c) => c.path).filter((p) => p.endsWith(".py"));
  const input: StaticInput = {
    now: Date.parse(nowText),
    nowText,
    baseTree,
    headTree,
    changes,
    headModules: analyses(head, headTree, [...reads.headModules, ...changedPy]),
    baseModules: analyses(base, baseTree, [...reads.baseModules, ...changedPy]),
    digests: new Map(),
    allowFixtureRotate: false,
  };
  return {
    loaded,
    reads,
    findings: [...loaded.loadFindings, ...loaded.check(input)],
    plan: loaded.plan(input),
  };
}

function rulesOf(head: Commit, options: { base?: Commit; now?: string } = {}) {
  return gate(head, options).findings.map((f) => f.rule).sort();
}

function withContracts(...rows: string[]): string {
  return SEED_CONTRACTS + rows.join("");
}

function contractRow(
  id: string,
  fn: string,
  test: string,
  trials = 50,
): string {
  return `  - id: ${id}\n    function: ${fn}\n    test: ${test}\n    min_trials: ${trials}\n`;
}

function freezeEdit(from: string, to: string): string {
  assert.equal(SEED_FREEZE.split(from).length, 2, `one ${from}`);
  return SEED_FREEZE.replace(from, to);
}

Deno.test("seedContractsDialect accepts the seed's layout untouched on review day", () => {
  const { findings, reads } = gate(BASE);
  assert.deepEqual(findings, []);
  assert.deepEqual(reads, {
    headModules: [LEDGER_TEST],
    baseModules: [LEDGER_TEST],
    headDigests: [],
  });
});

Deno.test("seedContractsDialect follows seed 002's decision checklist", async (t) => {
  const cases: [string, Commit, string[], { base?: Commit; now?: string }?][] =
    [
      // 1. Did the patch add or edit a public contract? If not, it is unproven.
      [
        "1: a patch adding a public contract with its test and examples is fine",
        {
          ...BASE,
          [CONTRACTS]: withContracts(contractRow(
            "ledger.apply.rejects_dash",
            "billing.ledger.apply",
            `${LEDGER_TEST}::test_apply_rejects_trailing_dash`,
          )),
          [LEDGER_TEST]: LEDGER_SOURCE + DASH_TEST,
          [EXAMPLES]: MORE_EXAMPLES,
        },
        [],
      ],
      [
        "1: a patch editing the contract test alongside its examples is fine",
        {
          ...BASE,
          [LEDGER_TEST]: LEDGER_SOURCE.replace(
            '["usd", "eur", ""]',
            '["usd", "eur", "gbp", ""]',
          ),
          [EXAMPLES]: MORE_EXAMPLES,
        },
        [],
      ],
      [
        "1: a patch raising min_trials alongside its examples is fine",
        {
          ...BASE,
          [CONTRACTS]: SEED_CONTRACTS.replace(
            "min_trials: 200",
            "min_trials: 500",
          ),
          [EXAMPLES]: MORE_EXAMPLES,
        },
        [],
      ],
      [
        "1: a patch adding only example assertions is unproven",
        { ...BASE, [EXAMPLES]: MORE_EXAMPLES },
        ["tests.unproven"],
      ],
      [
        "1: a patch adding an example test file only is unproven",
        { ...BASE, "tests/test_ledger_eur.py": MORE_EXAMPLES },
        ["tests.unproven"],
      ],
      [
        "1: a patch that changes no tests is fine",
        {
          ...BASE,
          "billing/ledger.py": "def apply(x):\n    return x.strip()\n",
        },
        [],
      ],
      [
        "1: examples plus a contract test made vacuous are unproven",
        {
          ...BASE,
          [LEDGER_TEST]: LEDGER_SOURCE.replace(
            /def test_apply_contract\(\):[\s\S]*$/,
            "def test_apply_contract():\n    assert True\n",
          ),
          [EXAMPLES]: MORE_EXAMPLES,
        },
        ["property.vacuous", "tests.unproven"],
      ],
      [
        "contracts belong on public functions: a contract on billing.ledger._apply is rejected",
        {
          ...BASE,
          [CONTRACTS]: withContracts(contractRow(
            "ledger.apply.private",
            "billing.ledger._apply",
            `${LEDGER_TEST}::test_apply_rejects_trailing_dash`,
          )),
          [LEDGER_TEST]: LEDGER_SOURCE + DASH_TEST,
        },
        ["property.private_contract"],
      ],
      [
        "a removed contract id is rejected",
        { ...BASE, [CONTRACTS]: "version: 1\ncontracts: []\n" },
        ["property.removed"],
      ],
      [
        "a lowered min_trials is rejected",
        {
          ...BASE,
          [CONTRACTS]: SEED_CONTRACTS.replace(
            "min_trials: 200",
            "min_trials: 20",
          ),
        },
        ["property.min_trials_lowered"],
      ],
      [
        "a deleted contract test is rejected",
        {
          ...BASE,
          [LEDGER_TEST]: LEDGER_SOURCE.replace(
            "def test_apply_contract",
            "def check_apply_contract",
          ),
        },
        ["property.test_missing"],
      ],
      // 3/4. Did the agent edit flake_freeze.yml? Reject.
      [
        "4: reformatting flake_freeze.yml is rejected",
        {
          ...BASE,
          [FREEZE]: SEED_FREEZE.replace("skip: false", "skip:  false"),
        },
        ["freeze.file_touched"],
      ],
      [
        "4: a comment in flake_freeze.yml is rejected",
        { ...BASE, [FREEZE]: SEED_FREEZE + "# looked at this\n" },
        ["freeze.file_touched"],
      ],
      [
        "3/4: an agent freezing its own flake is rejected",
        {
          ...BASE,
          [FREEZE]: SEED_FREEZE +
            SEED_FREEZE.split("freezes:\n")[1]?.replace("F-184", "F-185"),
        },
        ["freeze.file_touched"],
      ],
      [
        "4: deleting flake_freeze.yml is rejected",
        Object.fromEntries(Object.entries(BASE).filter(([p]) => p !== FREEZE)),
        ["config.contract_removed", "freeze.file_touched"],
      ],
      [
        "4: adding flake_freeze.yml is rejected",
        { ...BASE, [FREEZE]: SEED_FREEZE },
        ["freeze.file_touched"],
        {
          base: Object.fromEntries(
            Object.entries(BASE).filter(([p]) => p !== FREEZE),
          ),
        },
      ],
      [
        "4: making flake_freeze.yml executable is rejected",
        { ...BASE, [FREEZE]: { executable: SEED_FREEZE } },
        ["freeze.file_touched"],
      ],
      [
        "4: symlinking flake_freeze.yml is rejected",
        { ...BASE, [FREEZE]: { symlink: "/tmp/freeze.yml" } },
        ["config.contract_symlink", "freeze.file_touched"],
      ],
      [
        "4: an unknown key added to flake_freeze.yml is rejected",
        { ...BASE, [FREEZE]: SEED_FREEZE + "    quarantine: true\n" },
        ["config.contract_invalid", "freeze.file_touched"],
      ],
      // 5. Did the freeze expire? The seed is now a required fail.
      [
        "5: the freeze holds on its last day",
        BASE,
        [],
        { now: "2026-09-15T23:59:59Z" },
      ],
      [
        "5: an expired freeze is a hard fail",
        BASE,
        ["freeze.expired"],
        { now: "2026-09-16T00:00:00Z" },
      ],
    ];
  for (const [name, head, expected, options] of cases) {
    await t.step(name, () => {
      const base = options?.base ?? BASE;
      // Scenarios that judge a flawed base freeze keep the head identical to it.
      const headCommit = options?.base !== undefined && head === BASE
        ? base
        : head;
      assert.deepEqual(rulesOf(headCommit, options), [...expected].sort());
    });
  }
});

Deno.test("seedContractsDialect cannot decide on a base whose own freeze breaks the checklist", async (t) => {
  // 3. Freeze the seed with an owner, a witness hash and an expiry. Do not
  // skip. A human's freeze that does not is the base's problem, never the
  // pull request's: every pull request would be blamed for it.
  const cases: [string, string, RegExp, number][] = [
    [
      "skip: true",
      freezeEdit("skip: false", "skip: true"),
      /breaks rule "freeze\.skip_not_false" at line 10: freeze "F-184" has skip true, not false/,
      10,
    ],
    [
      'skip: "false"',
      freezeEdit("skip: false", 'skip: "false"'),
      /breaks rule "freeze\.skip_not_false" at line 10: freeze "F-184" has skip "false", not false/,
      10,
    ],
    [
      "skip: no",
      freezeEdit("skip: false", "skip: no"),
      /breaks rule "freeze\.skip_not_false" at line 10: freeze "F-184" has skip "no", not false/,
      10,
    ],
    [
      "no skip key",
      freezeEdit("    skip: false\n", ""),
      /breaks rule "freeze\.skip_not_false" at line \d+: freeze "F-184" has no "skip" key/,
      3,
    ],
    [
      "no owner",
      freezeEdit('    owner: "platform-payments"\n', ""),
      /breaks rule "freeze\.incomplete" at line \d+/,
      3,
    ],
    [
      "no witness hash",
      freezeEdit('"9c56cc51b374c32ba11507e6e0c2484e"', '""'),
      /breaks rule "freeze\.incomplete" at line \d+/,
      3,
    ],
  ];
  for (const [name, text, message, line] of cases) {
    await t.step(name, () => {
      const base = { ...BASE, [FREEZE]: text };
      assert.throws(
        () => seedContractsDialect.load(blobsOf(base), blobsOf(base)),
        (error: unknown) => {
          assert.ok(error instanceof ContractSyntaxError);
          assert.equal(error.path, FREEZE);
          assert.match(
            error.message,
            /^Cannot read contract "flake_freeze\.yml": the base commit's own copy /,
          );
          assert.match(error.message, message);
          assert.ok(error.line !== undefined && error.line >= line);
          return true;
        },
      );
    });
  }
});

Deno.test("seedContractsDialect refuses a base flake_freeze.yml with an unknown key", () => {
  const base = {
    ...BASE,
    [FREEZE]: SEED_FREEZE.replace(
      "    skip: false\n",
      "    skip: false\n    notes: flaky\n",
    ),
  };
  assert.throws(
    () => seedContractsDialect.load(blobsOf(base), blobsOf(base)),
    (error: unknown) => {
      assert.ok(error instanceof ContractSyntaxError);
      assert.equal(error.path, FREEZE);
      assert.equal(error.key, "freezes[0].notes");
      assert.equal(error.line, 11);
      assert.equal(
        error.message,
        'Cannot read contract "flake_freeze.yml": unknown key "freezes[0].notes" at line 11',
      );
      return true;
    },
  );
});

Deno.test("seedContractsDialect refuses unreadable base files", async (t) => {
  const cases: [string, Commit, string, string][] = [
    [
      "a symlinked contracts.yml",
      { ...BASE, [CONTRACTS]: { symlink: "elsewhere.yml" } },
      CONTRACTS,
      "it is a symlink",
    ],
    [
      "contracts.yml without a version",
      { ...BASE, [CONTRACTS]: SEED_CONTRACTS.replace("version: 1\n", "") },
      CONTRACTS,
      'missing key "version"',
    ],
    [
      "a string min_trials",
      { ...BASE, [CONTRACTS]: SEED_CONTRACTS.replace("200", '"200"') },
      CONTRACTS,
      '"contracts[0].min_trials" must be an integer',
    ],
    [
      "a duplicate contract id",
      {
        ...BASE,
        [CONTRACTS]: SEED_CONTRACTS + SEED_CONTRACTS.split("contracts:\n")[1],
      },
      CONTRACTS,
      'duplicate id "ledger.apply.idempotent"',
    ],
    [
      "a freeze with a string seed",
      { ...BASE, [FREEZE]: SEED_FREEZE.replace("1725781203", '"1725781203"') },
      FREEZE,
      '"freezes[0].seed" must be an integer',
    ],
  ];
  for (const [name, base, path, detail] of cases) {
    await t.step(name, () => {
      assert.throws(
        () => seedContractsDialect.load(blobsOf(base), blobsOf(BASE)),
        (error: unknown) => {
          assert.ok(error instanceof ContractSyntaxError);
          assert.equal(error.path, path);
          assert.ok(error.detail.startsWith(detail), error.detail);
          return true;
        },
      );
    });
  }
});

Deno.test("seedContractsDialect judges a broken head contracts.yml against the base copy", async (t) => {
  const cases: [string, Commit, string[]][] = [
    [
      "a removed contracts.yml",
      Object.fromEntries(Object.entries(BASE).filter(([p]) => p !== CONTRACTS)),
      ["config.contract_removed"],
    ],
    [
      "an invalid contracts.yml",
      { ...BASE, [CONTRACTS]: SEED_CONTRACTS + "extra: 1\n" },
      ["config.contract_invalid"],
    ],
    [
      "an invalid contracts.yml and a deleted contract test",
      {
        ...BASE,
        [CONTRACTS]: "version: 2\n",
        [LEDGER_TEST]: "def unrelated():\n    pass\n",
      },
      ["config.contract_invalid", "property.test_missing"],
    ],
  ];
  for (const [name, head, expected] of cases) {
    await t.step(name, () => {
      const { findings, plan } = gate(head);
      assert.deepEqual(findings.map((f) => f.rule).sort(), expected);
      assert.deepEqual(plan.properties.map((p) => p.id), [
        "ledger.apply.idempotent",
      ]);
    });
  }
});

Deno.test("seedContractsDialect is present when either file exists", async (t) => {
  const cases: [string, Commit, boolean][] = [
    ["both files", BASE, true],
    ["contracts.yml only", { [CONTRACTS]: SEED_CONTRACTS }, true],
    ["flake_freeze.yml only", { [FREEZE]: SEED_FREEZE }, true],
    ["neither", { [LEDGER_TEST]: LEDGER_SOURCE }, false],
  ];
  for (const [name, commit, present] of cases) {
    await t.step(`${name}: ${present}`, () => {
      assert.equal(seedContractsDialect.presentIn(treeOf(commit)), present);
    });
  }
});

Deno.test("seedContractsDialect records both base files with their digests", () => {
  const { loaded } = gate(BASE);
  assert.equal(loaded.id, "002");
  assert.deepEqual(loaded.files.map((f) => [f.path, f.layout]), [
    [CONTRACTS, "002"],
    [FREEZE, "002"],
  ]);
  assert.equal(
    loaded.files[1]?.sha256,
    createHash("sha256").update(SEED_FREEZE).digest("hex"),
  );
});

Deno.test("seedContractsDialect plans the seed's fresh run and frozen-seed replay", () => {
  const expected: TestPlan = {
    properties: [{
      id: "ledger.apply.idempotent",
      module: "tests.contracts.test_ledger_contracts",
      name: "test_apply_contract",
    }],
    reruns: [],
    deselect: [],
    replays: [{
      id: "F-184",
      test: APPLY,
      seed: 1725781203,
      witness: "9c56cc51b374c32ba11507e6e0c2484e",
    }],
    nonBlocking: [APPLY],
    trials: 200,
  };
  assert.deepEqual(gate(BASE).plan, expected);
});

Deno.test("seedContractsDialect plans one fresh run at the largest min_trials", () => {
  const contracts = withContracts(
    contractRow(
      "ledger.apply.rejects_dash",
      "billing.ledger.apply",
      `${LEDGER_TEST}::test_apply_rejects_trailing_dash`,
      900,
    ),
    contractRow(
      "ledger.class",
      "billing.ledger.Ledger.post",
      `${EXAMPLES}::TestLedger::test_usd`,
      10,
    ),
  );
  const head = {
    ...BASE,
    [CONTRACTS]: contracts.replace("min_trials: 200", "min_trials: 300"),
    [LEDGER_TEST]: LEDGER_SOURCE + DASH_TEST,
  };
  const { plan } = gate(head);
  assert.equal(plan.trials, 900);
  assert.deepEqual(plan.properties, [
    {
      id: "ledger.apply.idempotent",
      module: "tests.contracts.test_ledger_contracts",
      name: "test_apply_contract",
    },
    {
      id: "ledger.apply.rejects_dash",
      module: "tests.contracts.test_ledger_contracts",
      name: "test_apply_rejects_trailing_dash",
    },
    {
      id: "ledger.class",
      module: "tests.test_ledger",
      name: "TestLedger.test_usd",
    },
  ]);
});

Deno.test("seedContractsDialect keeps the base min_trials when the head lowers it", () => {
  const head = {
    ...BASE,
    [CONTRACTS]: SEED_CONTRACTS.replace("min_trials: 200", "min_trials: 5"),
  };
  assert.equal(gate(head).plan.trials, 200);
});

Deno.test("seedContractsDialect replays only unexpired freezes", async (t) => {
  const expiredRow = SEED_FREEZE.split("freezes:\n")[1]
    ?.replace("F-184", "F-100")
    .replace("1725781203", "42")
    .replace('"2026-09-15"', '"2026-09-01"')
    .replace("test_apply_contract", "TestOld::test_old") ?? "";
  const base = { ...BASE, [FREEZE]: SEED_FREEZE + expiredRow };
  const cases: [string, string, string[], string[]][] = [
    ["on review day", REVIEW, ["F-184"], [APPLY]],
    ["after every expiry", "2026-09-16T00:00:00Z", [], []],
  ];
  for (const [name, now, replays, nonBlocking] of cases) {
    await t.step(name, () => {
      const { plan } = gate(base, { base, now });
      assert.deepEqual(plan.replays.map((r) => r.id), replays);
      assert.deepEqual(plan.nonBlocking, nonBlocking);
    });
  }
});

Deno.test("seedContractsDialect ignores a freeze the pull request adds", () => {
  const head = {
    ...BASE,
    [FREEZE]: SEED_FREEZE + (SEED_FREEZE.split("freezes:\n")[1] ?? "")
      .replace("F-184", "F-999").replace("1725781203", "7"),
  };
  const { plan, findings } = gate(head);
  assert.deepEqual(plan.replays.map((r) => r.id), ["F-184"]);
  assert.deepEqual(findings.map((f) => f.rule), ["freeze.file_touched"]);
});

Deno.test("seedContractsDialect plans nothing for a layout without contracts or freezes", () => {
  const base = { [FREEZE]: "freezes: []\n" };
  const { plan, findings } = gate(base, { base });
  assert.deepEqual(findings, []);
  assert.deepEqual(plan, {
    properties: [],
    reruns: [],
    deselect: [],
    replays: [],
    nonBlocking: [],
  });
});

Deno.test("seedContractsDialect sees a touched flake_freeze.yml from the trees and blobs even when the diff does not list it", async (t) => {
  const withoutFreeze = Object.fromEntries(
    Object.entries(BASE).filter(([p]) => p !== FREEZE),
  );
  const cases: [string, Commit, Commit, string[]][] = [
    ["made executable", BASE, {
      ...BASE,
      [FREEZE]: { executable: SEED_FREEZE },
    }, [
      "freeze.file_touched",
    ]],
    ["reformatted", BASE, {
      ...BASE,
      [FREEZE]: SEED_FREEZE.replace("skip: false", "skip:  false"),
    }, ["freeze.file_touched"]],
    ["deleted", BASE, withoutFreeze, [
      "config.contract_removed",
      "freeze.file_touched",
    ]],
    ["added", withoutFreeze, BASE, ["freeze.file_touched"]],
    ["left alone", BASE, BASE, []],
  ];
  for (const [name, base, head, rules] of cases) {
    await t.step(name, () => {
      const loaded = seedContractsDialect.load(blobsOf(base), blobsOf(head));
      const baseTree = treeOf(base);
      const headTree = treeOf(head);
      const findings = [
        ...loaded.loadFindings,
        ...loaded.check({
          now: Date.parse(REVIEW),
          nowText: REVIEW,
          baseTree,
          headTree,
          changes: [],
          headModules: analyses(head, headTree, [LEDGER_TEST]),
          baseModules: analyses(base, baseTree, [LEDGER_TEST]),
          digests: new Map(),
          allowFixtureRotate: false,
        }),
      ];
      assert.deepEqual(findings.map((f) => f.rule).sort(), rules);
    });
  }
});

Deno.test("seedContractsDialect sees a touched flake_freeze.yml by its tree entry when the head's is too large to read, and by its bytes when the trees do not list it", async (t) => {
  const reformatted: Commit = {
    ...BASE,
    [FREEZE]: SEED_FREEZE.replace("skip: false", "skip:  false"),
  };
  const touched = (
    head: Commit,
    headBlobs: Map<string, ContractBlob>,
    trees: { base: Tree; head: Tree },
  ) => {
    const loaded = seedContractsDialect.load(blobsOf(BASE), headBlobs);
    return loaded.check({
      now: Date.parse(REVIEW),
      nowText: REVIEW,
      baseTree: trees.base,
      headTree: trees.head,
      changes: [],
      headModules: analyses(head, treeOf(head), [LEDGER_TEST]),
      baseModules: analyses(BASE, treeOf(BASE), [LEDGER_TEST]),
      digests: new Map(),
      allowFixtureRotate: false,
    }).filter((f) => f.rule === "freeze.file_touched").length;
  };
  await t.step("a head copy over the size cap", () => {
    const blobs = blobsOf(reformatted);
    blobs.set(FREEZE, { kind: "oversize", size: 2 << 20, limit: 1 << 20 });
    const trees = { base: treeOf(BASE), head: treeOf(reformatted) };
    assert.equal(touched(reformatted, blobs, trees), 1);
  });
  await t.step("reformatted, with neither tree listing it", () => {
    const trees = { base: new Map(), head: new Map() };
    assert.equal(touched(reformatted, blobsOf(reformatted), trees), 1);
    assert.equal(touched(BASE, blobsOf(BASE), trees), 0);
  });
});

Deno.test("seedContractsDialect lets an error that says nothing about a head file through", async (t) => {
  for (const path of [CONTRACTS, FREEZE]) {
    await t.step(path, () => {
      const head = { ...BASE, [path]: `${BASE[path]}# edited\n` };
      const text = head[path];
      class FailingOnHead extends ParsedTexts {
        override read<T>(
          read: ContractReader<T>,
          given: string,
          options: { path: string },
        ): T {
          if (given === text) throw new RangeError("out of memory");
          return super.read(read, given, options);
        }
      }
      assert.throws(
        () =>
          seedContractsDialect.load(blobsOf(BASE), blobsOf(head), {
            parsed: new FailingOnHead(),
          }),
        RangeError,
      );
    });
  }
});

Deno.test("seedContractsDialect leaves the clock's findings to the check: a base freeze that expired long ago loads", () => {
  for (const expires of ["2000-01-01", "1969-07-20"]) {
    const base = {
      ...BASE,
      [FREEZE]: SEED_FREEZE.replace('"2026-09-15"', `"${expires}"`),
    };
    assert.notEqual(base[FREEZE], SEED_FREEZE);
    const loaded = seedContractsDialect.load(blobsOf(base), blobsOf(base));
    assert.deepEqual(loaded.loadFindings, [], expires);
  }
});

Deno.test("seedContractsDialect reads a contract test file the head adds at head only, and each side's files from its own tree", () => {
  const added = "tests/contracts/test_dash_contracts.py";
  const head: Commit = {
    ...BASE,
    [CONTRACTS]: withContracts(
      contractRow(
        "ledger.apply.rejects_dash",
        "billing.ledger.apply",
        `${added}::test_apply_rejects_trailing_dash`,
      ),
    ),
    [added]: LEDGER_SOURCE + DASH_TEST,
  };
  const loaded = seedContractsDialect.load(blobsOf(BASE), blobsOf(head));
  assert.deepEqual(loaded.reads(treeOf(BASE), treeOf(head)), {
    headModules: [added, LEDGER_TEST],
    baseModules: [LEDGER_TEST],
    headDigests: [],
  });
});

Deno.test("seedContractsDialect parses each file once across the pull request's load and the base's load against itself", async (t) => {
  /** Records the path of every parse a shared ParsedTexts could not spare. */
  class CountingParses extends ParsedTexts {
    parses: string[] = [];
    #counted = new Map<ContractReader<unknown>, ContractReader<unknown>>();
    override read<T>(
      read: ContractReader<T>,
      given: string,
      options: { path: string },
    ): T {
      let counted = this.#counted.get(read);
      if (counted === undefined) {
        counted = (text, o) => {
          this.parses.push(o.path);
          return read(text, o);
        };
        this.#counted.set(read, counted);
      }
      return super.read(counted as ContractReader<T>, given, options);
    }
  }
  const edited = {
    ...BASE,
    [CONTRACTS]: `${SEED_CONTRACTS}# edited\n`,
    [FREEZE]: `${SEED_FREEZE}# edited\n`,
  };
  const cases: [string, Commit, string[]][] = [
    ["a head that leaves both alone", BASE, [CONTRACTS, FREEZE]],
    ["a head that edits both", edited, [CONTRACTS, FREEZE, CONTRACTS, FREEZE]],
  ];
  for (const [name, head, parses] of cases) {
    await t.step(name, () => {
      const parsed = new CountingParses();
      seedContractsDialect.load(blobsOf(BASE), blobsOf(head), { parsed });
      seedContractsDialect.load(blobsOf(BASE), blobsOf(BASE), { parsed });
      assert.deepEqual(parsed.parses, parses);
    });
  }
});

Deno.test("seedContractsDialect adds no freeze body hashes to the verdict", () => {
  const { loaded } = gate(BASE);
  const baseTree = treeOf(BASE);
  assert.deepEqual(
    loaded.verdictFacts({
      now: Date.parse(REVIEW),
      nowText: REVIEW,
      baseTree,
      headTree: baseTree,
      changes: [],
      headModules: new Map(),
      baseModules: new Map(),
      digests: new Map(),
      allowFixtureRotate: false,
    }),
    { freezeBodyHashes: [] },
  );
});

Deno.test("seedContractsDialect judges a flake_freeze.yml from whichever of its tree entry and its blob it has", async (t) => {
  const messages = (
    headBlobs: Map<string, ContractBlob>,
    trees: { base: Tree; head: Tree },
    changes: ChangedPath[] = [],
  ) => {
    const loaded = seedContractsDialect.load(blobsOf(BASE), headBlobs);
    return loaded.check({
      now: Date.parse(REVIEW),
      nowText: REVIEW,
      baseTree: trees.base,
      headTree: trees.head,
      changes,
      headModules: analyses(BASE, treeOf(BASE), [LEDGER_TEST]),
      baseModules: analyses(BASE, treeOf(BASE), [LEDGER_TEST]),
      digests: new Map(),
      allowFixtureRotate: false,
    }).filter((f) => f.rule === "freeze.file_touched").map((f) => f.message);
  };
  const noTrees = { base: new Map(), head: new Map() };
  const typeChanged =
    'The pull request changed the file type of "flake_freeze.yml": the freeze file is human-owned and an agent patch must not touch it; revert the change';
  const modified =
    'The pull request modified "flake_freeze.yml": the freeze file is human-owned and an agent patch must not touch it; revert the change';
  await t.step(
    "a symlink blob in place of the file, with no tree entries, changed its file type",
    () => {
      const blobs = blobsOf(BASE);
      blobs.set(FREEZE, { kind: "symlink" });
      assert.deepEqual(messages(blobs, noTrees), [typeChanged]);
    },
  );
  await t.step(
    "a head copy too large to read, with no tree entries, is still a file: listed as changed, it was modified",
    () => {
      const blobs = blobsOf(BASE);
      blobs.set(FREEZE, { kind: "oversize", size: 2 << 20, limit: 1 << 20 });
      assert.deepEqual(
        messages(blobs, noTrees, [{ status: "M", path: FREEZE }]),
        [modified],
      );
    },
  );
  await t.step(
    "a head tree entry whose blob was not read is judged by its object id",
    () => {
      const blobs = blobsOf(BASE);
      blobs.delete(FREEZE);
      const trees = { base: treeOf(BASE), head: treeOf(BASE) };
      assert.deepEqual(messages(blobs, trees), []);
      const edited = treeOf({ ...BASE, [FREEZE]: `${SEED_FREEZE}# edited\n` });
      assert.deepEqual(messages(blobs, { ...trees, head: edited }), [modified]);
    },
  );
});
