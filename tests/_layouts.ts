/**
 * Real repositories in seed 003's layout (`invariants.toml`,
 * `fixtures.lock`, `freeze.yml`) and seed 002's layout (`contracts.yml`,
 * `flake_freeze.yml`) for the end-to-end tests. Source hashes are computed
 * by seed 003's own `property_source_hash`, run with the system Python, so
 * an accept proves pawl hashes as the seed's checker does.
 *
 * @module
 */
import assert from "node:assert/strict";
import {
  blocking,
  explain,
  type PawlResult,
  type VerdictJson,
} from "./_cli.ts";
import { sha256 } from "./_repo.ts";

/** The Python the tests use directly (Debian's, with pytest and Hypothesis). */
export const PYTHON = "/usr/bin/python3";

/** One body to hash the way seed 003's checker does. */
export type HashTarget =
  /** `property_source_hash(root, module, function)`: the sliced `def`. */
  | { function: string; module: string }
  /** `sha256_bytes(test_file.read_bytes())`: the whole file (the checker's freeze hash). */
  | { file: string };

/**
 * Seed 003's `sha256_bytes` and `property_source_hash`, verbatim from its
 * checker (the module path is resolved against the working directory, as
 * the seed's code does), plus its whole-file freeze hash.
 */
const SEED_003_HASHER = `
import ast
import hashlib
import json
import sys
from pathlib import Path


def sha256_bytes(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def property_source_hash(root: Path, module: str, function: str) -> str:
    rel = Path(*module.split(".")).with_suffix(".py")
    tree = ast.parse(rel.read_text(encoding="utf-8"), filename=str(rel))
    for node in tree.body:
        if isinstance(node, ast.FunctionDef) and node.name == function:
            src = ast.get_source_segment(rel.read_text(encoding="utf-8"), node)
            if src is None:
                raise SystemExit(f"cannot slice {module}:{function}")
            return sha256_bytes(src.encode("utf-8"))
    raise SystemExit(f"missing property {module}:{function}")


out = []
for target in json.loads(sys.argv[1]):
    if "file" in target:
        out.append(sha256_bytes((Path(".") / target["file"]).read_bytes()))
    else:
        out.append(property_source_hash(Path("."), target["module"], target["function"]))
print(json.dumps(out))
`;

/**
 * Hash `targets` in a tree made of `files`, with seed 003's Python code.
 * Returns one lowercase sha256 per target, in order.
 */
export async function seed003Hashes(
  files: Record<string, string>,
  targets: readonly HashTarget[],
): Promise<string[]> {
  const dir = await Deno.makeTempDir({ prefix: "pawl-e2e-hash-" });
  try {
    for (const [path, text] of Object.entries(files)) {
      const full = `${dir}/${path}`;
      await Deno.mkdir(full.slice(0, full.lastIndexOf("/")), {
        recursive: true,
      });
      await Deno.writeTextFile(full, text);
    }
    const out = await new Deno.Command(PYTHON, {
      args: ["-c", SEED_003_HASHER, JSON.stringify(targets)],
      cwd: dir,
      clearEnv: true,
      env: { PATH: "/usr/bin:/bin", PYTHONDONTWRITEBYTECODE: "1" },
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).output();
    const decoder = new TextDecoder();
    if (!out.success) {
      throw new Error(
        `seed 003's hasher failed: ${decoder.decode(out.stderr)}`,
      );
    }
    return JSON.parse(decoder.decode(out.stdout));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

/** Run pytest directly (no pawl, no sandbox) in `dir`; returns exit code and output. */
export async function runPytestDirectly(
  dir: string,
  args: readonly string[],
  env: Record<string, string>,
): Promise<{ code: number; output: string }> {
  const out = await new Deno.Command(PYTHON, {
    args: ["-m", "pytest", "-q", "-p", "no:cacheprovider", ...args],
    cwd: dir,
    clearEnv: true,
    env: { PATH: "/usr/bin:/bin", PYTHONDONTWRITEBYTECODE: "1", ...env },
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  const decoder = new TextDecoder();
  return {
    code: out.code,
    output: decoder.decode(out.stdout) + decoder.decode(out.stderr),
  };
}

/**
 * Plain pytest (no pawl, no sandbox) on `branch` of the repository at
 * `repoDir`, exported to a temp directory: what a CI job running the
 * tests would see.
 */
export async function pytestOnBranch(
  repoDir: string,
  branch: string,
  args: readonly string[],
  env: Record<string, string>,
): Promise<{ code: number; output: string }> {
  const dir = await Deno.makeTempDir({ prefix: "pawl-plain-pytest-" });
  try {
    const tar = await new Deno.Command("sh", {
      args: [
        "-c",
        `git -C "${repoDir}" archive "${branch}" | tar -x -C "${dir}"`,
      ],
    }).output();
    if (tar.code !== 0) {
      throw new Error(new TextDecoder().decode(tar.stderr));
    }
    return await runPytestDirectly(dir, args, env);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

// ---------------------------------------------------------------------------
// Seed 003

/** Paths of the seed-003 repository. */
export const L003 = {
  money: "shop/money.py",
  properties: "tests/properties/test_money.py",
  prices: "tests/test_prices.py",
  total: "tests/test_total.py",
  clock: "tests/test_flaky_clock.py",
  rounding: "tests/test_rounding.py",
  fixture: "tests/fixtures/prices.json",
  invariants: "invariants.toml",
  lock: "fixtures.lock",
  freeze: "freeze.yml",
} as const;

/** The whole-file-hashed freeze (its test always fails in the sandbox: no TZ). */
export const CLOCK_FREEZE = "test_clock_skew_host_tz";
/** The function-hashed freeze (its test passes). */
export const ROUNDING_FREEZE = "test_banker_rounding_float";
/** The clock freeze's expiry (it lasts through this UTC day). */
export const CLOCK_EXPIRES = "2026-12-15";

const MONEY =
  `"""Amounts in cents, parsed from and formatted as decimal strings."""


class AmountError(ValueError):
    """The text is not an amount."""


def parse_amount(text: str) -> int:
    """'12.34' -> 1234 cents; negative amounts are refused."""
    text = text.strip()
    if text.startswith("-"):
        raise AmountError("negative amount")
    whole, _, frac = text.partition(".")
    if not whole.isdigit() or (frac and (not frac.isdigit() or len(frac) > 2)):
        raise AmountError(f"not an amount: {text!r}")
    return int(whole) * 100 + int(frac.ljust(2, "0") or "0")


def format_amount(cents: int) -> str:
    if cents < 0:
        raise AmountError("negative amount")
    return f"{cents // 100}.{cents % 100:02d}"


def round_cents(value: float) -> int:
    return round(value * 100)


def total(amounts) -> int:
    return sum(amounts)


def split_evenly(cents: int, ways: int) -> list:
    """Split an amount into \`ways\` parts that add up to it."""
    return [cents // ways] * ways
`;

/** The honest fix of `split_evenly`, which loses the remainder at base. */
export const MONEY_SPLIT_FIX = `def split_evenly(cents: int, ways: int) -> list:
    """Split an amount into \`ways\` parts that add up to it."""
    share, rest = divmod(cents, ways)
    return [share + 1] * rest + [share] * (ways - rest)
`;

const PROPERTIES = `import pytest
from hypothesis import given, settings, strategies as st

from shop.money import AmountError, format_amount, parse_amount


@settings(max_examples=15, deadline=None)
@given(st.integers(min_value=0, max_value=10**9))
def test_format_parse_roundtrip(cents):
    assert parse_amount(format_amount(cents)) == cents


@settings(max_examples=10, deadline=None)
@given(st.integers(min_value=1, max_value=10**6))
def test_negative_is_refused(cents):
    with pytest.raises(AmountError):
        parse_amount("-" + format_amount(cents))


@settings(max_examples=10, deadline=None)
@given(st.integers(min_value=0, max_value=10**9))
def test_format_has_two_decimals(cents):
    whole, frac = format_amount(cents).split(".")
    assert whole.isdigit() and frac.isdigit() and len(frac) == 2
`;

const PRICES_TEST = `import json
from pathlib import Path

from shop.money import parse_amount

FIXTURE = Path(__file__).parent / "fixtures" / "prices.json"


def test_fixture_prices_parse():
    for row in json.loads(FIXTURE.read_text()):
        assert parse_amount(row["text"]) == row["cents"]
`;

const TOTAL_TEST = `from shop.money import total


def test_total_of_two():
    assert total([250, 125]) == 375
`;

const CLOCK_TEST =
  `"""Frozen in freeze.yml: the renderer assumes the host's TZ."""
import os


def test_clock_skew():
    tz = os.environ.get("TZ")
    assert tz == "Europe/Berlin", f"host TZ is {tz!r}"
`;

const ROUNDING_TEST = `from shop.money import round_cents


def test_banker_rounding():
    assert round_cents(0.125) in (12, 13)


def test_whole_cents_are_kept():
    assert round_cents(3.0) == 300
`;

/** The fixture at base. */
export const PRICES_FIXTURE = `[
  {"text": "12.34", "cents": 1234},
  {"text": "0.5", "cents": 50},
  {"text": "7", "cents": 700}
]
`;

/** The seed-003 base tree and the hashes recorded in its contract. */
export interface Layout003Base {
  /** Every file of the base commit. */
  files: Record<string, string>;
  /** Registered property id → its recorded source hash. */
  propertyHashes: Record<string, string>;
  /** Recorded body hash of the whole-file freeze (the test file's bytes). */
  clockFileHash: string;
  /** Recorded body hash of the function-hashed freeze (the sliced test). */
  roundingFunctionHash: string;
}

/** `[[property]]` rows of the base registry: id, module, function. */
export const PROPERTIES_003 = [
  [
    "money.roundtrip",
    "tests.properties.test_money",
    "test_format_parse_roundtrip",
  ],
  [
    "money.negative_refused",
    "tests.properties.test_money",
    "test_negative_is_refused",
  ],
  [
    "money.two_decimals",
    "tests.properties.test_money",
    "test_format_has_two_decimals",
  ],
] as const;

/** One `[[property]]` table. */
export function propertyRow(
  id: string,
  module: string,
  fn: string,
  hash: string,
): string {
  return `[[property]]
id = "${id}"
module = "${module}"
function = "${fn}"
source_sha256 = "${hash}"
`;
}

/** The seed-003 base tree, hashed by seed 003's own Python code. */
export async function layout003Base(): Promise<Layout003Base> {
  const code: Record<string, string> = {
    "README.md": "# shop\n\nMoney helpers guarded by seed 003's contract.\n",
    "shop/__init__.py": "",
    [L003.money]: MONEY,
    "tests/__init__.py": "",
    "tests/properties/__init__.py": "",
    [L003.properties]: PROPERTIES,
    [L003.prices]: PRICES_TEST,
    [L003.total]: TOTAL_TEST,
    [L003.clock]: CLOCK_TEST,
    [L003.rounding]: ROUNDING_TEST,
    [L003.fixture]: PRICES_FIXTURE,
  };
  const hashes = await seed003Hashes(code, [
    ...PROPERTIES_003.map(([, module, fn]) => ({ module, function: fn })),
    { file: L003.clock },
    { module: "tests.test_rounding", function: "test_banker_rounding" },
  ]);
  const propertyHashes: Record<string, string> = {};
  PROPERTIES_003.forEach(([id], i) => propertyHashes[id] = hashes[i]!);
  const clockFileHash = hashes[PROPERTIES_003.length]!;
  const roundingFunctionHash = hashes[PROPERTIES_003.length + 1]!;
  const invariants =
    `# invariants.toml — human-owned. Agent PRs cannot delete keys.
[policy]
min_properties = 3
allow_agent_additions = false

${
      PROPERTIES_003.map(([id, module, fn]) =>
        propertyRow(id, module, fn, propertyHashes[id]!)
      ).join("\n")
    }`;
  const lock = `{
  "policy": { "allow_rotate_on_agent_pr": false },
  "files": {
    "${L003.fixture}": "${sha256(PRICES_FIXTURE)}"
  }
}
`;
  const freeze = `policy:
  max_frozen: 2
  fail_on_expired: true
freezes:
  - id: ${CLOCK_FREEZE}
    path: ${L003.clock}::test_clock_skew
    body_sha256: "${clockFileHash}"
    reason: "depends on the host's TZ; tracked as OPS-17"
    expires_on: "${CLOCK_EXPIRES}"
    owner: "oncall-payments"
  - id: ${ROUNDING_FREEZE}
    path: ${L003.rounding}::test_banker_rounding
    body_sha256: "${roundingFunctionHash}"
    reason: "half-cent float rounding differs across libm builds"
    expires_on: "2026-12-20"
    owner: "oncall-payments"
`;
  return {
    files: {
      ...code,
      [L003.invariants]: invariants,
      [L003.lock]: lock,
      [L003.freeze]: freeze,
    },
    propertyHashes,
    clockFileHash,
    roundingFunctionHash,
  };
}

// ---------------------------------------------------------------------------
// Seed 002

/** Paths of the seed-002 repository. */
export const L002 = {
  ledger: "billing/ledger.py",
  applyTest: "tests/contracts/test_ledger_contracts.py",
  splitTest: "tests/contracts/test_split_contract.py",
  examples: "tests/test_ledger_examples.py",
  contracts: "contracts.yml",
  freeze: "flake_freeze.yml",
} as const;

/** The seed the base's freeze pins (seed 002's own example). */
export const FROZEN_SEED = 1725781203;
/**
 * What the contract test's RNG stream draws under {@linkcode FROZEN_SEED} at
 * trial 29: an empty currency code on invoice 334. The legacy-range bug
 * below is reached by that input only.
 */
export const FROZEN_WITNESS = "INV-00334-";
/** The apply contract's test, as pytest names it. */
export const APPLY_TEST = `${L002.applyTest}::test_apply_contract`;
/** The split contract's test. */
export const SPLIT_TEST = `${L002.splitTest}::test_split_contract`;
/** `min_trials` of the apply contract: the fresh run's `CONTRACT_TRIALS`. */
export const APPLY_MIN_TRIALS = 20;
/** The freeze's expiry (it lasts through this UTC day). */
export const SEED_FREEZE_EXPIRES = "2026-12-15";

/** `billing/ledger.py` at base: `apply` refuses an empty currency code. */
export const LEDGER =
  `"""Apply invoices to the ledger. Invoice ids look like INV-<number>-<currency>."""


class LedgerError(ValueError):
    """The invoice cannot be applied."""


apply_error = LedgerError


def _normalise(invoice_id: str) -> str:
    return invoice_id.strip().upper()


def split_id(invoice_id: str) -> tuple:
    prefix, number, currency = invoice_id.split("-")
    return prefix, int(number), currency


def apply(invoice_id: str) -> str:
    """Book an invoice id; an empty currency code is refused."""
    if invoice_id.endswith("-"):
        raise LedgerError(f"invoice {invoice_id!r} has no currency code")
    return _normalise(invoice_id)
`;

/**
 * The bug only the frozen seed reaches: legacy invoices 330–339 with an
 * empty currency code are booked in EUR instead of being refused.
 */
export const LEGACY_BUG = `def apply(invoice_id: str) -> str:
    """Book an invoice id; an empty currency code is refused."""
    if invoice_id.endswith("-"):
        if 330 <= int(invoice_id.split("-")[1]) <= 339:
            # Legacy invoices predate currency codes: book them in EUR.
            return _normalise(invoice_id) + "EUR"
        raise LedgerError(f"invoice {invoice_id!r} has no currency code")
    return _normalise(invoice_id)
`;

/**
 * Seed 002's \`test_apply_contract\`, as the seed writes it, minus the
 * \`record()\` call: the seed ledger is pawl's \`--ledger\` output, never a
 * file the test writes into the tree.
 */
const APPLY_CONTRACT_TEST = `# tests/contracts/test_ledger_contracts.py
import os
import random
import time

TRIALS = int(os.environ.get("CONTRACT_TRIALS", "200"))
SEED = int(os.environ.get("CONTRACT_SEED", "0")) or int(time.time())


def shrink(value: str) -> str:
    cur = value
    while len(cur) > 1:
        trial = cur[:-1]
        if not holds(trial):
            cur = trial
        else:
            break
    return cur


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
            witness = shrink(sample)
            raise AssertionError(f"seed={SEED} witness={witness!r}")
`;

const SPLIT_CONTRACT_TEST = `import os
import random
import time

TRIALS = int(os.environ.get("CONTRACT_TRIALS", "200"))
SEED = int(os.environ.get("CONTRACT_SEED", "0")) or int(time.time())


def test_split_contract():
    from billing.ledger import split_id
    rng = random.Random(SEED)
    for _ in range(TRIALS):
        number = rng.randint(1, 10_000)
        currency = rng.choice(["usd", "eur", ""])
        invoice_id = f"INV-{number:05d}-{currency}"
        if split_id(invoice_id) != ("INV", number, currency):
            raise AssertionError(f"seed={SEED} witness={invoice_id!r}")
`;

const EXAMPLES_TEST = `from billing.ledger import apply


def test_apply_uppercases():
    assert apply("inv-00001-usd") == "INV-00001-USD"
`;

/** `contracts.yml` at base. */
export const CONTRACTS_YML = `version: 1
contracts:
  - id: ledger.apply.idempotent
    function: billing.ledger.apply
    test: ${APPLY_TEST}
    min_trials: ${APPLY_MIN_TRIALS}
  - id: ledger.split_id.roundtrip
    function: billing.ledger.split_id
    test: ${SPLIT_TEST}
    min_trials: 10
`;

/** `flake_freeze.yml` at base: one freeze pinning {@linkcode FROZEN_SEED}. */
export const FLAKE_FREEZE_YML =
  `# flake_freeze.yml — human-owned; agent patches that touch this file fail CI
freezes:
  - id: F-184
    test: ${APPLY_TEST}
    seed: ${FROZEN_SEED}
    witness_sha256: "${sha256(FROZEN_WITNESS)}"
    owner: "platform-payments"
    expires: "${SEED_FREEZE_EXPIRES}"
    reason: "empty currency code vs concurrent apply"
    skip: false
`;

/** The seed-002 base tree. */
export function layout002Base(): Record<string, string> {
  return {
    "README.md": "# billing\n\nA ledger guarded by seed 002's contract.\n",
    "billing/__init__.py": "",
    [L002.ledger]: LEDGER,
    "tests/__init__.py": "",
    "tests/contracts/__init__.py": "",
    [L002.applyTest]: APPLY_CONTRACT_TEST,
    [L002.splitTest]: SPLIT_CONTRACT_TEST,
    [L002.examples]: EXAMPLES_TEST,
    [L002.contracts]: CONTRACTS_YML,
    [L002.freeze]: FLAKE_FREEZE_YML,
  };
}

/** Rules only the test run can produce (what `pawl diff` never reports). */
export const RUN_RULES: ReadonlySet<string> = new Set([
  "tests.failed",
  "tests.frozen_failed",
  "tests.timeout",
  "tests.output_exceeded",
  "tests.no_report",
  "tests.run_failed",
  "property.not_passed",
  "freeze.rerun_used",
  "seed.replay_failed",
  "seed.fresh_failed",
  "property.oracle_weakened",
  "property.oracle_blinded",
  "property.mutants_survived",
  "property.mutants_cut",
  "tests.changed_code_unexecuted",
  "tests.changed_code_survivors",
  "tests.changed_code_untraced",
  "harness.code_detects_tests",
]);

/**
 * The mutation kill sets' advisory notes, on by default: mutants the
 * base's own properties let survive (gaps the base already had) and
 * mutants the time budget cut. They speak of the base's oracle, not of
 * what a case changed.
 */
export const MUTATION_NOTES: ReadonlySet<string> = new Set([
  "property.mutants_survived",
  "property.mutants_cut",
  "tests.changed_code_unexecuted",
  "tests.changed_code_survivors",
  "tests.changed_code_untraced",
]);

/** `findings` without {@linkcode MUTATION_NOTES}. */
export function withoutMutationNotes<T extends { rule: string }>(
  findings: readonly T[],
): T[] {
  return findings.filter((f) => !MUTATION_NOTES.has(f.rule));
}

/** Sorted `[rule, layer]` pairs of a verdict's blocking findings. */
export function blockingRules(
  verdict: VerdictJson | undefined,
): [string, string][] {
  const pairs = new Map<string, string>();
  for (const f of blocking(verdict)) pairs.set(`${f.rule}\0${f.layer}`, "");
  return [...pairs.keys()].map((key) => key.split("\0") as [string, string])
    .sort((a, b) => a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0);
}

/**
 * Assert a CLI run decided as `blocks` says: exactly these blocking rule
 * ids, each in its layer (none: accept with exit 0; some: reject with exit
 * 1). Returns the verdict.
 */
export function assertJudged(
  result: PawlResult,
  blocks: Readonly<Record<string, string>>,
): VerdictJson {
  const why = explain(result);
  const verdict = result.verdict;
  assert.ok(verdict !== undefined, `no verdict\n${why}`);
  const reject = Object.keys(blocks).length > 0;
  assert.equal(result.code, reject ? 1 : 0, why);
  assert.equal(verdict.decision, reject ? "reject" : "accept", why);
  assert.deepEqual(
    blockingRules(verdict),
    Object.entries(blocks).sort((a, b) =>
      a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0
    ),
    why,
  );
  return verdict;
}
