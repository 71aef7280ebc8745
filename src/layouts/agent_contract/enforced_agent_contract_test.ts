import assert from "node:assert/strict";
import fc from "fast-check";
import { agentContract, sha } from "./_testing.ts";
import { enforcedAgentContract } from "./enforced_agent_contract.ts";
import type {
  ContractFixture,
  ContractFreeze,
  ContractProperty,
} from "./read_agent_contract.ts";
import { NO_LINES } from "./read_agent_contract.ts";

const P: ContractProperty = {
  id: "p",
  module: "tests.test_p",
  name: "test_p",
  minExamples: 40,
};
const F: ContractFixture = {
  id: "f",
  path: "tests/fixtures/f.json",
  sha256: sha("a"),
  unlock: null,
};
const Z: ContractFreeze = {
  id: "z",
  owner: "o",
  reason: "r",
  expires: "2026-09-22T00:00:00Z",
  remainingReruns: 2,
};

Deno.test("enforcedAgentContract() is the base, without lines, when the head contract is gone", () => {
  const base = agentContract({ properties: [P], fixtures: [F], freezes: [Z] });
  const enforced = enforcedAgentContract(base, null);
  assert.deepEqual(enforced, { ...base, lines: NO_LINES });
});

Deno.test("enforcedAgentContract() takes each entry at its stricter setting", async (t) => {
  await t.step("properties: union by test, larger min_examples", () => {
    const base = agentContract({
      properties: [P, { ...P, id: "q", name: "test_q", minExamples: 10 }],
    });
    const head = agentContract({
      properties: [
        { ...P, minExamples: 30 },
        { ...P, id: "q", name: "test_q", minExamples: 99 },
        { ...P, id: "r", name: "test_r", minExamples: 5 },
      ],
    });
    assert.deepEqual(
      enforcedAgentContract(base, head).properties.map((p) => [
        p.name,
        p.minExamples,
      ]),
      [["test_p", 40], ["test_q", 99], ["test_r", 5]],
    );
  });
  await t.step("properties: a retargeted id keeps its base target", () => {
    const base = agentContract({ properties: [P] });
    const head = agentContract({ properties: [{ ...P, name: "test_x" }] });
    assert.deepEqual(
      enforcedAgentContract(base, head).properties.map((p) => p.name),
      ["test_x", "test_p"],
    );
  });
  await t.step(
    "fixtures: head entries plus base entries it does not repeat",
    () => {
      const base = agentContract({
        fixtures: [F, { ...F, id: "g", path: "tests/fixtures/g.json" }],
      });
      const head = agentContract({
        fixtures: [
          { ...F, sha256: sha("b") },
          { ...F, id: "g2", path: "tests/fixtures/g.json" },
        ],
      });
      assert.deepEqual(
        enforcedAgentContract(base, head).fixtures.map((
          f,
        ) => [f.path, f.sha256]),
        [
          ["tests/fixtures/f.json", sha("b")],
          ["tests/fixtures/g.json", sha("a")],
          ["tests/fixtures/f.json", sha("a")],
        ],
      );
    },
  );
  await t.step("freezes: head's only, earlier expiry and fewer reruns", () => {
    const base = agentContract({
      freezes: [Z, { ...Z, id: "gone" }],
      maxActiveFreezes: 3,
    });
    const head = agentContract({
      freezes: [
        { ...Z, expires: "2026-10-01T00:00:00Z", remainingReruns: 1 },
        { ...Z, id: "new", remainingReruns: 5 },
      ],
      maxActiveFreezes: 7,
    });
    const enforced = enforcedAgentContract(base, head);
    assert.deepEqual(
      enforced.freezes.map((f) => [f.id, f.expires, f.remainingReruns]),
      [["z", "2026-09-22T00:00:00Z", 1], ["new", "2026-09-22T00:00:00Z", 5]],
    );
    assert.equal(enforced.maxActiveFreezes, 3);
  });
  await t.step("freezes: an earlier head expiry is kept as written", () => {
    const base = agentContract({ freezes: [Z], maxActiveFreezes: 3 });
    const earlier = "2026-09-22T01:00:00+02:00";
    const head = agentContract({
      freezes: [{ ...Z, expires: earlier }],
      maxActiveFreezes: 3,
    });
    assert.equal(
      enforcedAgentContract(base, head).freezes[0]?.expires,
      earlier,
    );
  });
  await t.step(
    "freezes: a later head expiry is compared as an instant, not a string",
    () => {
      const base = agentContract({ freezes: [Z], maxActiveFreezes: 3 });
      const head = agentContract({
        freezes: [{ ...Z, expires: "2026-09-21T23:00:00-02:00" }],
        maxActiveFreezes: 1,
      });
      const enforced = enforcedAgentContract(base, head);
      assert.equal(enforced.freezes[0]?.expires, "2026-09-22T00:00:00Z");
      assert.equal(enforced.maxActiveFreezes, 1);
    },
  );
  await t.step(
    "freezes: an unreadable expiry on either side keeps the head's as written",
    () => {
      const cases: [string, string, string][] = [
        ["soon", Z.expires, Z.expires],
        [Z.expires, "soon", "soon"],
        ["2026-01-01T00:00:00Z", "never", "never"],
      ];
      for (const [baseExpires, headExpires, enforced] of cases) {
        const base = agentContract({
          freezes: [{ ...Z, expires: baseExpires }],
        });
        const head = agentContract({
          freezes: [{ ...Z, expires: headExpires }],
        });
        assert.equal(
          enforcedAgentContract(base, head).freezes[0]?.expires,
          enforced,
        );
      }
    },
  );
  await t.step(
    "freezes: the same instant respelled keeps the head's spelling, which the head file's line shows",
    () => {
      const base = agentContract({ freezes: [Z], maxActiveFreezes: 3 });
      const same = "2026-09-22T02:00:00+02:00";
      const head = agentContract({
        freezes: [{ ...Z, expires: same }],
        maxActiveFreezes: 3,
      });
      assert.equal(enforcedAgentContract(base, head).freezes[0]?.expires, same);
    },
  );
});

// Few ids, modules and paths, so base and head often share entries.
const nameArb = fc.constantFrom("a", "b", "c");
const instantArb = fc.integer({
  min: Date.parse("2026-01-01T00:00:00Z"),
  max: Date.parse("2027-01-01T00:00:00Z"),
});
const offsetArb = fc.constantFrom("Z", "+02:00", "-05:30");

/** An RFC 3339 spelling of `ms` at one of a few UTC offsets. */
function spell(ms: number, offset: string): string {
  if (offset === "Z") return new Date(ms).toISOString();
  const minutes = (offset.startsWith("-") ? -1 : 1) *
    (Number(offset.slice(1, 3)) * 60 + Number(offset.slice(4)));
  const local = new Date(ms + minutes * 60_000).toISOString().slice(0, -1);
  return `${local}${offset}`;
}

const contractArb = fc.record({
  properties: fc.uniqueArray(
    fc.record({
      id: nameArb,
      module: nameArb.map((m) => `tests.test_${m}`),
      name: nameArb.map((n) => `test_${n}`),
      minExamples: fc.integer({ min: 1, max: 100 }),
    }, { noNullPrototype: true }),
    { selector: (p) => `${p.module}:${p.name}`, maxLength: 4 },
  ),
  fixtures: fc.uniqueArray(
    fc.record({
      id: nameArb,
      path: nameArb.map((p) => `tests/fixtures/${p}.json`),
      sha256: nameArb.map(sha),
      unlock: fc.constant(null),
    }, { noNullPrototype: true }),
    { selector: (f) => f.id, maxLength: 3 },
  ),
  freezes: fc.uniqueArray(
    fc.record({
      id: nameArb,
      owner: fc.constant("o"),
      reason: fc.constant("r"),
      expires: fc.tuple(instantArb, offsetArb).map(([ms, o]) => spell(ms, o)),
      remainingReruns: fc.integer({ min: 0, max: 5 }),
    }, { noNullPrototype: true }),
    { selector: (f) => f.id, maxLength: 3 },
  ),
  maxActiveFreezes: fc.integer({ min: 0, max: 5 }),
}).map((parts) => agentContract(parts));

Deno.test("enforcedAgentContract() is never looser than the base or the head", () => {
  fc.assert(
    fc.property(contractArb, contractArb, (base, head) => {
      const enforced = enforcedAgentContract(base, head);
      const target = (p: ContractProperty) => `${p.module}:${p.name}`;
      for (const p of [...base.properties, ...head.properties]) {
        const held = enforced.properties.find((e) => target(e) === target(p));
        assert.ok(held !== undefined && held.minExamples >= p.minExamples);
      }
      const fixture = (f: ContractFixture) => `${f.path}@${f.sha256}`;
      const fixtures = new Set(enforced.fixtures.map(fixture));
      for (const f of [...base.fixtures, ...head.fixtures]) {
        assert.ok(fixtures.has(fixture(f)));
      }
      assert.deepEqual(
        enforced.freezes.map((f) => f.id),
        head.freezes.map((f) => f.id),
      );
      for (const f of enforced.freezes) {
        for (const side of [base, head]) {
          const other = side.freezes.find((o) => o.id === f.id);
          if (other === undefined) continue;
          assert.ok(Date.parse(f.expires) <= Date.parse(other.expires));
          assert.ok(f.remainingReruns <= other.remainingReruns);
        }
      }
      assert.ok(enforced.maxActiveFreezes <= base.maxActiveFreezes);
      assert.ok(enforced.maxActiveFreezes <= head.maxActiveFreezes);
    }),
  );
});

Deno.test("enforcedAgentContract() of a contract against itself is that contract", () => {
  fc.assert(
    fc.property(contractArb, (contract) => {
      assert.deepEqual(enforcedAgentContract(contract, contract), contract);
    }),
  );
});
