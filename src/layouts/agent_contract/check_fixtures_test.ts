import assert from "node:assert/strict";
import type { EntryKind } from "../../git/git.ts";
import {
  agentContract,
  CONTRACT,
  INVOICE_SHA,
  SEED_CONTRACT,
  sha,
  treeOf,
} from "./_testing.ts";
import { checkFixtures, fixturePathsToHash } from "./check_fixtures.ts";
import { readAgentContract } from "./read_agent_contract.ts";

const GOOD = "tests/fixtures/a.json";

interface Case {
  name: string;
  path: string;
  files?: Record<string, EntryKind>;
  digest?: string;
  rule?: string;
  findingPath?: string;
}

Deno.test("checkFixtures() judges fixture paths, files and digests", async (t) => {
  const cases: Case[] = [
    { name: "a regular file with the registered digest passes", path: GOOD },
    {
      name: "an executable file with the registered digest passes",
      path: GOOD,
      files: { [GOOD]: "executable" },
    },
    {
      name: "a file in a subdirectory passes",
      path: "tests/fixtures/v3/a.json",
      files: { "tests/fixtures/v3/a.json": "file" },
    },
    {
      name: "different bytes are a digest mismatch at the fixture file",
      path: GOOD,
      digest: sha("1"),
      rule: "fixture.digest_mismatch",
      findingPath: GOOD,
    },
    {
      name: "a '../' path is unsafe",
      path: "../secrets.json",
      rule: "fixture.path_unsafe",
    },
    {
      name: "an absolute path is unsafe",
      path: "/etc/passwd",
      rule: "fixture.path_unsafe",
    },
    {
      name: "tests/fixtures/../x is unsafe even though x exists",
      path: "tests/fixtures/../x",
      files: { "tests/x": "file" },
      rule: "fixture.path_unsafe",
    },
    {
      name: "a backslash path is unsafe",
      path: "tests\\fixtures\\a.json",
      rule: "fixture.path_unsafe",
    },
    {
      name: "an empty segment is unsafe",
      path: "tests/fixtures//a.json",
      rule: "fixture.path_unsafe",
    },
    {
      name: "an empty path is unsafe",
      path: "",
      rule: "fixture.path_unsafe",
    },
    {
      name:
        "a file outside tests/fixtures/ is unsafe, even with the right digest",
      path: "tests/data/a.json",
      files: { "tests/data/a.json": "file" },
      rule: "fixture.path_unsafe",
    },
    {
      name: "a missing file is reported at the contract",
      path: "tests/fixtures/gone.json",
      rule: "fixture.missing",
    },
    {
      name: "a symlink entry is rejected at the fixture path",
      path: GOOD,
      files: { [GOOD]: "symlink" },
      rule: "fixture.symlink",
      findingPath: GOOD,
    },
    {
      name: "a symlinked parent directory is rejected at the symlink",
      path: "tests/fixtures/linked/a.json",
      files: { "tests/fixtures/linked": "symlink" },
      rule: "fixture.symlink",
      findingPath: "tests/fixtures/linked",
    },
    {
      name: "a directory is rejected",
      path: "tests/fixtures/dir",
      files: { "tests/fixtures/dir/a.json": "file" },
      rule: "fixture.symlink",
      findingPath: "tests/fixtures/dir",
    },
    {
      name: "a submodule is rejected",
      path: "tests/fixtures/vendor",
      files: { "tests/fixtures/vendor": "submodule" },
      rule: "fixture.symlink",
      findingPath: "tests/fixtures/vendor",
    },
  ];
  for (const c of cases) {
    await t.step(c.name, () => {
      const tree = treeOf(c.files ?? { [GOOD]: "file" });
      const contract = agentContract({
        fixtures: [{ id: "fx", path: c.path, sha256: sha("a"), unlock: null }],
      });
      const toHash = fixturePathsToHash(contract, tree);
      const digests = new Map(toHash.map((p) => [p, c.digest ?? sha("a")]));
      const findings = checkFixtures(contract, {
        tree,
        digests,
        path: CONTRACT,
      });
      assert.deepEqual(
        findings.map((f) => f.rule),
        c.rule === undefined ? [] : [c.rule],
      );
      for (const f of findings) {
        assert.equal(f.layer, "fixture");
        assert.equal(f.blocking, true);
        assert.equal(f.path, c.findingPath ?? CONTRACT);
      }
      // Only safe regular files are ever handed to the hasher.
      assert.deepEqual(
        toHash,
        c.rule === undefined || c.rule === "fixture.digest_mismatch"
          ? [c.path]
          : [],
      );
    });
  }
});

Deno.test("checkFixtures() names the first 12 hex digits of the expected and actual digests", () => {
  const contract = readAgentContract(SEED_CONTRACT, { path: CONTRACT });
  const path = "tests/fixtures/invoice_v3.json";
  const findings = checkFixtures(contract, {
    tree: treeOf({ [path]: "file" }),
    digests: new Map([[path, sha("b")]]),
    path: CONTRACT,
  });
  assert.equal(findings.length, 1);
  assert.equal(
    findings[0]?.message,
    `Fixture "invoice_v3" digest mismatch: expected ${
      INVOICE_SHA.slice(0, 12)
    } got bbbbbbbbbbbb; keep the old bytes, or have a human rotate the fixture`,
  );
});

Deno.test("checkFixtures() points unsafe and missing paths at the contract line", () => {
  const contract = readAgentContract(
    SEED_CONTRACT.replace(
      "path: tests/fixtures/invoice_v3.json",
      "path: tests/fixtures/../invoice_v3.json",
    ),
    { path: CONTRACT },
  );
  const findings = checkFixtures(contract, {
    tree: treeOf({}),
    digests: new Map(),
    path: CONTRACT,
  });
  assert.deepEqual(findings.map((f) => [f.rule, f.path, f.line]), [[
    "fixture.path_unsafe",
    CONTRACT,
    14,
  ]]);
});

Deno.test("checkFixtures() compares digests case-insensitively", () => {
  const findings = checkFixtures(
    agentContract({
      fixtures: [{ id: "fx", path: GOOD, sha256: sha("a"), unlock: null }],
    }),
    {
      tree: treeOf({ [GOOD]: "file" }),
      digests: new Map([[GOOD, sha("A")]]),
      path: CONTRACT,
    },
  );
  assert.deepEqual(findings, []);
});

Deno.test("checkFixtures() throws when the shell did not hash a fixture it was asked to", () => {
  assert.throws(
    () =>
      checkFixtures(
        agentContract({
          fixtures: [{ id: "fx", path: GOOD, sha256: sha("a"), unlock: null }],
        }),
        {
          tree: treeOf({ [GOOD]: "file" }),
          digests: new Map(),
          path: CONTRACT,
        },
      ),
    /no digest was computed for "tests\/fixtures\/a.json"/,
  );
});

Deno.test("fixturePathsToHash() lists each safe path once, sorted", () => {
  const fixtures = ["tests/fixtures/b", "tests/fixtures/a", "tests/fixtures/b"]
    .map((path, i) => ({ id: `f${i}`, path, sha256: sha("a"), unlock: null }));
  assert.deepEqual(
    fixturePathsToHash(
      agentContract({ fixtures }),
      treeOf({ "tests/fixtures/a": "file", "tests/fixtures/b": "file" }),
    ),
    ["tests/fixtures/a", "tests/fixtures/b"],
  );
});

Deno.test("checkFixtures() judges paths against the base's [fixtures] roots", async (t) => {
  const MYPY = "tests/test_mypy.yml";
  const judge = (path: string, roots?: readonly string[]) => {
    const tree = treeOf({ [path]: "file", "tests/fixtures/a.json": "file" });
    const contract = agentContract({
      fixtures: [{ id: "fx", path, sha256: sha("a"), unlock: null }],
    });
    const toHash = fixturePathsToHash(contract, tree, { roots });
    const findings = checkFixtures(contract, {
      tree,
      digests: new Map(toHash.map((p) => [p, sha("a")])),
      path: CONTRACT,
      ...(roots === undefined ? {} : { roots }),
    });
    return { toHash, findings };
  };
  await t.step(
    "a file under tests/ outside tests/fixtures/ is unsafe by default, and the message names the setting",
    () => {
      const { toHash, findings } = judge(MYPY);
      assert.deepEqual(toHash, []);
      assert.deepEqual(findings.map((f) => f.rule), ["fixture.path_unsafe"]);
      assert.match(findings[0]!.message, /outside "tests\/fixtures\/"/);
      assert.match(findings[0]!.message, /\[fixtures\] roots/);
    },
  );
  await t.step('roots = ["tests"] admits it and hashes it', () => {
    const { toHash, findings } = judge(MYPY, ["tests"]);
    assert.deepEqual(toHash, [MYPY]);
    assert.deepEqual(findings, []);
  });
  await t.step(
    'a root replaces the default: tests/fixtures/ is outside roots = ["data"]',
    () => {
      const { toHash, findings } = judge("tests/fixtures/a.json", ["data"]);
      assert.deepEqual(toHash, []);
      assert.deepEqual(findings.map((f) => f.rule), ["fixture.path_unsafe"]);
      assert.match(findings[0]!.message, /outside "data\/"/);
    },
  );
  await t.step("hygiene is unchanged inside a wider root", () => {
    for (const path of ["tests/../setup.py", "/etc/passwd", "tests/./a"]) {
      const { toHash, findings } = judge(path, ["."]);
      assert.deepEqual(toHash, [], path);
      assert.deepEqual(findings.map((f) => f.rule), ["fixture.path_unsafe"]);
    }
  });
  await t.step("a symlinked directory inside the root is still refused", () => {
    const tree = treeOf({ "tests/data": "symlink" });
    const contract = agentContract({
      fixtures: [{
        id: "fx",
        path: "tests/data/a.json",
        sha256: sha("a"),
        unlock: null,
      }],
    });
    const roots = ["tests"];
    assert.deepEqual(fixturePathsToHash(contract, tree, { roots }), []);
    assert.deepEqual(
      checkFixtures(contract, {
        tree,
        digests: new Map(),
        path: CONTRACT,
        roots,
      }).map((f) => [f.rule, f.path]),
      [["fixture.symlink", "tests/data"]],
    );
  });
});

Deno.test("checkFixtures() messages say what is wrong with the fixture and the way out", async (t) => {
  const judge = (
    fixture: { path: string; unlock?: string | null },
    files: Record<string, EntryKind>,
    digest = sha("a"),
    roots?: readonly string[],
  ) =>
    checkFixtures(
      agentContract({
        fixtures: [{
          id: "fx",
          path: fixture.path,
          sha256: sha("a"),
          unlock: fixture.unlock ?? null,
        }],
      }),
      {
        tree: treeOf(files),
        digests: new Map([[fixture.path, digest]]),
        path: CONTRACT,
        ...(roots === undefined ? {} : { roots }),
      },
    ).map((f) => f.message);
  const cases: { name: string; messages: string[]; want: string[] }[] = [
    {
      name: "moved bytes under an unlock say a human still rotates",
      messages: judge(
        { path: GOOD, unlock: "PAY-1" },
        { [GOOD]: "file" },
        sha("b"),
      ),
      want: [
        'Fixture "fx" digest mismatch: expected aaaaaaaaaaaa got bbbbbbbbbbbb; the unlock is set, but a human must rotate the fixture in a reviewed commit',
      ],
    },
    {
      name: "a missing file says to restore it",
      messages: judge({ path: GOOD }, {}),
      want: [`Fixture "fx" file "${GOOD}" does not exist: restore it`],
    },
    {
      name: "a symlink says pawl never follows it",
      messages: judge({ path: GOOD }, { [GOOD]: "symlink" }),
      want: [
        `Fixture "fx" file "${GOOD}" is a symlink: a fixture must be a regular file, pawl never follows symlinks`,
      ],
    },
    {
      name: "an unsafe path under the default root says roots can name others",
      messages: judge({ path: "/etc/passwd" }, {}),
      want: [
        'Fixture "fx" path "/etc/passwd" is absolute: fixtures live under "tests/fixtures/" at a canonical path (the base\'s pawl.toml [fixtures] roots can name others)',
      ],
    },
    {
      name: "an unsafe path under the base's roots names only those roots",
      messages: judge({ path: "/etc/passwd" }, {}, sha("a"), ["data"]),
      want: [
        'Fixture "fx" path "/etc/passwd" is absolute: fixtures live under "data/" at a canonical path',
      ],
    },
  ];
  for (const c of cases) {
    await t.step(c.name, () => assert.deepEqual(c.messages, c.want));
  }
});

Deno.test("checkFixtures() points at the fixture's path line, else its entry", async (t) => {
  const cases: [string, Record<string, number>, number | undefined][] = [
    ["the path key's line", { "fx.path": 9, fx: 8 }, 9],
    ["the entry's line when the path has none", { fx: 8 }, 8],
    ["no line when neither has one", {}, undefined],
  ];
  for (const [name, lines, line] of cases) {
    await t.step(name, () => {
      const contract = {
        ...agentContract({
          fixtures: [{ id: "fx", path: GOOD, sha256: sha("a"), unlock: null }],
        }),
        lines: {
          key: () => undefined,
          entry: (section: string, id: string, key?: string) =>
            section === "fixtures"
              ? lines[key === undefined ? id : `${id}.${key}`]
              : undefined,
        },
      };
      const findings = checkFixtures(contract, {
        tree: treeOf({}),
        digests: new Map(),
        path: CONTRACT,
      });
      assert.deepEqual(findings.map((f) => [f.rule, f.line]), [[
        "fixture.missing",
        line,
      ]]);
    });
  }
});
