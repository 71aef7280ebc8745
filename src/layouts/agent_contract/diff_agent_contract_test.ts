import assert from "node:assert/strict";
import fc from "fast-check";
import type { Layer } from "../../core/rules.ts";
import {
  agentContract,
  CONTRACT,
  INVOICE_SHA,
  SEED_CONTRACT,
  sha,
} from "./_testing.ts";
import { diffAgentContract } from "./diff_agent_contract.ts";
import {
  type AgentContract,
  type ContractFixture,
  type ContractFreeze,
  type ContractProperty,
  readAgentContract,
} from "./read_agent_contract.ts";

function read(text: string): AgentContract {
  return readAgentContract(text, { path: CONTRACT });
}

/** The seed contract with `from` replaced by `to` (which must occur once). */
function edit(from: string, to: string): string {
  assert.equal(SEED_CONTRACT.split(from).length, 2, `one ${from}`);
  return SEED_CONTRACT.replace(from, to);
}

const BASE = read(SEED_CONTRACT);

Deno.test("diffAgentContract() on the seed contract", async (t) => {
  const cases: [string, string, [string, number | undefined][]][] = [
    ["an unchanged contract is clean", SEED_CONTRACT, []],
    [
      "a removed property is rejected at the properties key",
      edit(
        "  - id: roundtrip_stable\n    module: tests.properties.test_codec\n    name: test_decode_encode_identity\n    min_examples: 80\n",
        "",
      ),
      [["property.removed", 3]],
    ],
    [
      "a renamed property id is a removal",
      edit("id: roundtrip_stable", "id: roundtrip_stable_v2"),
      [["property.removed", 3]],
    ],
    [
      "a property pointed at another test is retargeted",
      edit("name: test_decode_encode_identity", "name: test_trivial"),
      [["property.retargeted", 10]],
    ],
    [
      "a property pointed at another module is retargeted",
      edit("module: tests.properties.test_codec", "module: tests.test_other"),
      [["property.retargeted", 9]],
    ],
    [
      "a lowered min_examples is rejected at its line",
      edit("min_examples: 80", "min_examples: 79"),
      [["property.min_examples_lowered", 11]],
    ],
    [
      "a raised min_examples is clean",
      edit("min_examples: 80", "min_examples: 800"),
      [],
    ],
    [
      "a new property is clean",
      edit(
        "fixtures:\n",
        "  - id: new_one\n    module: tests.properties.test_new\n    name: test_new\n    min_examples: 5\nfixtures:\n",
      ),
      [],
    ],
    [
      "a removed fixture is rejected",
      edit(
        `  - id: invoice_v3\n    path: tests/fixtures/invoice_v3.json\n    sha256: ${
          BASE.fixtures[0]?.sha256
        }\n    unlock: null\n`,
        "",
      ),
      [["fixture.removed", 12]],
    ],
    [
      "a changed digest is rejected",
      edit(`sha256: ${BASE.fixtures[0]?.sha256}`, `sha256: ${sha("d")}`),
      [["fixture.digest_changed", 15]],
    ],
    [
      "a changed digest with unlock set is rejected twice",
      edit(`sha256: ${BASE.fixtures[0]?.sha256}`, `sha256: ${sha("d")}`)
        .replace("unlock: null", 'unlock: "rotated by me"'),
      [["fixture.digest_changed", 15], ["fixture.self_unlock", 16]],
    ],
    [
      "an unlock set alone is rejected",
      edit("unlock: null", 'unlock: "ok"'),
      [["fixture.self_unlock", 16]],
    ],
    [
      "an empty-string unlock still counts as set",
      edit("unlock: null", 'unlock: ""'),
      [["fixture.self_unlock", 16]],
    ],
    [
      "a fixture pointed at another path is retargeted",
      edit(
        "path: tests/fixtures/invoice_v3.json",
        "path: tests/fixtures/invoice_v4.json",
      ),
      [["fixture.retargeted", 14]],
    ],
    [
      "an expiry moved later is rejected",
      edit('"2026-09-22T00:00:00Z"', '"2026-09-22T00:00:01Z"'),
      [["freeze.expiry_extended", 21]],
    ],
    [
      "an expiry moved later though its string sorts earlier is rejected",
      edit('"2026-09-22T00:00:00Z"', '"2026-09-21T23:00:00-02:00"'),
      [["freeze.expiry_extended", 21]],
    ],
    [
      "an expiry moved earlier though its string sorts later is clean",
      edit('"2026-09-22T00:00:00Z"', '"2026-09-22T01:00:00+02:00"'),
      [],
    ],
    [
      "the same expiry in another notation is clean",
      edit('"2026-09-22T00:00:00Z"', '"2026-09-22T02:00:00.000+02:00"'),
      [],
    ],
    [
      "a raised rerun budget is rejected",
      edit("remaining_reruns: 2", "remaining_reruns: 3"),
      [["freeze.reruns_raised", 22]],
    ],
    [
      "a lowered rerun budget is clean",
      edit("remaining_reruns: 2", "remaining_reruns: 1"),
      [],
    ],
    [
      "a raised cap is rejected",
      edit("max_active_freezes: 3", "max_active_freezes: 4"),
      [["freeze.cap_raised", 23]],
    ],
    [
      "a removed freeze is clean",
      edit(
        '  - id: test_report_render_flaky\n    owner: "oncall-payments"\n    reason: "clock skew in renderer; tracked as PAY-4412"\n    expires: "2026-09-22T00:00:00Z"\n    remaining_reruns: 2\n',
        "",
      ),
      [],
    ],
    [
      "a new freeze is clean here (its validity is checkFreezes' job)",
      edit(
        "max_active_freezes: 3",
        '  - id: new_flake\n    owner: me\n    reason: PAY-1\n    expires: "2026-09-20T00:00:00Z"\n    remaining_reruns: 1\nmax_active_freezes: 3',
      ),
      [],
    ],
  ];
  for (const [name, headText, expected] of cases) {
    await t.step(name, () => {
      const findings = diffAgentContract(BASE, read(headText), {
        path: CONTRACT,
      });
      assert.deepEqual(findings.map((f) => [f.rule, f.line]), expected);
      for (const f of findings) {
        assert.equal(f.path, CONTRACT);
        assert.equal(f.blocking, true);
      }
    });
  }
});

Deno.test("diffAgentContract() allows a human's unlock that is already at base", () => {
  const base = read(edit("unlock: null", 'unlock: "rotated, see PR 12"'));
  assert.deepEqual(diffAgentContract(base, base, { path: CONTRACT }), []);
  // The second commit of a rotation sets it back to null: also fine.
  assert.deepEqual(diffAgentContract(base, BASE, { path: CONTRACT }), []);
});

Deno.test("diffAgentContract() rejects a new fixture added with unlock set", () => {
  const head = agentContract({
    fixtures: [{
      id: "new",
      path: "tests/fixtures/new.json",
      sha256: sha("1"),
      unlock: "trust me",
    }],
  });
  assert.deepEqual(
    diffAgentContract(agentContract(), head, { path: CONTRACT }).map((f) =>
      f.rule
    ),
    ["fixture.self_unlock"],
  );
});

// ---------------------------------------------------------------------------
// Property tests: every weakening is rejected, every strengthening accepted.

const MIN = Date.parse("2000-01-01T00:00:00Z");
const MAX = Date.parse("2100-01-01T00:00:00Z");

/** An RFC 3339 string for `ms`, written at a UTC offset of `offset` minutes. */
function rfc3339(ms: number, offset = 0): string {
  const local = new Date(ms + offset * 60_000).toISOString().slice(0, -1);
  if (offset === 0) return `${local}Z`;
  const sign = offset < 0 ? "-" : "+";
  const abs = Math.abs(offset);
  const hh = String(Math.floor(abs / 60)).padStart(2, "0");
  const mm = String(abs % 60).padStart(2, "0");
  return `${local}${sign}${hh}:${mm}`;
}

const offsetArb = fc.integer({ min: -23 * 60 - 59, max: 23 * 60 + 59 });
const idArb = fc.stringMatching(/^[a-z][a-z0-9_]{0,9}$/);
const identArb = fc.stringMatching(/^[a-z_][a-z0-9_]{0,7}$/);
const hexArb = fc.stringMatching(/^[0-9a-f]{64}$/);

const propertyArb: fc.Arbitrary<ContractProperty> = fc.record({
  id: idArb,
  module: fc.array(identArb, { minLength: 1, maxLength: 3 }).map((s) =>
    s.join(".")
  ),
  name: identArb,
  minExamples: fc.integer({ min: 1, max: 10_000 }),
});
const fixtureArb: fc.Arbitrary<ContractFixture> = fc.record({
  id: idArb,
  path: identArb.map((name) => `tests/fixtures/${name}.json`),
  sha256: hexArb,
  // A base may carry a human's unlock from a rotation in progress.
  unlock: fc.option(fc.string({ minLength: 1 }), { freq: 4 }),
});
const freezeArb: fc.Arbitrary<ContractFreeze> = fc.record({
  id: idArb,
  owner: fc.string(),
  reason: fc.string(),
  expires: fc.tuple(fc.integer({ min: MIN, max: MAX }), offsetArb).map((
    [ms, offset],
  ) => rfc3339(ms, offset)),
  remainingReruns: fc.integer({ min: 0, max: 10 }),
});

interface Minimums {
  properties?: number;
  fixtures?: number;
  freezes?: number;
}

function contractArb(min: Minimums = {}): fc.Arbitrary<AgentContract> {
  return fc.record({
    properties: fc.uniqueArray(propertyArb, {
      selector: (p) => p.id,
      minLength: min.properties ?? 0,
      maxLength: 5,
    }),
    fixtures: fc.uniqueArray(fixtureArb, {
      selector: (f) => f.id,
      minLength: min.fixtures ?? 0,
      maxLength: 5,
    }),
    freezes: fc.uniqueArray(freezeArb, {
      selector: (f) => f.id,
      minLength: min.freezes ?? 0,
      maxLength: 5,
    }),
    maxActiveFreezes: fc.integer({ min: 0, max: 20 }),
  }).map((parts) => agentContract(parts));
}

/** Pick an element by a random natural number. */
function pick<T>(items: readonly T[], n: number): [T, number] {
  const index = n % items.length;
  return [items[index] as T, index];
}

function replaceAt<T>(items: readonly T[], index: number, item: T): T[] {
  return items.map((old, i) => (i === index ? item : old));
}

function freshId(taken: readonly { id: string }[], n: number): string {
  let id = `new_${n}`;
  while (taken.some((e) => e.id === id)) id += "_";
  return id;
}

interface Weakening {
  name: string;
  layer: Layer;
  rule: string;
  min: Minimums;
  apply(base: AgentContract, n: number, m: number): AgentContract;
}

const WEAKENINGS: Weakening[] = [
  {
    name: "removing a property",
    layer: "property",
    rule: "property.removed",
    min: { properties: 1 },
    apply: (c, n) => {
      const [, i] = pick(c.properties, n);
      return { ...c, properties: c.properties.filter((_, j) => j !== i) };
    },
  },
  {
    name: "renaming a property id",
    layer: "property",
    rule: "property.removed",
    min: { properties: 1 },
    apply: (c, n) => {
      const [p, i] = pick(c.properties, n);
      return {
        ...c,
        properties: replaceAt(c.properties, i, {
          ...p,
          id: freshId(c.properties, n),
        }),
      };
    },
  },
  {
    name: "lowering min_examples",
    layer: "property",
    rule: "property.min_examples_lowered",
    min: { properties: 1 },
    apply: (c, n, m) => {
      const [p, i] = pick(c.properties, n);
      fc.pre(p.minExamples > 1);
      const lower = 1 + (m % (p.minExamples - 1));
      return {
        ...c,
        properties: replaceAt(c.properties, i, { ...p, minExamples: lower }),
      };
    },
  },
  {
    name: "retargeting a property",
    layer: "property",
    rule: "property.retargeted",
    min: { properties: 1 },
    apply: (c, n, m) => {
      const [p, i] = pick(c.properties, n);
      const moved = m % 2 === 0
        ? { ...p, name: `${p.name}_other` }
        : { ...p, module: `${p.module}.other` };
      return { ...c, properties: replaceAt(c.properties, i, moved) };
    },
  },
  {
    name: "removing a fixture",
    layer: "fixture",
    rule: "fixture.removed",
    min: { fixtures: 1 },
    apply: (c, n) => {
      const [, i] = pick(c.fixtures, n);
      return { ...c, fixtures: c.fixtures.filter((_, j) => j !== i) };
    },
  },
  {
    name: "changing a digest",
    layer: "fixture",
    rule: "fixture.digest_changed",
    min: { fixtures: 1 },
    apply: (c, n, m) => {
      const [f, i] = pick(c.fixtures, n);
      const digit = "0123456789abcdef"[m % 16] as string;
      const sha256 = f.sha256 === digit.repeat(64)
        ? (digit === "0" ? "1" : "0").repeat(64)
        : digit.repeat(64);
      return { ...c, fixtures: replaceAt(c.fixtures, i, { ...f, sha256 }) };
    },
  },
  {
    name: "setting an unlock",
    layer: "fixture",
    rule: "fixture.self_unlock",
    min: { fixtures: 1 },
    apply: (c, n, m) => {
      const [f, i] = pick(c.fixtures, n);
      const unlock = `${f.unlock ?? ""}agent unlock ${m}`;
      return { ...c, fixtures: replaceAt(c.fixtures, i, { ...f, unlock }) };
    },
  },
  {
    name: "moving a fixture to another path",
    layer: "fixture",
    rule: "fixture.retargeted",
    min: { fixtures: 1 },
    apply: (c, n) => {
      const [f, i] = pick(c.fixtures, n);
      const path = f.path.replace(/\.json$/, "_v2.json");
      return { ...c, fixtures: replaceAt(c.fixtures, i, { ...f, path }) };
    },
  },
  {
    name: "extending an expiry",
    layer: "freeze",
    rule: "freeze.expiry_extended",
    min: { freezes: 1 },
    apply: (c, n, m) => {
      const [f, i] = pick(c.freezes, n);
      const later = Date.parse(f.expires) + 1 + (m % (400 * 86_400_000));
      const offset = (m % (2 * 23 * 60)) - 23 * 60;
      return {
        ...c,
        freezes: replaceAt(c.freezes, i, {
          ...f,
          expires: rfc3339(later, offset),
        }),
      };
    },
  },
  {
    name: "raising a rerun budget",
    layer: "freeze",
    rule: "freeze.reruns_raised",
    min: { freezes: 1 },
    apply: (c, n, m) => {
      const [f, i] = pick(c.freezes, n);
      return {
        ...c,
        freezes: replaceAt(c.freezes, i, {
          ...f,
          remainingReruns: f.remainingReruns + 1 + (m % 5),
        }),
      };
    },
  },
  {
    name: "raising the freeze cap",
    layer: "freeze",
    rule: "freeze.cap_raised",
    min: {},
    apply: (c, _n, m) => ({
      ...c,
      maxActiveFreezes: c.maxActiveFreezes + 1 + (m % 5),
    }),
  },
];

Deno.test("diffAgentContract() rejects every weakening of a valid contract", async (t) => {
  for (const weakening of WEAKENINGS) {
    await t.step(
      `${weakening.name} is rejected in the ${weakening.layer} layer`,
      () => {
        fc.assert(
          fc.property(
            contractArb(weakening.min),
            fc.nat(),
            fc.nat(),
            (base, n, m) => {
              const head = weakening.apply(base, n, m);
              const findings = diffAgentContract(base, head, {
                path: CONTRACT,
              });
              assert.ok(
                findings.some((f) => f.rule === weakening.rule && f.blocking),
                `expected ${weakening.rule}, got ${
                  findings.map((f) => f.rule).join(", ")
                }`,
              );
              for (const f of findings) assert.equal(f.layer, weakening.layer);
            },
          ),
          { numRuns: 200 },
        );
      },
    );
  }
});

type Strengthening = (c: AgentContract, n: number, m: number) => AgentContract;

const STRENGTHENINGS: Record<string, Strengthening> = {
  "add a property": (c, n, m) => ({
    ...c,
    properties: [...c.properties, {
      id: freshId(c.properties, n),
      module: "tests.properties.test_new",
      name: `test_new_${m}`,
      minExamples: 1 + (m % 500),
    }],
  }),
  "raise min_examples": (c, n, m) => {
    if (c.properties.length === 0) return c;
    const [p, i] = pick(c.properties, n);
    return {
      ...c,
      properties: replaceAt(c.properties, i, {
        ...p,
        minExamples: p.minExamples + (m % 100),
      }),
    };
  },
  "add a fixture": (c, n) => ({
    ...c,
    fixtures: [...c.fixtures, {
      id: freshId(c.fixtures, n),
      path: `tests/fixtures/new_${n}.json`,
      sha256: sha("e"),
      unlock: null,
    }],
  }),
  "reset an unlock to null": (c, n) => {
    if (c.fixtures.length === 0) return c;
    const [f, i] = pick(c.fixtures, n);
    return { ...c, fixtures: replaceAt(c.fixtures, i, { ...f, unlock: null }) };
  },
  "remove a freeze": (c, n) => {
    if (c.freezes.length === 0) return c;
    const [, i] = pick(c.freezes, n);
    return { ...c, freezes: c.freezes.filter((_, j) => j !== i) };
  },
  "shorten an expiry": (c, n, m) => {
    if (c.freezes.length === 0) return c;
    const [f, i] = pick(c.freezes, n);
    const earlier = Date.parse(f.expires) - (m % (30 * 86_400_000));
    const offset = (m % (2 * 23 * 60)) - 23 * 60;
    return {
      ...c,
      freezes: replaceAt(c.freezes, i, {
        ...f,
        expires: rfc3339(earlier, offset),
      }),
    };
  },
  "lower a rerun budget": (c, n, m) => {
    if (c.freezes.length === 0) return c;
    const [f, i] = pick(c.freezes, n);
    return {
      ...c,
      freezes: replaceAt(c.freezes, i, {
        ...f,
        remainingReruns: Math.max(0, f.remainingReruns - (m % 3)),
      }),
    };
  },
  "lower the cap": (c, _n, m) => ({
    ...c,
    maxActiveFreezes: Math.max(0, c.maxActiveFreezes - (m % 3)),
  }),
  "reorder every section": (c) => ({
    ...c,
    properties: [...c.properties].reverse(),
    fixtures: [...c.fixtures].reverse(),
    freezes: [...c.freezes].reverse(),
  }),
};

Deno.test("diffAgentContract() accepts every strengthening of a valid contract", () => {
  const stepArb = fc.tuple(
    fc.constantFrom(...Object.keys(STRENGTHENINGS)),
    fc.nat(),
    fc.nat(),
  );
  fc.assert(
    fc.property(
      contractArb(),
      fc.array(stepArb, { minLength: 1, maxLength: 8 }),
      (base, steps) => {
        let head = base;
        for (const [name, n, m] of steps) {
          head = (STRENGTHENINGS[name] as Strengthening)(head, n, m);
        }
        const findings = diffAgentContract(base, head, { path: CONTRACT });
        assert.deepEqual(findings.filter((f) => f.blocking), []);
      },
    ),
    { numRuns: 500 },
  );
});

Deno.test("diffAgentContract() finds nothing between a contract and itself", () => {
  fc.assert(
    fc.property(contractArb(), (contract) => {
      assert.deepEqual(
        diffAgentContract(contract, contract, { path: CONTRACT }),
        [],
      );
    }),
  );
});

Deno.test("diffAgentContract() says what each weakening changed, from what to what", async (t) => {
  const cases: [string, string, RegExp][] = [
    [
      "a removed property names it",
      edit("id: roundtrip_stable", "id: roundtrip_other"),
      /^Property "roundtrip_stable" was removed or renamed away: restore it/,
    ],
    [
      "a retargeted property names both targets",
      edit("name: test_decode_encode_identity", "name: test_trivial"),
      /^Property "roundtrip_stable" now points at "tests\.properties\.test_codec:test_trivial" instead of "tests\.properties\.test_codec:test_decode_encode_identity": restore the target$/,
    ],
    [
      "a lowered min_examples names both counts",
      edit("min_examples: 80", "min_examples: 8"),
      /^Property "roundtrip_stable" min_examples was lowered from 80 to 8: restore the count$/,
    ],
    [
      "a removed fixture names it",
      edit("id: invoice_v3", "id: invoice_v4"),
      /^Fixture "invoice_v3" was removed from the contract: restore it$/,
    ],
    [
      "a retargeted fixture names both paths",
      edit(
        "path: tests/fixtures/invoice_v3.json",
        "path: tests/fixtures/invoice_v4.json",
      ),
      /^Fixture "invoice_v3" now points at "tests\/fixtures\/invoice_v4\.json" instead of "tests\/fixtures\/invoice_v3\.json": restore the path$/,
    ],
    [
      "a changed digest names both digests' first twelve digits",
      edit(`sha256: ${INVOICE_SHA}`, `sha256: ${sha("d")}`),
      new RegExp(
        `^Fixture "invoice_v3" digest changed from ${
          INVOICE_SHA.slice(0, 12)
        } to dddddddddddd: a fixture is rotated only by a human commit`,
      ),
    ],
    [
      "a self-unlock names the fixture",
      edit("unlock: null", 'unlock: "ok"'),
      /^Fixture "invoice_v3" unlock is set on this branch: move the unlock to a human-reviewed commit$/,
    ],
    [
      "an extended expiry names both expiries",
      edit('"2026-09-22T00:00:00Z"', '"2026-09-29T00:00:00Z"'),
      /^Freeze "test_report_render_flaky" expiry moved from "2026-09-22T00:00:00Z" to "2026-09-29T00:00:00Z": let it expire/,
    ],
    [
      "a raised rerun budget names both budgets",
      edit("remaining_reruns: 2", "remaining_reruns: 5"),
      /^Freeze "test_report_render_flaky" remaining_reruns was raised from 2 to 5: leave the budget as it is$/,
    ],
    [
      "a raised cap names both caps",
      edit("max_active_freezes: 3", "max_active_freezes: 9"),
      /^max_active_freezes was raised from 3 to 9: fix or drop a freeze instead$/,
    ],
  ];
  for (const [name, headText, message] of cases) {
    await t.step(name, () => {
      const [found, ...rest] = diffAgentContract(BASE, read(headText), {
        path: CONTRACT,
      });
      assert.deepEqual(rest, []);
      assert.match(found?.message ?? "", message);
    });
  }
});

Deno.test("diffAgentContract() compares digests whatever their case, and falls back to the entry's line", async (t) => {
  await t.step("a digest written in capitals is the same digest", () => {
    const head: AgentContract = {
      ...BASE,
      fixtures: BASE.fixtures.map((f) => ({
        ...f,
        sha256: f.sha256.toUpperCase(),
      })),
    };
    assert.deepEqual(diffAgentContract(BASE, head, { path: CONTRACT }), []);
    assert.deepEqual(diffAgentContract(head, BASE, { path: CONTRACT }), []);
  });
  await t.step("a change whose key has no line points at its entry", () => {
    const lines = {
      key: () => undefined,
      entry: (_section: string, _id: string, key?: string) =>
        key === undefined ? 4 : undefined,
    };
    const head = {
      ...BASE,
      properties: BASE.properties.map((p) => ({ ...p, minExamples: 1 })),
      lines,
    } as AgentContract;
    assert.deepEqual(
      diffAgentContract(BASE, head, { path: CONTRACT }).map((f) => f.line),
      [4, 4],
    );
  });
});

Deno.test("diffAgentContract() counts a changed expiry it cannot read as extended, and an unchanged one as kept", async (t) => {
  const withExpiry = (expires: string): AgentContract => ({
    ...BASE,
    freezes: BASE.freezes.map((f) => ({ ...f, expires })),
  });
  const cases: [string, string, string, string[]][] = [
    ["the same unreadable expiry", "next week", "next week", []],
    ["an unreadable expiry written another way", "next week", "next month", [
      "freeze.expiry_extended",
    ]],
    ["a readable expiry made unreadable", "2026-09-22T00:00:00Z", "never", [
      "freeze.expiry_extended",
    ]],
    ["an unreadable expiry made readable", "never", "2026-09-22T00:00:00Z", [
      "freeze.expiry_extended",
    ]],
  ];
  for (const [name, was, is, expected] of cases) {
    await t.step(name, () => {
      assert.deepEqual(
        diffAgentContract(withExpiry(was), withExpiry(is), { path: CONTRACT })
          .map((f) => f.rule),
        expected,
      );
    });
  }
});
