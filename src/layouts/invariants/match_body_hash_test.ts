import assert from "node:assert/strict";
import type { EntryKind, Tree, TreeEntry } from "../../git/git.ts";
import type { PythonModule } from "../../python/python_module.ts";
import { type BodyHashMatch, matchBodyHash } from "./match_body_hash.ts";
import type { FrozenTest } from "./read_freeze_list.ts";
import { sourceSha256 } from "./source_sha256.ts";

const FILE = "tests/test_a.py";
const TEST: FrozenTest = {
  nodeId: `${FILE}::test_a`,
  file: FILE,
  qualname: "test_a",
};
const SOURCE = "def test_a():\n    assert f(1) == 2\n";
const FUNCTION = sourceSha256(SOURCE);
const WHOLE = "a".repeat(64);
const OTHER = "b".repeat(64);

function tree(kind: EntryKind | undefined): Tree {
  const out = new Map<string, TreeEntry>([[
    "tests",
    { path: "tests", kind: "tree", oid: "t", size: 0 },
  ]]);
  if (kind !== undefined) {
    out.set(FILE, { path: FILE, kind, oid: "1", size: 10 });
  }
  return out;
}

function module(): Map<string, PythonModule> {
  return new Map([[FILE, {
    functions: new Map([["test_a", {
      name: "test_a",
      qualname: "test_a",
      line: 7,
      endLine: 8,
      source: SOURCE,
      decorators: [],
      usesHypothesis: false,
      skips: [],
      exampleAssertions: 1,
    }]]),
  }]]);
}

interface Case {
  kind?: EntryKind | undefined;
  modules?: Map<string, PythonModule>;
  digest?: string;
}

function match(recorded: string, c: Case = {}): BodyHashMatch {
  return matchBodyHash(TEST, recorded, {
    headTree: tree("kind" in c ? c.kind : "file"),
    headModules: c.modules ?? module(),
    digests: new Map([[FILE, c.digest ?? WHOLE]]),
  });
}

Deno.test("matchBodyHash() accepts the hash of the sliced function or of the whole file", async (t) => {
  const cases: [string, string, Case, BodyHashMatch][] = [
    ["the function's hash", FUNCTION, {}, { kind: "function" }],
    ["the whole file's hash", WHOLE, {}, { kind: "file" }],
    [
      "the whole file's hash when the shell wrote it in capitals",
      WHOLE,
      { digest: WHOLE.toUpperCase() },
      { kind: "file" },
    ],
    [
      "the whole file's hash in an executable file",
      WHOLE,
      { kind: "executable" },
      { kind: "file" },
    ],
    [
      "the whole file's hash when the function is gone",
      WHOLE,
      { modules: new Map() },
      { kind: "file" },
    ],
  ];
  for (const [name, recorded, c, expected] of cases) {
    await t.step(name, () => assert.deepEqual(match(recorded, c), expected));
  }
});

Deno.test("matchBodyHash() says why a recorded hash matches nothing, with the hashes it computed", async (t) => {
  const cases: [string, string, Case, BodyHashMatch][] = [
    [
      "another hash",
      OTHER,
      {},
      {
        kind: "none",
        reason: "mismatch",
        fileSha256: WHOLE,
        functionSha256: FUNCTION,
        line: 7,
      },
    ],
    [
      "another hash when the function is gone",
      OTHER,
      { modules: new Map() },
      { kind: "none", reason: "mismatch", fileSha256: WHOLE },
    ],
    [
      "a 32-digit placeholder",
      "9c56cc51b374c32ba11507e6e0c2484e",
      {},
      {
        kind: "none",
        reason: "not_sha256",
        fileSha256: WHOLE,
        functionSha256: FUNCTION,
        line: 7,
      },
    ],
    [
      "the whole file's hash in capitals is no sha256 as recorded",
      WHOLE.toUpperCase(),
      {},
      {
        kind: "none",
        reason: "not_sha256",
        fileSha256: WHOLE,
        functionSha256: FUNCTION,
        line: 7,
      },
    ],
    [
      "the whole file's hash with a character before it",
      `x${WHOLE}`,
      {},
      {
        kind: "none",
        reason: "not_sha256",
        fileSha256: WHOLE,
        functionSha256: FUNCTION,
        line: 7,
      },
    ],
    [
      "the whole file's hash with a character after it",
      `${WHOLE}x`,
      {},
      {
        kind: "none",
        reason: "not_sha256",
        fileSha256: WHOLE,
        functionSha256: FUNCTION,
        line: 7,
      },
    ],
  ];
  for (const [name, recorded, c, expected] of cases) {
    await t.step(name, () => assert.deepEqual(match(recorded, c), expected));
  }
});

Deno.test("matchBodyHash() matches nothing in a frozen test file that is not a regular file", async (t) => {
  const cases: [string, EntryKind | undefined, RegExp][] = [
    ["a deleted file", undefined, /does not exist/],
    ["a symlink", "symlink", /symlink/],
  ];
  for (const [name, kind, detail] of cases) {
    await t.step(name, () => {
      const found = match(WHOLE, { kind });
      assert.equal(found.kind, "none");
      assert.equal(found.kind === "none" && found.reason, "file_unusable");
      assert.match((found.kind === "none" && found.detail) || "", detail);
    });
  }
});

Deno.test("matchBodyHash() refuses to judge a regular file the shell computed no digest for", () => {
  assert.throws(
    () =>
      matchBodyHash(TEST, WHOLE, {
        headTree: tree("file"),
        headModules: module(),
        digests: new Map(),
      }),
    /^Error: Cannot check frozen test "tests\/test_a\.py::test_a": no digest was computed for its file$/,
  );
});
