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
import type { FreezeList } from "./read_freeze_list.ts";
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
