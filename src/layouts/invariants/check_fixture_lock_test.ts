import assert from "node:assert/strict";
import type { EntryKind } from "../../git/git.ts";
import { lock, ruleIds, sha, treeOf } from "./_testing.ts";
import { checkFixtureLock, fixtureLockEntries } from "./check_fixture_lock.ts";
import type { ContractSides } from "./invariants_contract.ts";
import type { FixtureLock } from "./read_fixture_lock.ts";

const A = "testdata/a.json";
const B = "tests/fixtures/b.sql";

Deno.test("checkFixtureLock() judges fixture bytes against the base lock", async (t) => {
  const cases: {
    name: string;
    sides: ContractSides<FixtureLock>;
    bytes: Record<string, string>;
    files?: Record<string, EntryKind>;
    rotate?: boolean;
    rules: string[];
  }[] = [
    {
      name: "unchanged bytes and lock pass",
      sides: { base: lock({ [A]: sha("a") }), head: lock({ [A]: sha("a") }) },
      bytes: { [A]: sha("a") },
      rules: [],
    },
    {
      name: "a head lock that is unusable is judged by the base lock",
      sides: { base: lock({ [A]: sha("a") }), head: null },
      bytes: { [A]: sha("1") },
      rules: ["fixture.digest_mismatch"],
    },
    {
      name: "an unusable head lock does not count as a rotation",
      sides: { base: lock({ [A]: sha("a") }), head: null },
      bytes: { [A]: sha("1") },
      rotate: true,
      rules: ["fixture.digest_mismatch"],
    },
    {
      name:
        "a head lock naming another digest than the bytes under the flag is rejected",
      sides: { base: lock({ [A]: sha("a") }), head: lock({ [A]: sha("2") }) },
      bytes: { [A]: sha("1") },
      rotate: true,
      rules: ["fixture.digest_changed"],
    },
    {
      name:
        "a lock digest rewritten over unchanged bytes is rejected without a rotation allowance",
      sides: { base: lock({ [A]: sha("a") }), head: lock({ [A]: sha("2") }) },
      bytes: { [A]: sha("a") },
      rules: ["fixture.digest_changed"],
    },
    {
      name:
        "a lock digest rewritten over unchanged bytes is rejected even with rotation allowed",
      sides: { base: lock({ [A]: sha("a") }), head: lock({ [A]: sha("2") }) },
      bytes: { [A]: sha("a") },
      rotate: true,
      rules: ["fixture.digest_changed"],
    },
    {
      name:
        "a lock digest rewritten over unchanged bytes is rejected when the base policy allows rotation",
      sides: {
        base: lock({ [A]: sha("a") }, true),
        head: lock({ [A]: sha("2") }, true),
      },
      bytes: { [A]: sha("a") },
      rules: ["fixture.digest_changed"],
    },
    {
      name:
        "bytes rotated with the new digest locked under the flag are reported, not blocking",
      sides: { base: lock({ [A]: sha("a") }), head: lock({ [A]: sha("1") }) },
      bytes: { [A]: sha("1") },
      rotate: true,
      rules: ["~fixture.rotated"],
    },
    {
      name: "a removed entry whose bytes moved is reported twice",
      sides: { base: lock({ [A]: sha("a") }), head: lock({}) },
      bytes: { [A]: sha("1") },
      rules: ["fixture.digest_mismatch", "fixture.removed"],
    },
    {
      name: "an entry the head adds must match its bytes",
      sides: { base: lock({}), head: lock({ [B]: sha("b") }) },
      bytes: { [B]: sha("c") },
      rules: ["fixture.digest_mismatch"],
    },
    {
      name: "no base lock: a head lock with the real digests sets no finding",
      sides: { base: undefined, head: lock({ [B]: sha("b") }, true) },
      bytes: { [B]: sha("b") },
      rules: [],
    },
    {
      name: "a symlinked parent directory is not followed",
      sides: { base: lock({ [A]: sha("a") }), head: lock({ [A]: sha("a") }) },
      bytes: {},
      files: { testdata: "symlink" },
      rules: ["fixture.symlink"],
    },
    {
      name: "an absolute path is unsafe",
      sides: { base: lock({ "/etc/passwd": sha("a") }), head: null },
      bytes: {},
      rules: ["fixture.path_unsafe"],
    },
  ];
  for (const c of cases) {
    await t.step(c.name, () => {
      const files = c.files ??
        Object.fromEntries(Object.keys(c.bytes).map((p) => [p, "file"]));
      const findings = checkFixtureLock(c.sides, {
        headTree: treeOf(files),
        digests: new Map(Object.entries(c.bytes)),
        allowFixtureRotate: c.rotate ?? false,
      });
      assert.deepEqual(ruleIds(findings), c.rules);
    });
  }
});

Deno.test("checkFixtureLock() names who allowed a rotation", () => {
  const sides = {
    base: lock({ [A]: sha("a") }),
    head: lock({ [A]: sha("1") }),
  };
  const options = {
    headTree: treeOf({ [A]: "file" }),
    digests: new Map([[A, sha("1")]]),
  };
  const [flag] = checkFixtureLock(sides, {
    ...options,
    allowFixtureRotate: true,
  });
  assert.equal(flag?.rule, "fixture.rotated");
  assert.equal(flag?.blocking, false);
  assert.match(flag?.message ?? "", /under --allow-fixture-rotate/);
  const [policy] = checkFixtureLock(
    {
      base: lock({ [A]: sha("a") }, true),
      head: lock({ [A]: sha("1") }, true),
    },
    { ...options, allowFixtureRotate: false },
  );
  assert.match(
    policy?.message ?? "",
    /under the base policy allow_rotate_on_agent_pr/,
  );
});

Deno.test("checkFixtureLock() throws when the shell hashed no bytes for a fixture", () => {
  assert.throws(
    () =>
      checkFixtureLock({ base: lock({ [A]: sha("a") }), head: null }, {
        headTree: treeOf({ [A]: "file" }),
        digests: new Map(),
        allowFixtureRotate: false,
      }),
    /no digest was computed/,
  );
});

Deno.test("checkFixtureLock() locks files anywhere by default and only inside the base's [fixtures] roots when set", () => {
  const sides = { base: lock({ [A]: sha("a"), [B]: sha("b") }), head: null };
  const options = {
    headTree: treeOf({ [A]: "file", [B]: "file" }),
    digests: new Map([[A, sha("a")], [B, sha("b")]]),
    allowFixtureRotate: false,
  };
  assert.deepEqual(checkFixtureLock(sides, options), []);
  const rooted = checkFixtureLock(sides, {
    ...options,
    roots: ["tests/fixtures"],
  });
  assert.deepEqual(rooted.map((f) => f.rule), ["fixture.path_unsafe"]);
  assert.match(
    rooted[0]!.message,
    /"testdata\/a\.json" is outside "tests\/fixtures\/"/,
  );
  assert.match(rooted[0]!.message, /\[fixtures\] roots/);
  assert.deepEqual(
    checkFixtureLock(sides, { ...options, roots: ["testdata", "tests"] }),
    [],
  );
});

/** `base` and `head` locks whose `lineOf` answers from `lines` (path joined with dots). */
function lined(
  files: Record<string, string>,
  allowRotateOnAgentPr: boolean,
  lines: Record<string, number>,
): FixtureLock {
  return {
    ...lock(files, allowRotateOnAgentPr),
    lineOf: (path) => lines[path.join(".")],
  };
}

Deno.test("checkFixtureLock() keeps rotation a human's flag", async (t) => {
  const cases: {
    name: string;
    sides: ContractSides<FixtureLock>;
    bytes: string;
    rotate?: boolean;
    rules: string[];
  }[] = [
    {
      name: "a head that turns allow_rotate_on_agent_pr on is rejected",
      sides: {
        base: lock({ [A]: sha("a") }),
        head: lock({ [A]: sha("a") }, true),
      },
      bytes: sha("a"),
      rules: ["fixture.policy_loosened"],
    },
    {
      name: "a head that turns the policy on does not allow its own rotation",
      sides: {
        base: lock({ [A]: sha("a") }),
        head: lock({ [A]: sha("1") }, true),
      },
      bytes: sha("1"),
      rules: ["fixture.digest_changed", "fixture.policy_loosened"],
    },
    {
      name: "a base policy that already allows rotation is no loosening",
      sides: {
        base: lock({ [A]: sha("a") }, true),
        head: lock({ [A]: sha("a") }, true),
      },
      bytes: sha("a"),
      rules: [],
    },
    {
      name: "a base policy turned off by the head is no loosening",
      sides: {
        base: lock({ [A]: sha("a") }, true),
        head: lock({ [A]: sha("a") }),
      },
      bytes: sha("a"),
      rules: [],
    },
    {
      name: "a head lock without a base has no policy to loosen",
      sides: { base: undefined, head: lock({ [A]: sha("a") }, true) },
      bytes: sha("a"),
      rules: [],
    },
    {
      name: "bytes rotated under the base policy are reported, not blocking",
      sides: {
        base: lock({ [A]: sha("a") }, true),
        head: lock({ [A]: sha("1") }, true),
      },
      bytes: sha("1"),
      rules: ["~fixture.rotated"],
    },
    {
      name:
        "bytes moved with the base digest kept under the flag still mismatch",
      sides: { base: lock({ [A]: sha("a") }), head: lock({ [A]: sha("a") }) },
      bytes: sha("1"),
      rotate: true,
      rules: ["fixture.digest_mismatch"],
    },
    {
      name: "a digest the shell wrote in upper case matches its lock",
      sides: { base: lock({ [A]: sha("a") }), head: lock({ [A]: sha("a") }) },
      bytes: sha("A"),
      rules: [],
    },
    {
      name: "an entry the head adds that matches its bytes is accepted",
      sides: { base: lock({}), head: lock({ [A]: sha("a") }) },
      bytes: sha("a"),
      rules: [],
    },
  ];
  for (const c of cases) {
    await t.step(c.name, () => {
      const findings = checkFixtureLock(c.sides, {
        headTree: treeOf({ [A]: "file" }),
        digests: new Map([[A, c.bytes]]),
        allowFixtureRotate: c.rotate ?? false,
      });
      assert.deepEqual(ruleIds(findings), c.rules);
    });
  }
});

Deno.test("checkFixtureLock() points each finding at the lock line or the fixture", async (t) => {
  const LINES = {
    "files.testdata/a.json": 7,
    "policy.allow_rotate_on_agent_pr": 2,
  };
  const cases: {
    name: string;
    sides: ContractSides<FixtureLock>;
    files: Record<string, EntryKind>;
    bytes: Record<string, string>;
    rotate?: boolean;
    where: [string, string, number | undefined][];
  }[] = [
    {
      name: "a loosened policy points at the policy key",
      sides: {
        base: lock({ [A]: sha("a") }),
        head: lined({ [A]: sha("a") }, true, LINES),
      },
      files: { [A]: "file" },
      bytes: { [A]: sha("a") },
      where: [["fixture.policy_loosened", "fixtures.lock", 2]],
    },
    {
      name: "a removed entry points at the lock",
      sides: { base: lined({ [A]: sha("a") }, false, LINES), head: lock({}) },
      files: { [A]: "file" },
      bytes: { [A]: sha("a") },
      where: [["fixture.removed", "fixtures.lock", undefined]],
    },
    {
      name: "a missing fixture points at its lock line",
      sides: {
        base: lock({ [A]: sha("a") }),
        head: lined({ [A]: sha("a") }, false, LINES),
      },
      files: {},
      bytes: {},
      where: [["fixture.missing", "fixtures.lock", 7]],
    },
    {
      name:
        "a missing fixture of an unusable head lock points at the base line",
      sides: { base: lined({ [A]: sha("a") }, false, LINES), head: null },
      files: {},
      bytes: {},
      where: [["fixture.missing", "fixtures.lock", 7]],
    },
    {
      name: "an unsafe path points at its lock line",
      sides: {
        base: lock({ "testdata/../a.json": sha("a") }),
        head: lined({ "testdata/../a.json": sha("a") }, false, {
          "files.testdata/../a.json": 9,
        }),
      },
      files: {},
      bytes: {},
      where: [["fixture.path_unsafe", "fixtures.lock", 9]],
    },
    {
      name: "a fixture behind a symlink points at the symlink",
      sides: {
        base: lock({ [A]: sha("a") }),
        head: lined({ [A]: sha("a") }, false, LINES),
      },
      files: { testdata: "symlink" },
      bytes: {},
      where: [["fixture.symlink", "testdata", undefined]],
    },
    {
      name: "bytes moved under an unchanged lock point at the fixture",
      sides: {
        base: lock({ [A]: sha("a") }),
        head: lined({ [A]: sha("a") }, false, LINES),
      },
      files: { [A]: "file" },
      bytes: { [A]: sha("1") },
      where: [["fixture.digest_mismatch", A, undefined]],
    },
    {
      name: "a rewritten lock digest points at its lock line",
      sides: {
        base: lock({ [A]: sha("a") }),
        head: lined({ [A]: sha("2") }, false, LINES),
      },
      files: { [A]: "file" },
      bytes: { [A]: sha("a") },
      where: [["fixture.digest_changed", "fixtures.lock", 7]],
    },
    {
      name: "bytes and lock changed together point at the lock line",
      sides: {
        base: lock({ [A]: sha("a") }),
        head: lined({ [A]: sha("1") }, false, LINES),
      },
      files: { [A]: "file" },
      bytes: { [A]: sha("1") },
      where: [["fixture.digest_changed", "fixtures.lock", 7]],
    },
    {
      name:
        "an added entry that does not match its bytes points at the fixture",
      sides: { base: lock({}), head: lined({ [A]: sha("2") }, false, LINES) },
      files: { [A]: "file" },
      bytes: { [A]: sha("1") },
      where: [["fixture.digest_mismatch", A, undefined]],
    },
    {
      name: "a rotation points at the fixture",
      sides: {
        base: lock({ [A]: sha("a") }),
        head: lined({ [A]: sha("1") }, false, LINES),
      },
      files: { [A]: "file" },
      bytes: { [A]: sha("1") },
      rotate: true,
      where: [["fixture.rotated", A, undefined]],
    },
  ];
  for (const c of cases) {
    await t.step(c.name, () => {
      const findings = checkFixtureLock(c.sides, {
        headTree: treeOf(c.files),
        digests: new Map(Object.entries(c.bytes)),
        allowFixtureRotate: c.rotate ?? false,
      });
      assert.deepEqual(findings.map((f) => [f.rule, f.path, f.line]), c.where);
    });
  }
});

Deno.test("checkFixtureLock() messages name the fixture, the digests and the way out", async (t) => {
  const run = (
    sides: ContractSides<FixtureLock>,
    bytes: string | undefined,
    rotate = false,
    extra: { roots?: string[]; path?: string } = {},
  ) =>
    checkFixtureLock(sides, {
      headTree: treeOf(bytes === undefined ? {} : { [A]: "file" }),
      digests: new Map(bytes === undefined ? [] : [[A, bytes]]),
      allowFixtureRotate: rotate,
      ...extra,
    }).map((f) => f.message);
  const a = sha("a").slice(0, 12);
  const one = sha("1").slice(0, 12);
  const two = sha("2").slice(0, 12);
  const cases: {
    name: string;
    messages: string[];
    want: (string | RegExp)[];
  }[] = [
    {
      name: "a loosened policy says rotation stays a human flag",
      messages: run({ base: lock({}), head: lock({}, true) }, sha("a")),
      want: [
        "The pull request turns allow_rotate_on_agent_pr on: fixture rotation stays a human flag",
      ],
    },
    {
      name: "a removed entry says the base digest still holds",
      messages: run(
        { base: lock({ [A]: sha("a") }), head: lock({}) },
        sha("a"),
      ),
      want: [
        `Fixture "${A}" was removed from the lock: its bytes are still checked against the base digest`,
      ],
    },
    {
      name: "a missing fixture says to restore it",
      messages: run({ base: lock({ [A]: sha("a") }), head: null }, undefined),
      want: [`Fixture "${A}" does not exist: restore it`],
    },
    {
      name: "an unsafe path without roots asks for canonical paths only",
      messages: run({ base: lock({ "/a": sha("a") }), head: null }, undefined),
      want: [
        'Fixture path "/a" is absolute: lock repository-relative, canonical paths',
      ],
    },
    {
      name: "a symlink says pawl never follows it",
      messages: checkFixtureLock(
        { base: lock({ [A]: sha("a") }), head: null },
        {
          headTree: treeOf({ [A]: "symlink" }),
          digests: new Map(),
          allowFixtureRotate: false,
        },
      ).map((f) => f.message),
      want: [
        `Fixture "${A}" is a symlink: a fixture must be a regular file, pawl never follows symlinks`,
      ],
    },
    {
      name: "an added entry names the locked and the real digest",
      messages: run(
        { base: lock({}), head: lock({ [A]: sha("2") }) },
        sha("1"),
      ),
      want: [
        `Fixture "${A}" added to the lock does not match its bytes: expected ${two} got ${one}; lock the digest of the file as it is`,
      ],
    },
    {
      name: "a rewritten lock digest names both digests",
      messages: run(
        { base: lock({ [A]: sha("a") }), head: lock({ [A]: sha("2") }) },
        sha("a"),
      ),
      want: [
        `Fixture "${A}" lock digest was rewritten from ${a} to ${two} although its bytes did not change: restore the base digest`,
      ],
    },
    {
      name: "moved bytes without a rotation say how a human rotates",
      messages: run(
        { base: lock({ [A]: sha("a") }), head: lock({ [A]: sha("a") }) },
        sha("1"),
      ),
      want: [
        `Fixture "${A}" bytes changed: expected ${a} got ${one}; keep the old bytes, or have a human rotate the fixture with --allow-fixture-rotate and update fixtures.lock in the same commit`,
      ],
    },
    {
      name: "moved bytes under a rotation say the lock must follow",
      messages: run(
        { base: lock({ [A]: sha("a") }), head: lock({ [A]: sha("a") }) },
        sha("1"),
        true,
      ),
      want: [
        `Fixture "${A}" bytes changed: expected ${a} got ${one}; rotation is allowed by --allow-fixture-rotate, but fixtures.lock must name the new digest in the same commit`,
      ],
    },
    {
      name: "bytes and lock moved without a rotation say agents do not rotate",
      messages: run(
        { base: lock({ [A]: sha("a") }), head: lock({ [A]: sha("1") }) },
        sha("1"),
      ),
      want: [
        `Fixture "${A}" bytes and lock digest changed from ${a} to ${one} without --allow-fixture-rotate: agent jobs do not rotate fixtures`,
      ],
    },
    {
      name: "a rotation locking another digest names both",
      messages: run(
        { base: lock({ [A]: sha("a") }), head: lock({ [A]: sha("2") }) },
        sha("1"),
        true,
      ),
      want: [
        `Fixture "${A}" lock names ${two} but the bytes hash to ${one}: a rotation must lock exactly the new digest`,
      ],
    },
    {
      name: "a rotation names both digests",
      messages: run(
        { base: lock({ [A]: sha("a") }), head: lock({ [A]: sha("1") }) },
        sha("1"),
        true,
      ),
      want: [
        `Fixture "${A}" was rotated from ${a} to ${one} under --allow-fixture-rotate: a human reviews the new bytes`,
      ],
    },
    {
      name: "findings name the lock's own path when given",
      messages: checkFixtureLock(
        { base: lock({ [A]: sha("a") }), head: lock({}) },
        {
          headTree: treeOf({ [A]: "file" }),
          digests: new Map([[A, sha("a")]]),
          allowFixtureRotate: false,
          path: "ci/fixtures.lock",
        },
      ).map((f) => f.path ?? ""),
      want: ["ci/fixtures.lock"],
    },
  ];
  for (const c of cases) {
    await t.step(c.name, () => {
      assert.equal(c.messages.length, c.want.length, c.messages.join("\n"));
      c.messages.forEach((m, i) => {
        const want = c.want[i]!;
        if (typeof want === "string") assert.equal(m, want);
        else assert.match(m, want);
      });
    });
  }
});

Deno.test("fixtureLockEntries() lists the base paths, then the paths the head adds, once each", () => {
  assert.deepEqual(
    fixtureLockEntries({
      base: lock({ [A]: sha("a"), [B]: sha("b") }),
      head: lock({ [B]: sha("b"), c: sha("c") }),
    }),
    [A, B, "c"],
  );
  assert.deepEqual(
    fixtureLockEntries({ base: undefined, head: lock({ c: sha("c") }) }),
    ["c"],
  );
  assert.deepEqual(
    fixtureLockEntries({ base: lock({ [A]: sha("a") }), head: null }),
    [A],
  );
});
