import assert from "node:assert/strict";
import type { PythonModule } from "../../python/python_module.ts";
import {
  freeze,
  freezeList,
  pyFunction,
  pyModule,
  ruleIds,
  sha,
  treeOf,
} from "./_testing.ts";
import {
  checkFreezeList,
  type CheckFreezeListOptions,
  freezeBodyHashes,
} from "./check_freeze_list.ts";
import type { ContractSides } from "./invariants_contract.ts";
import type { FreezeEntry, FreezeList } from "./read_freeze_list.ts";
import { sourceSha256 } from "./source_sha256.ts";

const FILE = "tests/test_billing.py";
const SOURCE = "def test_dst():\n    assert bill().hour == 1";
const METHOD = "def test_m(self):\n        assert self.x == 1";
const FILE_SHA = sha("f");
const NOW = Date.parse("2026-07-01T12:00:00Z");

function options(
  now = NOW,
  modules?: Map<string, PythonModule>,
): CheckFreezeListOptions {
  return {
    now,
    headTree: treeOf({ [FILE]: "file" }),
    headModules: modules ??
      new Map([[
        FILE,
        pyModule(
          pyFunction("test_dst", SOURCE),
          pyFunction("TestB.test_m", METHOD),
        ),
      ]]),
    digests: new Map([[FILE, FILE_SHA]]),
  };
}

const DST = freeze("dst", FILE, "test_dst", {
  bodySha256: sourceSha256(SOURCE),
});

Deno.test("checkFreezeList() judges the freeze list base → head", async (t) => {
  const cases: {
    name: string;
    sides: ContractSides<FreezeList>;
    now?: number;
    rules: string[];
  }[] = [
    {
      name: "an unchanged freeze holds",
      sides: { base: freezeList([DST]), head: freezeList([DST]) },
      rules: [],
    },
    {
      name: "a freeze the head removed is no longer judged",
      sides: { base: freezeList([DST]), head: freezeList([]) },
      rules: [],
    },
    {
      name: "a date-time expiry expires at its instant",
      sides: {
        base: freezeList([{ ...DST, expiresOn: "2026-07-01T12:00:00Z" }]),
        head: null,
      },
      rules: ["freeze.expired"],
    },
    {
      name: "a date-time expiry holds until a millisecond before its instant",
      sides: {
        base: freezeList([{ ...DST, expiresOn: "2026-07-01T12:00:00Z" }]),
        head: null,
      },
      now: NOW - 1,
      rules: [],
    },
    {
      name: "a date-time expiry an hour past holds expired",
      sides: {
        base: freezeList([{ ...DST, expiresOn: "2026-07-01T11:00:00Z" }]),
        head: null,
      },
      rules: ["freeze.expired"],
    },
    ...[
      "agent",
      "Agent",
      "agent ",
      " AGENT\t",
      "\u0430gent",
      "ag\u0435nt",
      "\u03b1gent",
      "ag\u03b5nt",
      "agen\u0442",
      "a\u200bgent",
      "ag\u200dent",
      "\ufeffagent",
      "\uff21\uff27\uff25\uff2e\uff34",
      "\uff41gent",
      "\ud835\udc1agent",
      "a\u00adgent",
    ].map((owner) => ({
      name: `an owner that reads as "agent" is the agent: ${
        JSON.stringify(owner)
      }`,
      sides: {
        base: freezeList([DST]),
        head: freezeList([{ ...DST, owner }]),
      },
      rules: ["freeze.agent_owner"],
    })),
    ...["agents", "reagent", "agent-smith", "human", "Zo\u00eb"].map((
      owner,
    ) => ({
      name: `an owner that only resembles "agent" is a person: ${
        JSON.stringify(owner)
      }`,
      sides: {
        base: freezeList([DST]),
        head: freezeList([{ ...DST, owner }]),
      },
      rules: [],
    })),
    {
      name: "a date-time expiry with an offset holds until its instant",
      sides: {
        base: freezeList([{ ...DST, expiresOn: "2026-07-01T14:00:00+01:00" }]),
        head: null,
      },
      rules: [],
    },
    {
      name: "a date expiry holds on its day and expires the next",
      sides: {
        base: freezeList([{ ...DST, expiresOn: "2026-07-01" }]),
        head: null,
      },
      rules: [],
    },
    {
      name: "a date expiry before today expired",
      sides: {
        base: freezeList([{ ...DST, expiresOn: "2026-06-30" }]),
        head: null,
      },
      rules: ["freeze.expired"],
    },
    {
      name: "fail_on_expired turned on at head makes an expiry blocking",
      sides: {
        base: freezeList([{ ...DST, expiresOn: "2026-06-30" }], {
          failOnExpired: false,
        }),
        head: freezeList([{ ...DST, expiresOn: "2026-06-30" }], {
          failOnExpired: true,
        }),
      },
      rules: ["freeze.expired"],
    },
    {
      name: "an expiry with fail_on_expired off everywhere is not blocking",
      sides: {
        base: freezeList([{ ...DST, expiresOn: "2026-06-30" }], {
          failOnExpired: false,
        }),
        head: null,
      },
      rules: ["~freeze.expired"],
    },
    {
      name: "a lowered cap at head applies",
      sides: {
        base: freezeList([DST], { maxFrozen: 3 }),
        head: freezeList([DST], { maxFrozen: 0 }),
      },
      rules: ["freeze.over_cap"],
    },
    {
      name:
        "a rewritten body hash is rejected even when the new one matches the file",
      sides: {
        base: freezeList([DST]),
        head: freezeList([{ ...DST, bodySha256: FILE_SHA }]),
      },
      rules: ["freeze.body_changed"],
    },
    {
      name: "a method freeze is matched on the method's slice",
      sides: {
        base: freezeList([
          freeze("m", FILE, "TestB.test_m", {
            bodySha256: sourceSha256(METHOD),
          }),
        ]),
        head: null,
      },
      rules: [],
    },
    {
      name: "an upper-case body hash can never match",
      sides: {
        base: freezeList([{ ...DST, bodySha256: FILE_SHA.toUpperCase() }]),
        head: null,
      },
      rules: ["freeze.body_changed"],
    },
    {
      name: "an entry without an id is named by its position",
      sides: {
        base: freezeList([DST]),
        head: freezeList([DST, { ...DST, id: undefined, missing: ["id"] }]),
      },
      rules: ["freeze.incomplete"],
    },
  ];
  for (const c of cases) {
    await t.step(c.name, () => {
      const findings = checkFreezeList(c.sides, options(c.now));
      assert.deepEqual(ruleIds(findings), c.rules);
    });
  }
});

Deno.test("checkFreezeList() names an entry without an id by its position", () => {
  const findings = checkFreezeList(
    {
      base: undefined,
      head: freezeList([{ ...DST, id: undefined, missing: ["id"] }]),
    },
    options(),
  );
  const incomplete = findings.find((f) => f.rule === "freeze.incomplete");
  assert.match(incomplete?.message ?? "", /^Freeze "#1" lacks "id": /);
  assert.match(
    findings.find((f) => f.rule === "freeze.over_cap")?.message ?? "",
    /the base commit has no freeze\.yml, so there is no freeze budget/,
  );
});

Deno.test("freezeBodyHashes() says which body each freeze pins", () => {
  const sides = {
    base: freezeList([
      DST,
      freeze("whole", FILE, "test_dst", { bodySha256: FILE_SHA }),
      freeze("stale", FILE, "test_dst", { bodySha256: sha("0") }),
      freeze("partial", FILE, "test_dst", {
        bodySha256: undefined,
        missing: ["body_sha256"],
      }),
    ]),
    head: null,
  };
  assert.deepEqual(
    freezeBodyHashes(sides, options()).map((h) => [h.freeze, h.bodyHash]),
    [["dst", "function"], ["whole", "file"], ["stale", "none"]],
  );
  // Without an analysis of the file, only the whole-file hash can match.
  assert.deepEqual(
    freezeBodyHashes(sides, options(NOW, new Map())).map((h) => h.bodyHash),
    ["none", "file", "none"],
  );
});

/** `list` whose `lineOf` answers from `lines`, keyed by the path joined with dots. */
function withLines(
  list: FreezeList,
  lines: Record<string, number>,
): FreezeList {
  return { ...list, lineOf: (path) => lines[path.join(".")] };
}

const LINES = {
  "policy": 1,
  "policy.max_frozen": 2,
  "policy.fail_on_expired": 3,
  "freezes": 4,
  "freezes.0": 5,
  "freezes.0.path": 6,
  "freezes.0.body_sha256": 7,
  "freezes.0.expires_on": 8,
  "freezes.0.owner": 9,
};

Deno.test("checkFreezeList() points each finding at the line of what it is about", async (t) => {
  const head = (entry: FreezeEntry, policy = {}) =>
    withLines(freezeList([entry], policy), LINES);
  const cases: {
    name: string;
    sides: ContractSides<FreezeList>;
    modules?: Map<string, PythonModule>;
    tree?: boolean;
    where: [string, string, number | undefined][];
  }[] = [
    {
      name: "a raised max_frozen points at max_frozen",
      sides: { base: freezeList([DST]), head: head(DST, { maxFrozen: 4 }) },
      where: [["freeze.cap_raised", "freeze.yml", 2]],
    },
    {
      name: "fail_on_expired turned off points at fail_on_expired",
      sides: {
        base: freezeList([DST]),
        head: head(DST, { failOnExpired: false }),
      },
      where: [["freeze.policy_loosened", "freeze.yml", 3]],
    },
    {
      name: "fail_on_expired dropped from the head points at the policy table",
      sides: {
        base: freezeList([DST]),
        head: withLines(freezeList([DST], { failOnExpired: false }), {
          policy: 1,
        }),
      },
      where: [["freeze.policy_loosened", "freeze.yml", 1]],
    },
    {
      name: "a list over its cap points at the freezes",
      sides: { base: freezeList([DST]), head: head(DST, { maxFrozen: 0 }) },
      where: [["freeze.over_cap", "freeze.yml", 4]],
    },
    {
      name: "an incomplete entry points at the entry",
      sides: {
        base: freezeList([DST]),
        head: head({ ...DST, reason: undefined, missing: ["reason"] }),
      },
      where: [["freeze.incomplete", "freeze.yml", 5]],
    },
    {
      name: "an agent owner points at the owner",
      sides: {
        base: freezeList([DST]),
        head: head({ ...DST, owner: "agent" }),
      },
      where: [["freeze.agent_owner", "freeze.yml", 9]],
    },
    {
      name: "an agent owner without a line of its own points at the entry",
      sides: {
        base: freezeList([DST]),
        head: withLines(freezeList([{ ...DST, owner: "agent" }]), {
          "freezes.0": 5,
        }),
      },
      where: [["freeze.agent_owner", "freeze.yml", 5]],
    },
    {
      name: "a later expiry points at expires_on",
      sides: {
        base: freezeList([DST]),
        head: head({ ...DST, expiresOn: "2027-01-01" }),
      },
      where: [["freeze.expiry_extended", "freeze.yml", 8]],
    },
    {
      name: "another test points at path",
      sides: {
        base: freezeList([DST]),
        head: head({
          ...DST,
          test: { ...DST.test!, nodeId: `${FILE}::test_other` },
        }),
      },
      where: [["freeze.retargeted", "freeze.yml", 6]],
    },
    {
      name: "a rewritten body hash points at body_sha256",
      sides: {
        base: freezeList([DST]),
        head: head({ ...DST, bodySha256: FILE_SHA }),
      },
      where: [["freeze.body_changed", "freeze.yml", 7]],
    },
    {
      name: "an expired freeze points at expires_on",
      sides: {
        base: freezeList([{ ...DST, expiresOn: "2026-06-30" }]),
        head: head({ ...DST, expiresOn: "2026-06-30" }),
      },
      where: [["freeze.expired", "freeze.yml", 8]],
    },
    {
      name: "a body hash that is not a sha256 points at body_sha256",
      sides: {
        base: freezeList([{ ...DST, bodySha256: "ab".repeat(16) }]),
        head: head({ ...DST, bodySha256: "ab".repeat(16) }),
      },
      where: [["freeze.body_changed", "freeze.yml", 7]],
    },
    {
      name: "a frozen test file gone from the tree points at path",
      sides: { base: freezeList([DST]), head: head(DST) },
      tree: false,
      where: [["freeze.body_changed", "freeze.yml", 6]],
    },
    {
      name: "a changed test body points at the test function",
      sides: {
        base: freezeList([{ ...DST, bodySha256: sha("0") }]),
        head: head({ ...DST, bodySha256: sha("0") }),
      },
      where: [["freeze.body_changed", FILE, 10]],
    },
    {
      name: "a changed test body whose function is gone points at its file",
      sides: {
        base: freezeList([{ ...DST, bodySha256: sha("0") }]),
        head: head({ ...DST, bodySha256: sha("0") }),
      },
      modules: new Map(),
      where: [["freeze.body_changed", FILE, undefined]],
    },
  ];
  for (const c of cases) {
    await t.step(c.name, () => {
      const opts = options(NOW, c.modules);
      if (c.tree === false) opts.headTree = treeOf({});
      const findings = checkFreezeList(c.sides, opts);
      assert.deepEqual(
        findings.map((f) => [f.rule, f.path, f.line]),
        c.where,
      );
    });
  }
});

Deno.test("checkFreezeList() holds a head entry to its base record only where both say something", async (t) => {
  const cases: {
    name: string;
    base: Partial<FreezeEntry>;
    head: Partial<FreezeEntry>;
    rules: string[];
  }[] = [
    {
      name: "a head that adds a missing expires_on does not extend it",
      base: { expiresOn: undefined, missing: ["expires_on"] },
      head: {},
      rules: [],
    },
    {
      name: "a head that drops expires_on is incomplete, not extended",
      base: { expiresOn: "1969-12-30" },
      head: { expiresOn: undefined, missing: ["expires_on"] },
      rules: ["freeze.expired", "freeze.incomplete"],
    },
    {
      name: "a head that adds a missing path does not retarget",
      base: { test: undefined, missing: ["path"] },
      head: {},
      rules: [],
    },
    {
      name: "a head that drops path is incomplete, not retargeted",
      base: {},
      head: { test: undefined, missing: ["path"] },
      rules: ["freeze.incomplete"],
    },
    {
      name: "a head that adds a missing body_sha256 does not rewrite it",
      base: { bodySha256: undefined, missing: ["body_sha256"] },
      head: {},
      rules: [],
    },
    {
      name: "a head that drops body_sha256 is incomplete, not rewritten",
      base: {},
      head: { bodySha256: undefined, missing: ["body_sha256"] },
      rules: ["freeze.incomplete"],
    },
    {
      name: "a freeze without a test anywhere is incomplete and not hashed",
      base: { test: undefined, missing: ["path"] },
      head: { test: undefined, missing: ["path"] },
      rules: ["freeze.incomplete"],
    },
  ];
  for (const c of cases) {
    await t.step(c.name, () => {
      const findings = checkFreezeList({
        base: freezeList([{ ...DST, ...c.base }]),
        head: freezeList([{ ...DST, ...c.head }]),
      }, options());
      assert.deepEqual(ruleIds(findings), c.rules);
    });
  }
});

Deno.test("checkFreezeList() budgets and blocks by the stricter of base and head", async (t) => {
  const expired = { ...DST, expiresOn: "2026-06-30" };
  const cases: {
    name: string;
    sides: ContractSides<FreezeList>;
    rules: string[];
  }[] = [
    {
      name: "an unusable head list is held to the base cap",
      sides: { base: freezeList([DST], { maxFrozen: 0 }), head: null },
      rules: ["freeze.over_cap"],
    },
    {
      name:
        "without a base freeze.yml an expiry blocks even when the head turns fail_on_expired off",
      sides: {
        base: undefined,
        head: freezeList([expired], { failOnExpired: false }),
      },
      rules: ["freeze.expired", "freeze.over_cap"],
    },
  ];
  for (const c of cases) {
    await t.step(c.name, () => {
      assert.deepEqual(ruleIds(checkFreezeList(c.sides, options())), c.rules);
    });
  }
});

Deno.test("checkFreezeList() messages name the counts, keys and hashes a human acts on", async (t) => {
  const message = (
    sides: ContractSides<FreezeList>,
    rule: string,
    modules?: Map<string, PythonModule>,
  ) =>
    checkFreezeList(sides, options(NOW, modules)).find((f) => f.rule === rule)
      ?.message;
  const fnSha = sourceSha256(SOURCE);
  await t.step("a list over a base cap names the count and the cap", () => {
    assert.equal(
      message(
        { base: freezeList([DST], { maxFrozen: 0 }), head: null },
        "freeze.over_cap",
      ),
      "Freeze count 1 exceeds max_frozen 0: drop freezes, the budget is human-owned",
    );
  });
  await t.step("a list without a base counts the freezes it adds", () => {
    assert.match(
      message(
        { base: undefined, head: freezeList([DST, { ...DST, id: "b" }]) },
        "freeze.over_cap",
      ) ?? "",
      /^The pull request adds 2 freezes but the base commit has no freeze\.yml/,
    );
  });
  await t.step("an incomplete entry names every missing key", () => {
    assert.equal(
      message(
        {
          base: undefined,
          head: freezeList([{ ...DST, missing: ["path", "owner"] }]),
        },
        "freeze.incomplete",
      ),
      'Freeze "dst" lacks "path", "owner": every freeze needs id, path, body_sha256, expires_on, owner, reason',
    );
  });
  await t.step("an expiry moved later names both dates", () => {
    assert.match(
      message(
        {
          base: freezeList([DST]),
          head: freezeList([{ ...DST, expiresOn: "2027-01-01" }]),
        },
        "freeze.expiry_extended",
      ) ?? "",
      /^Freeze "dst" expires_on was moved from 2026-09-26 to 2027-01-01: /,
    );
  });
  await t.step("another test names both node ids", () => {
    assert.match(
      message(
        {
          base: freezeList([DST]),
          head: freezeList([{
            ...DST,
            test: { ...DST.test!, nodeId: `${FILE}::test_other` },
          }]),
        },
        "freeze.retargeted",
      ) ?? "",
      /^Freeze "dst" now covers "tests\/test_billing\.py::test_other" instead of "tests\/test_billing\.py::test_dst": /,
    );
  });
  await t.step("a rewritten body hash says the base record is enforced", () => {
    assert.match(
      message(
        {
          base: freezeList([DST]),
          head: freezeList([{ ...DST, bodySha256: FILE_SHA }]),
        },
        "freeze.body_changed",
      ) ?? "",
      /^Freeze "dst" body_sha256 was rewritten: .*the base record is enforced$/,
    );
  });
  await t.step("a frozen test file gone names the file and why", () => {
    const findings = checkFreezeList(
      { base: freezeList([DST]), head: null },
      { ...options(), headTree: treeOf({}) },
    );
    assert.match(
      findings[0]?.message ?? "",
      /^Freeze "dst" test file "tests\/test_billing\.py" \S.*: a frozen test stays in the tree/,
    );
  });
  const placeholder = "ab".repeat(16);
  await t.step(
    "a body hash that is not a sha256 offers the function's and the file's",
    () => {
      assert.equal(
        message(
          {
            base: freezeList([{ ...DST, bodySha256: placeholder }]),
            head: null,
          },
          "freeze.body_changed",
        ),
        `Freeze "dst" body_sha256 "${placeholder}" is not a 64-character lowercase sha256 (the seed's 32-digit examples are placeholders), so it can never match "${FILE}::test_dst": a human records the sha256 of the test function (${fnSha}) or of its file (${FILE_SHA})`,
      );
    },
  );
  await t.step(
    "a body hash that is not a sha256 offers only the file's when the function is gone",
    () => {
      assert.match(
        message(
          {
            base: freezeList([{ ...DST, bodySha256: placeholder }]),
            head: null,
          },
          "freeze.body_changed",
          new Map(),
        ) ?? "",
        /a human records the sha256 of the test function or of its file \(f{64}\)$/,
      );
    },
  );
  await t.step("a changed body names the three hashes, shortened", () => {
    assert.equal(
      message(
        { base: freezeList([{ ...DST, bodySha256: sha("0") }]), head: null },
        "freeze.body_changed",
      ),
      `Freeze "dst" frozen test "${FILE}::test_dst" changed: body_sha256 ${
        sha("0").slice(0, 12)
      } matches neither the test function (${
        fnSha.slice(0, 12)
      }) nor the file (${
        FILE_SHA.slice(0, 12)
      }); freezes are not a licence to edit the test`,
    );
    assert.match(
      message(
        { base: freezeList([{ ...DST, bodySha256: sha("0") }]), head: null },
        "freeze.body_changed",
        new Map(),
      ) ?? "",
      /matches neither the test function \(not found\) nor the file/,
    );
  });
});

Deno.test("freezeBodyHashes() leaves out a freeze without a test", () => {
  const sides = {
    base: freezeList([{ ...DST, test: undefined, missing: ["path"] }]),
    head: null,
  };
  assert.deepEqual(freezeBodyHashes(sides, options()), []);
});
