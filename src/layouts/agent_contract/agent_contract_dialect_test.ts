import assert from "node:assert/strict";
import { ContractSyntaxError } from "../../contract/contract_syntax_error.ts";
import type { ContractBlob, ContractBlobs } from "../dialect.ts";
import { CONTRACT, SEED_CONTRACT } from "./_testing.ts";
import { agentContractDialect } from "./agent_contract_dialect.ts";
import type { Tree } from "../../git/git.ts";
import { analyzePython } from "../../python/analyze_python.ts";
import { loadPythonParser } from "../../python/load_python_parser.ts";
import type { PythonModule } from "../../python/python_module.ts";
import { type ContractReader, ParsedTexts } from "../parsed_texts.ts";

function blobs(text: string): ContractBlobs {
  return new Map<string, ContractBlob>([[CONTRACT, {
    kind: "file",
    text,
    bytes: new TextEncoder().encode(text),
  }]]);
}

Deno.test("agentContractDialect cannot decide on a base whose own freezes break the rules", async (t) => {
  const cases: [string, string, RegExp][] = [
    [
      "a blank owner",
      SEED_CONTRACT.replace('"oncall-payments"', '"  "'),
      /breaks rule "freeze\.incomplete" at line 19/,
    ],
    [
      "more freezes than its own max_active_freezes",
      SEED_CONTRACT.replace("max_active_freezes: 3", "max_active_freezes: 0"),
      /breaks rule "freeze\.over_cap" at line 23/,
    ],
  ];
  for (const [name, text, message] of cases) {
    await t.step(name, () => {
      assert.throws(
        () => agentContractDialect.load(blobs(text), blobs(text)),
        (error: unknown) => {
          assert.ok(error instanceof ContractSyntaxError);
          assert.equal(error.path, CONTRACT);
          assert.match(
            error.message,
            /^Cannot read contract "tests\/agent_contract\.yaml": the base commit's own copy /,
          );
          assert.match(error.message, message);
          return true;
        },
      );
    });
  }
});

Deno.test("agentContractDialect leaves the clock's findings to the check: an expired or spent base freeze loads", () => {
  for (
    const text of [
      SEED_CONTRACT.replace('"2026-09-22T00:00:00Z"', '"2000-01-01T00:00:00Z"'),
      SEED_CONTRACT.replace('"2026-09-22T00:00:00Z"', '"1969-07-20T20:17:00Z"'),
      SEED_CONTRACT.replace("remaining_reruns: 2", "remaining_reruns: 0"),
    ]
  ) {
    const loaded = agentContractDialect.load(blobs(text), blobs(text));
    assert.deepEqual(loaded.loadFindings, []);
  }
});

Deno.test("agentContractDialect reports the same flaws at head as findings, not as could-not-decide", () => {
  const head = SEED_CONTRACT.replace('"oncall-payments"', '"  "');
  const loaded = agentContractDialect.load(blobs(SEED_CONTRACT), blobs(head));
  assert.deepEqual(loaded.loadFindings, []);
});

Deno.test("agentContractDialect plans a frozen test's reruns only while its freeze is live, has reruns left and says who owns it and why", async (t) => {
  const expiry = Date.parse("2026-09-22T00:00:00Z");
  const cases: [string, string, string, number, string[]][] = [
    ["a live freeze", SEED_CONTRACT, SEED_CONTRACT, expiry - 1, [
      "test_report_render_flaky",
    ]],
    [
      "a freeze at the instant it expires",
      SEED_CONTRACT,
      SEED_CONTRACT,
      expiry,
      [],
    ],
    [
      "a freeze with one rerun left",
      SEED_CONTRACT.replace("remaining_reruns: 2", "remaining_reruns: 1"),
      SEED_CONTRACT.replace("remaining_reruns: 2", "remaining_reruns: 1"),
      expiry - 1,
      ["test_report_render_flaky"],
    ],
    [
      "a freeze with no reruns left",
      SEED_CONTRACT.replace("remaining_reruns: 2", "remaining_reruns: 0"),
      SEED_CONTRACT.replace("remaining_reruns: 2", "remaining_reruns: 0"),
      expiry - 1,
      [],
    ],
    [
      "a freeze whose reason the head blanks",
      SEED_CONTRACT,
      SEED_CONTRACT.replace(
        '"clock skew in renderer; tracked as PAY-4412"',
        '" "',
      ),
      expiry - 1,
      [],
    ],
    [
      "a freeze whose owner the head blanks",
      SEED_CONTRACT,
      SEED_CONTRACT.replace('"oncall-payments"', '" "'),
      expiry - 1,
      [],
    ],
  ];
  for (const [name, base, head, now, want] of cases) {
    await t.step(name, () => {
      const loaded = agentContractDialect.load(blobs(base), blobs(head));
      const plan = loaded.plan({ now } as Parameters<typeof loaded.plan>[0]);
      assert.deepEqual(plan.reruns.map((r) => r.id), want);
    });
  }
});

Deno.test("agentContractDialect plans every property and each live freeze's own test and reruns", () => {
  const loaded = agentContractDialect.load(
    blobs(SEED_CONTRACT),
    blobs(SEED_CONTRACT),
  );
  const plan = loaded.plan(
    { now: Date.parse("2026-09-01T00:00:00Z") } as Parameters<
      typeof loaded.plan
    >[0],
  );
  assert.deepEqual(plan.properties, [
    {
      id: "parse_rejects_empty",
      module: "tests.properties.test_parse",
      name: "test_empty_input_raises",
    },
    {
      id: "roundtrip_stable",
      module: "tests.properties.test_codec",
      name: "test_decode_encode_identity",
    },
  ]);
  assert.deepEqual(plan.reruns, [{
    id: "test_report_render_flaky",
    test: "test_report_render_flaky",
    remainingReruns: 2,
  }]);
});

Deno.test("agentContractDialect judges a head contract it cannot read as a finding, against the base copy", () => {
  const loaded = agentContractDialect.load(
    blobs(SEED_CONTRACT),
    blobs(SEED_CONTRACT + "notes: unchecked\n"),
  );
  assert.deepEqual(loaded.loadFindings.map((f) => f.rule), [
    "config.contract_invalid",
  ]);
  assert.equal(loaded.loadFindings[0]?.path, CONTRACT);
});

Deno.test("agentContractDialect is present only where its contract file is", () => {
  const entry = { path: CONTRACT, kind: "file" as const, oid: "1", size: 1 };
  assert.equal(
    agentContractDialect.presentIn(new Map([[CONTRACT, entry]])),
    true,
  );
  assert.equal(agentContractDialect.presentIn(new Map()), false);
  const other = { ...entry, path: "contracts.yml" };
  assert.equal(
    agentContractDialect.presentIn(new Map([["contracts.yml", other]])),
    false,
  );
});

Deno.test("agentContractDialect cannot decide when the base has no contract file", () => {
  assert.throws(
    () => agentContractDialect.load(new Map(), blobs(SEED_CONTRACT)),
    (error: unknown) => {
      assert.ok(error instanceof ContractSyntaxError);
      assert.equal(error.path, CONTRACT);
      assert.match(error.message, /the base commit has no such file/);
      return true;
    },
  );
});

Deno.test("agentContractDialect points a finding at its line when the head leaves the contract alone", () => {
  const loaded = agentContractDialect.load(
    blobs(SEED_CONTRACT),
    blobs(SEED_CONTRACT),
  );
  const findings = loaded.check(
    {
      now: Date.parse("2026-09-01T00:00:00Z"),
      headTree: new Map(),
      digests: new Map(),
      headModules: new Map(),
      baseModules: new Map(),
    } as unknown as Parameters<typeof loaded.check>[0],
  );
  const missing = findings.find((f) => f.rule === "fixture.missing");
  const line =
    SEED_CONTRACT.split("\n").findIndex((l) =>
      l.includes("path: tests/fixtures/invoice_v3.json")
    ) + 1;
  assert.ok(line > 0);
  assert.equal(missing?.path, CONTRACT);
  assert.equal(missing?.line, line);
});

function tree(...paths: string[]): Tree {
  return new Map(
    paths.map((path) => [path, { path, kind: "file", oid: path, size: 1 }]),
  );
}

Deno.test("agentContractDialect reads base modules in the base tree and fixtures under the configured roots", async (t) => {
  const loaded = agentContractDialect.load(
    blobs(SEED_CONTRACT),
    blobs(SEED_CONTRACT),
  );
  const module = "tests/properties/test_parse.py";
  const fixture = "tests/fixtures/invoice_v3.json";
  await t.step("a module only the base tree has", () => {
    const reads = loaded.reads(tree(module), tree());
    assert.deepEqual(reads.baseModules, [module]);
    assert.deepEqual(reads.headModules, []);
  });
  await t.step("a fixture under the default roots", () => {
    assert.deepEqual(loaded.reads(tree(), tree(fixture)).headDigests, [
      fixture,
    ]);
  });
  await t.step("a fixture outside the configured roots", () => {
    assert.deepEqual(
      loaded.reads(tree(), tree(fixture), { fixtureRoots: ["data"] })
        .headDigests,
      [],
    );
  });
});

Deno.test("agentContractDialect refuses a fixture outside the configured roots", () => {
  const loaded = agentContractDialect.load(
    blobs(SEED_CONTRACT),
    blobs(SEED_CONTRACT),
  );
  const input = (fixtureRoots?: string[]) =>
    ({
      now: Date.parse("2026-09-01T00:00:00Z"),
      headTree: tree("tests/fixtures/invoice_v3.json"),
      digests: new Map([["tests/fixtures/invoice_v3.json", "0".repeat(64)]]),
      headModules: new Map(),
      baseModules: new Map(),
      fixtureRoots,
    }) as unknown as Parameters<typeof loaded.check>[0];
  const rules = (fixtureRoots?: string[]) =>
    loaded.check(input(fixtureRoots)).map((f) => f.rule).filter((r) =>
      r.startsWith("fixture.")
    );
  assert.deepEqual(rules(), ["fixture.digest_mismatch"]);
  assert.deepEqual(rules(["data"]), ["fixture.path_unsafe"]);
});

Deno.test("agentContractDialect judges a head that removes the contract against the base copy", () => {
  const loaded = agentContractDialect.load(blobs(SEED_CONTRACT), new Map());
  assert.deepEqual(loaded.loadFindings.map((f) => f.rule), [
    "config.contract_removed",
  ]);
});

Deno.test("agentContractDialect lets an error that says nothing about the head contract through", () => {
  const head = SEED_CONTRACT + "# edited\n";
  class FailingOnHead extends ParsedTexts {
    override read<T>(
      read: ContractReader<T>,
      text: string,
      options: { path: string },
    ): T {
      if (text === head) throw new RangeError("out of memory");
      return super.read(read, text, options);
    }
  }
  assert.throws(
    () =>
      agentContractDialect.load(blobs(SEED_CONTRACT), blobs(head), {
        parsed: new FailingOnHead(),
      }),
    RangeError,
  );
});

Deno.test("agentContractDialect checks properties with the base's test environment and against the base's modules", async (t) => {
  const parser = await loadPythonParser();
  const contract = `version: 1
properties:
  - id: p
    module: tests.test_p
    name: test_p
    min_examples: 100
fixtures: []
freezes: []
max_active_freezes: 0
`;
  const test = (examples: number) =>
    `from hypothesis import given, settings, strategies as st


@settings(max_examples=${examples})
@given(st.integers())
def test_p(n):
    assert n + 0 == n
`;
  const conftest = `import os
from hypothesis import settings

settings.register_profile("dev", max_examples=10)
settings.register_profile("ci", max_examples=500)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "dev"))
`;
  const modules = (files: Record<string, string>) =>
    new Map<string, PythonModule>(
      Object.entries(files).map(([path, text]) => [
        path,
        analyzePython(parser, text),
      ]),
    );
  const loaded = agentContractDialect.load(blobs(contract), blobs(contract));
  const rules = (
    head: Map<string, PythonModule>,
    base: Map<string, PythonModule>,
    testEnv?: Record<string, string>,
  ) =>
    loaded.check(
      {
        now: Date.parse("2026-09-01T00:00:00Z"),
        headTree: tree("tests/test_p.py", "tests/conftest.py"),
        digests: new Map(),
        headModules: head,
        baseModules: base,
        testEnv,
      } as unknown as Parameters<typeof loaded.check>[0],
    ).map((f) => f.rule);
  await t.step("a profile chosen by the base's environment", () => {
    const files = modules({
      "tests/test_p.py": test(100).replace("@settings(max_examples=100)\n", ""),
      "tests/conftest.py": conftest,
    });
    assert.deepEqual(rules(files, files), [
      "property.examples_below_contract",
    ]);
    assert.deepEqual(rules(files, files, { HYPOTHESIS_PROFILE: "ci" }), []);
  });
  await t.step("settings the head lowers from the base's", () => {
    const base = modules({ "tests/test_p.py": test(500) });
    const head = modules({ "tests/test_p.py": test(200) });
    assert.deepEqual(rules(head, head), []);
    assert.deepEqual(rules(head, base), ["property.examples_lowered"]);
  });
});

Deno.test("agentContractDialect plans a property the head adds and records the base contract file it decided on", () => {
  const head = SEED_CONTRACT.replace(
    "    min_examples: 80\n",
    "    min_examples: 80\n  - id: added\n    module: tests.properties.test_added\n    name: test_added\n    min_examples: 100\n",
  );
  assert.notEqual(head, SEED_CONTRACT);
  const loaded = agentContractDialect.load(blobs(SEED_CONTRACT), blobs(head));
  const plan = loaded.plan(
    { now: Date.parse("2026-09-01T00:00:00Z") } as Parameters<
      typeof loaded.plan
    >[0],
  );
  assert.deepEqual(plan.properties.map((p) => p.id).sort(), [
    "added",
    "parse_rejects_empty",
    "roundtrip_stable",
  ]);
  assert.deepEqual(loaded.files.map((f) => [f.path, f.layout]), [
    [CONTRACT, "000"],
  ]);
  assert.match(loaded.files[0]?.sha256 ?? "", /^[0-9a-f]{64}$/);
});

Deno.test("agentContractDialect checks freezes against the clock it is given", async (t) => {
  const loaded = agentContractDialect.load(
    blobs(SEED_CONTRACT),
    blobs(SEED_CONTRACT),
  );
  const expiry = Date.parse("2026-09-22T00:00:00Z");
  for (const [now, want] of [[expiry - 1, 0], [expiry, 1]] as const) {
    await t.step(new Date(now).toISOString(), () => {
      const findings = loaded.check(
        {
          now,
          headTree: new Map(),
          digests: new Map(),
          headModules: new Map(),
          baseModules: new Map(),
        } as unknown as Parameters<typeof loaded.check>[0],
      );
      assert.equal(
        findings.filter((f) => f.rule === "freeze.expired").length,
        want,
      );
    });
  }
});

Deno.test("agentContractDialect's warm-up reads its built-in sample without refusing it", () => {
  const { warmUp } = agentContractDialect;
  assert.ok(warmUp !== undefined);
  assert.doesNotThrow(() => warmUp());
});

Deno.test("agentContractDialect's loaded layout is seed 000's, adds no verdict facts and plans no deselections, replays or non-blocking tests", () => {
  const loaded = agentContractDialect.load(
    blobs(SEED_CONTRACT),
    blobs(SEED_CONTRACT),
  );
  const input = { now: Date.parse("2026-09-01T00:00:00Z") } as Parameters<
    typeof loaded.plan
  >[0];
  assert.equal(loaded.id, "000");
  assert.deepEqual(loaded.verdictFacts(input), { freezeBodyHashes: [] });
  const plan = loaded.plan(input);
  assert.deepEqual(
    [plan.deselect, plan.replays, plan.nonBlocking],
    [[], [], []],
  );
});
