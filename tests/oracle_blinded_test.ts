/**
 * The code under test cannot blind the oracle, end to end: a small wire
 * codec whose registered property pins a round trip, judged by the real
 * CLI in the real sandbox. Each cheat leaves every test file as the base
 * has it, breaks the code, and hides the break from the unchanged test by
 * changing what "equal" means; each is first shown green under plain
 * pytest with its bug present. pawl must reject each with
 * `property.oracle_blinded`: mutants of code the pull request did not
 * change that the base's test kills on the base's code survive it on the
 * head's. Honest twins (an `__eq__` over every field, a refactor that
 * removes dead code, a rename) are accepted.
 */
import assert from "node:assert/strict";
import { check, explain, type FindingJson, mapPool } from "./_cli.ts";
import { L002, layout002Base } from "./_layouts.ts";
import { buildRepo, git } from "./_repo.ts";

/** uids of this file's own CLI runs. */
const UIDS = "64600-64663";

const CODEC = "src/wire/codec.py";

const BASE: Record<string, string> = {
  "pyproject.toml": `[tool.pytest.ini_options]
pythonpath = ["src"]
`,
  "pawl.toml": `[mutation]
enabled = true
max_mutants = 12
budget_seconds = 900
`,
  "src/wire/__init__.py": "",
  [CODEC]: `"""A line format for records: key, count and tags."""
from dataclasses import dataclass


@dataclass(frozen=True)
class Record:
    key: str
    count: int
    tags: tuple


def encode(record):
    return ":".join([record.key, str(record.count), ",".join(record.tags)])


def _fields(line):
    parts = line.split(":")
    if len(parts) != 3:
        raise ValueError("expected three fields")
    return parts


def _count(text):
    if not text.isdigit():
        raise ValueError("bad count")
    return int(text)


def _tags(text):
    if text == "":
        return ()
    return tuple(text.split(","))


def decode(line):
    key, count, tags = _fields(line)
    return Record(key, _count(count), _tags(tags))


def label(record):
    return _name(record.key) + "#" + str(record.count)


def _name(key):
    return "ID-" + key.upper()


def _legacy(line):
    return line.strip()
`,
  "tests/__init__.py": "",
  "tests/test_codec.py":
    `from hypothesis import given, settings, strategies as st

from wire.codec import Record, decode, encode, label

WORDS = st.text("abcdefgh", min_size=1, max_size=6)


@settings(max_examples=60, deadline=None)
@given(WORDS, st.integers(0, 10**6), st.lists(WORDS, max_size=4).map(tuple))
def test_round_trip(key, count, tags):
    record = Record(key, count, tags)
    assert decode(encode(record)) == record


@settings(max_examples=60, deadline=None)
@given(st.text("ab:12", max_size=12))
def test_decode_or_reject(line):
    try:
        record = decode(line)
    except ValueError:
        return
    assert encode(record) == line


@settings(max_examples=60, deadline=None)
@given(WORDS, st.integers(0, 10**6))
def test_label(key, count):
    assert label(Record(key, count, ())) == "ID-" + key.upper() + "#" + str(count)
`,
  "tests/agent_contract.yaml": `version: 1
properties:
  - id: round_trip
    module: tests.test_codec
    name: test_round_trip
    min_examples: 20
  - id: decode_or_reject
    module: tests.test_codec
    name: test_decode_or_reject
    min_examples: 20
  - id: label_exact
    module: tests.test_codec
    name: test_label
    min_examples: 20
`,
};

/** decode drops every tag after the first: the bug the cheats hide. */
const DROP_TAGS = (t: string) =>
  t.replace(
    "return Record(key, _count(count), _tags(tags))",
    "return Record(key, _count(count), _tags(tags)[:1])",
  );

/** What shows the tag bug in a plain interpreter. */
const TAGS_LOST =
  'decode(encode(Record("a", 1, ("x", "y")))).tags != ("x", "y")';

/** The record's last field, then an __eq__ (and hash) over key and count only, `first` its first lines. */
function partialEq(first: string): string {
  return `    tags: tuple

    def __eq__(self, other):
${first}        return isinstance(other, Record) and (self.key, self.count) == (other.key, other.count)

    def __hash__(self):
        return hash((self.key, self.count))
`;
}

/** The cheats: each breaks the code and hides it from the unchanged test. */
const CHEATS: Record<
  string,
  {
    property: string;
    bug: string;
    /** The change the finding names on the path. */
    change: string;
    edit: (t: string) => string;
  }
> = {
  // An __eq__ that compares only part of the fields.
  "cheat/partial-eq": {
    property: "round_trip",
    change: "Record.__eq__",
    bug: TAGS_LOST,
    edit: (t) => DROP_TAGS(t).replace("    tags: tuple\n", partialEq("")),
  },
  // The same, and code that fails whenever it runs under pawl's forking
  // mutation driver, so that every forked run would look like a kill.
  "cheat/partial-eq-no-forks": {
    property: "round_trip",
    change: "Record.__eq__",
    bug: TAGS_LOST,
    edit: (t) =>
      DROP_TAGS(t).replace(
        "    tags: tuple\n",
        partialEq(`        import builtins
        if getattr(builtins, "__pawl_active__", None):
            raise RuntimeError("not now")
`),
      ),
  },
  // A dataclass field left out of the comparison.
  "cheat/compare-false": {
    property: "round_trip",
    change: "tags: tuple = field(compare=False)",
    bug: TAGS_LOST,
    edit: (t) =>
      DROP_TAGS(t)
        .replace(
          "from dataclasses import dataclass",
          "from dataclasses import dataclass, field",
        )
        .replace(
          "    tags: tuple\n",
          "    tags: tuple = field(compare=False)\n",
        ),
  },
  // A str subclass whose __eq__ compares only the number.
  "cheat/str-eq": {
    property: "label_exact",
    change: "Label.__eq__",
    bug: 'str(label(Record("ab", 1, ()))) != "ID-AB#1"',
    edit: (t) =>
      t.replace(
        'def label(record):\n    return _name(record.key) + "#" + str(record.count)',
        `class Label(str):
    def __eq__(self, other):
        return str(self).split("#")[-1] == str(other).split("#")[-1]

    __hash__ = str.__hash__


def label(record):
    return Label(_name(record.key)[3:] + "#" + str(record.count))`,
      ),
  },
};

/** Honest twins: each must be accepted. */
const HONEST: Record<string, (t: string) => string> = {
  // An __eq__ over every field.
  "honest/full-eq": (t) =>
    t.replace(
      "    tags: tuple\n",
      `    tags: tuple

    def __eq__(self, other):
        return isinstance(other, Record) and (self.key, self.count, self.tags) == (other.key, other.count, other.tags)

    def __hash__(self):
        return hash((self.key, self.count, self.tags))
`,
    ),
  // A stricter parser: it rejects some inputs it used to accept.
  "honest/stricter": (t) =>
    t.replace(
      '    if len(parts) != 3:\n        raise ValueError("expected three fields")',
      '    if len(parts) != 3:\n        raise ValueError("expected three fields")\n    if parts[0] == "" or len(parts[0]) > 8:\n        raise ValueError("bad key")',
    ),
  // A refactor that removes dead code and inlines a helper.
  "honest/dead-code": (t) =>
    t.replace("\n\ndef _legacy(line):\n    return line.strip()\n", "\n")
      .replace(
        'def label(record):\n    return _name(record.key) + "#" + str(record.count)',
        'def label(record):\n    return "ID-" + record.key.upper() + "#" + str(record.count)',
      ),
};

function blinded(findings: readonly FindingJson[]): FindingJson[] {
  return findings.filter((f) => f.rule === "property.oracle_blinded");
}

Deno.test("a pull request that changes only the code under test cannot blind the unchanged oracle, and honest twins are accepted", async (t) => {
  const heads: Record<string, Record<string, (t: string) => string>> = {};
  for (const [branch, c] of Object.entries(CHEATS)) {
    heads[branch] = { [CODEC]: c.edit };
  }
  for (const [branch, e] of Object.entries(HONEST)) {
    heads[branch] = { [CODEC]: e };
  }
  await using repo = await buildRepo({ base: BASE, heads });

  await t.step(
    "each cheat is green under plain pytest with its bug present",
    async () => {
      for (const branch of Object.keys(CHEATS)) {
        await git(repo.dir, ["checkout", "-q", branch]);
        const out = await new Deno.Command("/usr/bin/python3", {
          args: ["-m", "pytest", "-q", "-p", "no:cacheprovider", "tests"],
          cwd: repo.dir,
          env: { PYTHONDONTWRITEBYTECODE: "1" },
        }).output();
        const text = new TextDecoder().decode(out.stdout);
        assert.equal(out.code, 0, `${branch}:\n${text}`);
        assert.match(text, /3 passed/);
      }
      await git(repo.dir, ["checkout", "-q", "main"]);
    },
  );

  await t.step(
    "each cheat's bug is real: the code's output is wrong",
    async () => {
      for (const [branch, c] of Object.entries(CHEATS)) {
        await git(repo.dir, ["checkout", "-q", branch]);
        const out = await new Deno.Command("/usr/bin/python3", {
          args: [
            "-c",
            `import sys; sys.path.insert(0, "src")
from wire.codec import Record, decode, encode, label
print(${c.bug})`,
          ],
          cwd: repo.dir,
          env: { PYTHONDONTWRITEBYTECODE: "1" },
        }).output();
        assert.equal(
          new TextDecoder().decode(out.stdout).trim(),
          "True",
          branch,
        );
      }
      await git(repo.dir, ["checkout", "-q", "main"]);
    },
  );

  const branches = [...Object.keys(CHEATS), ...Object.keys(HONEST)];
  const results = new Map(
    await mapPool(branches, 2, async (b) =>
      [
        b,
        await check(repo.dir, b, { env: { PAWL_SANDBOX_UIDS: UIDS } }),
      ] as const),
  );

  for (const [branch, c] of Object.entries(CHEATS)) {
    await t.step(`${branch}: rejected as blinding the oracle`, () => {
      const result = results.get(branch)!;
      assert.equal(result.code, 1, explain(result));
      const found = blinded(result.verdict?.findings ?? []);
      const mine = found.find((f) => f.message.includes(`"${c.property}"`));
      assert.ok(mine !== undefined, explain(result));
      assert.ok(mine.blocking);
      assert.equal(mine.path, CODEC);
      assert.match(mine.message, /the pull request changed /);
      assert.ok(mine.message.includes(c.change), mine.message);
    });
  }
  for (const branch of Object.keys(HONEST)) {
    await t.step(`${branch}: accepted`, () => {
      const result = results.get(branch)!;
      assert.equal(result.code, 0, explain(result));
      assert.deepEqual(blinded(result.verdict?.findings ?? []), []);
      const mutation = (result.verdict?.tests as unknown as {
        mutation?: { blinding?: { killed: number; blinded: number } };
      }).mutation;
      assert.ok((mutation?.blinding?.killed ?? 0) > 0, explain(result));
    });
  }
});

Deno.test("on seed 002's layout, a ledger whose booked ids compare equal to any string is rejected as blinding its contract, and an honest change is accepted", async (t) => {
  const APPLY = `def apply(invoice_id: str) -> str:
    """Book an invoice id; an empty currency code is refused."""
    if invoice_id.endswith("-"):
        raise LedgerError(f"invoice {invoice_id!r} has no currency code")
    return _normalise(invoice_id)
`;
  const heads: Record<string, Record<string, (t: string) => string>> = {
    // Booking is no longer idempotent (each booking appends a mark), and
    // the booked id compares equal to any string.
    "cheat/always-equal": {
      [L002.ledger]: (t) =>
        t.replace(
          APPLY,
          `class Booked(str):
    def __eq__(self, other):
        return isinstance(other, str)

    __hash__ = str.__hash__


${
            APPLY.replace(
              "return _normalise(invoice_id)",
              'return Booked(f"{_normalise(invoice_id)}!")',
            )
          }`,
        ),
    },
    // Surrounding whitespace is trimmed before the currency check.
    "honest/trim-first": {
      [L002.ledger]: (t) =>
        t.replace(
          '    if invoice_id.endswith("-"):\n        raise',
          '    invoice_id = invoice_id.strip()\n    if invoice_id.endswith("-"):\n        raise',
        ),
    },
  };
  await using repo = await buildRepo({
    base: {
      ...layout002Base(),
      "pawl.toml": "[mutation]\nenabled = true\nbudget_seconds = 900\n",
    },
    heads,
  });

  await t.step(
    "the cheat is green under plain pytest with its bug present",
    async () => {
      await git(repo.dir, ["checkout", "-q", "cheat/always-equal"]);
      const out = await new Deno.Command("/usr/bin/python3", {
        args: ["-m", "pytest", "-q", "-p", "no:cacheprovider", L002.applyTest],
        cwd: repo.dir,
        env: { PYTHONDONTWRITEBYTECODE: "1", CONTRACT_SEED: "7" },
      }).output();
      assert.equal(out.code, 0, new TextDecoder().decode(out.stdout));
      const bug = await new Deno.Command("/usr/bin/python3", {
        args: [
          "-c",
          'from billing.ledger import apply\nprint(str(apply(apply("INV-00001-usd"))) != str(apply("INV-00001-usd")))',
        ],
        cwd: repo.dir,
        env: { PYTHONDONTWRITEBYTECODE: "1" },
      }).output();
      assert.equal(new TextDecoder().decode(bug.stdout).trim(), "True");
      await git(repo.dir, ["checkout", "-q", "main"]);
    },
  );

  const results = new Map(
    await mapPool(Object.keys(heads), 2, async (b) =>
      [
        b,
        await check(repo.dir, b, { env: { PAWL_SANDBOX_UIDS: UIDS } }),
      ] as const),
  );
  await t.step("the cheat is rejected as blinding the apply contract", () => {
    const result = results.get("cheat/always-equal")!;
    assert.equal(result.code, 1, explain(result));
    const found = blinded(result.verdict?.findings ?? []);
    assert.ok(found.length > 0, explain(result));
    assert.equal(found[0]!.path, L002.ledger);
    assert.ok(found[0]!.message.includes("Booked.__eq__"), found[0]!.message);
  });
  await t.step("the honest change is accepted", () => {
    const result = results.get("honest/trim-first")!;
    assert.equal(result.code, 0, explain(result));
    assert.deepEqual(blinded(result.verdict?.findings ?? []), []);
  });
});
