import assert from "node:assert/strict";
import type { EntryKind } from "../../git/git.ts";
import { lock, ruleIds, sha, treeOf } from "./_testing.ts";
import { checkFixtureLock } from "./check_fixture_lock.ts";
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
