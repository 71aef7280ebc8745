import assert from "node:assert/strict";
import fc from "fast-check";
import { effectiveFreezes } from "./effective_freezes.ts";
import type {
  FreezeEntry,
  FreezeList,
  FrozenTest,
} from "./read_freeze_list.ts";

function test(name: string): FrozenTest {
  return {
    nodeId: `tests/test_a.py::${name}`,
    file: "tests/test_a.py",
    qualname: name,
  };
}

function entry(
  index: number,
  fields: Partial<Omit<FreezeEntry, "index">> = {},
): FreezeEntry {
  return {
    index,
    id: undefined,
    test: undefined,
    bodySha256: undefined,
    expiresOn: undefined,
    owner: "human",
    reason: "r",
    missing: [],
    ...fields,
  };
}

function list(...freezes: FreezeEntry[]): FreezeList {
  return {
    policy: { maxFrozen: 5, failOnExpired: true },
    freezes,
    lineOf: () => undefined,
  };
}

const DAY = 86_400_000;

Deno.test("effectiveFreezes() enforces the head list, else the base list", async (t) => {
  const a = entry(0, { id: "a", test: test("test_a") });
  const b = entry(1, { id: "b", test: test("test_b") });
  const cases: [string, FreezeList | undefined, FreezeList | null, string[]][] =
    [
      ["neither side has a list", undefined, null, []],
      ["only the head has a list", undefined, list(a), ["a"]],
      ["the head's list, without a freeze it removed", list(a, b), list(b), [
        "b",
      ]],
      ["the base's list when the head has none usable", list(a, b), null, [
        "a",
        "b",
      ]],
    ];
  for (const [name, base, head, expected] of cases) {
    await t.step(name, () => {
      assert.deepEqual(
        effectiveFreezes({ base, head }).map((f) => f.name),
        expected,
      );
    });
  }
});

Deno.test("effectiveFreezes() holds each head entry to its base record", async (t) => {
  const baseEntry = entry(0, {
    id: "a",
    test: test("test_base"),
    bodySha256: "base-hash",
    expiresOn: "2026-01-01",
  });
  await t.step("the base's test and body hash win over the head's", () => {
    const headEntry = entry(3, {
      id: "a",
      test: test("test_head"),
      bodySha256: "head-hash",
      expiresOn: "2026-01-01",
    });
    const [f] = effectiveFreezes({
      base: list(baseEntry),
      head: list(headEntry),
    });
    assert.equal(f?.entry, headEntry);
    assert.equal(f?.base, baseEntry);
    assert.equal(f?.test?.qualname, "test_base");
    assert.equal(f?.bodySha256, "base-hash");
  });
  await t.step(
    "a head entry that keeps the id but drops the test and hash keeps the base's",
    () => {
      const [f] = effectiveFreezes({
        base: list(baseEntry),
        head: list(entry(0, { id: "a" })),
      });
      assert.equal(f?.test?.qualname, "test_base");
      assert.equal(f?.bodySha256, "base-hash");
      assert.equal(f?.expiresOn, "2026-01-01");
      assert.equal(f?.expiresAt, Date.parse("2026-01-01T00:00:00Z") + DAY);
    },
  );
  await t.step(
    "a freeze the head adds is enforced as written, with no base record",
    () => {
      const added = entry(1, {
        id: "new",
        test: test("test_new"),
        bodySha256: "new-hash",
        expiresOn: "2026-02-01",
      });
      const [f] = effectiveFreezes({
        base: list(baseEntry),
        head: list(added),
      });
      assert.equal(f?.base, undefined);
      assert.equal(f?.test?.qualname, "test_new");
      assert.equal(f?.bodySha256, "new-hash");
      assert.equal(f?.expiresOn, "2026-02-01");
    },
  );
  await t.step(
    "a head entry without an id has no base record and is named by its place",
    () => {
      const [f] = effectiveFreezes({
        base: list(entry(2, { test: test("test_base") })),
        head: list(entry(2, { test: test("test_head") })),
      });
      assert.equal(f?.base, undefined);
      assert.equal(f?.name, "#3");
      assert.equal(f?.test?.qualname, "test_head");
    },
  );
  await t.step("with no head, each base entry is its own record", () => {
    const [f] = effectiveFreezes({ base: list(baseEntry), head: null });
    assert.equal(f?.base, baseEntry);
    assert.equal(f?.entry, baseEntry);
  });
  await t.step(
    "with no head, a base entry without an id is its own record too",
    () => {
      const idless = entry(0, { test: test("test_base"), bodySha256: "h" });
      const [f] = effectiveFreezes({ base: list(idless), head: null });
      assert.equal(f?.base, idless);
      assert.equal(f?.name, "#1");
    },
  );
  await t.step(
    "a base entry without an id is no record for a head entry",
    () => {
      const [f] = effectiveFreezes({
        base: list(entry(0, { test: test("test_base") })),
        head: list(entry(0, { id: "a", test: test("test_head") })),
      });
      assert.equal(f?.base, undefined);
      assert.equal(f?.test?.qualname, "test_head");
    },
  );
});

Deno.test("effectiveFreezes() keeps the earlier expiry of base and head", async (t) => {
  const cases: [
    string,
    string | undefined,
    string | undefined,
    string | undefined,
  ][] = [
    ["the head moves it later", "2026-01-01", "2026-06-01", "2026-01-01"],
    ["the head moves it earlier", "2026-06-01", "2026-01-01", "2026-01-01"],
    ["the same day", "2026-01-01", "2026-01-01", "2026-01-01"],
    [
      "an instant earlier than the base's day",
      "2026-01-02",
      "2026-01-01T12:00:00Z",
      "2026-01-01T12:00:00Z",
    ],
    [
      "an instant later than the base's day",
      "2026-01-01",
      "2026-01-02T12:00:00Z",
      "2026-01-01",
    ],
    [
      "the same instant written another way keeps the base's wording",
      "2026-01-01",
      "2026-01-02T00:00:00Z",
      "2026-01-01",
    ],
    ["the head drops it", "2026-01-01", undefined, "2026-01-01"],
    ["the base had none", undefined, "2026-01-01", "2026-01-01"],
    ["the head's cannot be read", "2026-01-01", "soon", "2026-01-01"],
    ["the base's cannot be read", "soon", "2026-01-01", "2026-01-01"],
    ["neither has one", undefined, undefined, undefined],
  ];
  for (const [name, was, is, expected] of cases) {
    await t.step(name, () => {
      const [f] = effectiveFreezes({
        base: list(entry(0, { id: "a", expiresOn: was })),
        head: list(entry(0, { id: "a", expiresOn: is })),
      });
      assert.equal(f?.expiresOn, expected);
    });
  }
  await t.step("the expiry instant is the end of the written day", () => {
    const [f] = effectiveFreezes({
      base: list(entry(0, { id: "a", expiresOn: "2026-06-01" })),
      head: list(entry(0, { id: "a", expiresOn: "2026-01-01" })),
    });
    assert.equal(f?.expiresAt, Date.parse("2026-01-02T00:00:00Z"));
  });
  await t.step("an unreadable expiry on its own has no instant", () => {
    const [f] = effectiveFreezes({
      base: undefined,
      head: list(entry(0, { id: "a", expiresOn: "soon" })),
    });
    assert.equal(f?.expiresOn, "soon");
    assert.equal(f?.expiresAt, undefined);
  });
});

Deno.test("effectiveFreezes() never lets the head move an expiry later, whatever the order", () => {
  const day = fc.integer({ min: 0, max: 2000 }).map((n) =>
    new Date(Date.UTC(2026, 0, 1) + n * DAY).toISOString().slice(0, 10)
  );
  fc.assert(
    fc.property(day, day, (was, is) => {
      const [f] = effectiveFreezes({
        base: list(entry(0, { id: "a", expiresOn: was })),
        head: list(entry(0, { id: "a", expiresOn: is })),
      });
      const [g] = effectiveFreezes({
        base: list(entry(0, { id: "a", expiresOn: is })),
        head: list(entry(0, { id: "a", expiresOn: was })),
      });
      const first = was < is ? was : is;
      assert.equal(f?.expiresOn, first);
      assert.equal(g?.expiresAt, f?.expiresAt);
    }),
  );
});
