import assert from "node:assert/strict";
import type { Layer } from "../../core/rules.ts";
import type { EntryKind } from "../../git/git.ts";
import type { PythonModule } from "../../python/python_module.ts";
import {
  blockingRules,
  CONTRACT,
  INVOICE_SHA,
  pyFunction,
  type PyFunctionOptions,
  pyModule,
  SEED_CONTRACT,
  sha,
  treeOf,
} from "./_testing.ts";
import {
  agentContractReads,
  checkAgentContract,
} from "./check_agent_contract.ts";
import {
  type AgentContract,
  readAgentContract,
} from "./read_agent_contract.ts";

const NOW = Date.parse("2026-09-15T00:00:00Z");
const PARSE = "tests/properties/test_parse.py";
const CODEC = "tests/properties/test_codec.py";
const INVOICE = "tests/fixtures/invoice_v3.json";

function read(text: string): AgentContract {
  return readAgentContract(text, { path: CONTRACT });
}

const BASE = read(SEED_CONTRACT);

/** One pull request's head state, starting from the seed's clean example. */
interface Scenario {
  /** The head contract text, or null when the head deleted it. */
  headText: string | null;
  /** Head test analyses: path → qualname → options. */
  tests: Record<string, Record<string, PyFunctionOptions>>;
  /** Head files and their kinds. */
  files: Record<string, EntryKind>;
  /** The SHA-256 of each head file's bytes. */
  bytes: Record<string, string>;
}

function seedScenario(): Scenario {
  return {
    headText: SEED_CONTRACT,
    tests: {
      [PARSE]: { test_empty_input_raises: { maxExamples: 40 } },
      [CODEC]: { test_decode_encode_identity: { maxExamples: 80 } },
    },
    files: { [PARSE]: "file", [CODEC]: "file", [INVOICE]: "file" },
    bytes: { [INVOICE]: INVOICE_SHA },
  };
}

function analyses(
  tests: Scenario["tests"],
  paths: readonly string[],
): Map<string, PythonModule> {
  return new Map(
    paths.map((path) => [
      path,
      pyModule(
        ...Object.entries(tests[path] ?? {}).map(([name, options]) =>
          pyFunction(name, options)
        ),
      ),
    ]),
  );
}

/** Run the gate the way the shell does: ask what to read, read it, judge. */
function judge(scenario: Scenario) {
  const base = seedScenario();
  const head = scenario.headText === null ? null : read(scenario.headText);
  const headTree = treeOf(scenario.files);
  const baseTree = treeOf(base.files);
  const reads = agentContractReads(BASE, head, headTree, { baseTree });
  const digests = new Map(reads.fixtures.map((path) => {
    const digest = scenario.bytes[path];
    assert.ok(digest !== undefined, `the scenario has bytes for ${path}`);
    return [path, digest];
  }));
  return checkAgentContract({
    path: CONTRACT,
    base: BASE,
    head,
    headTree,
    digests,
    modules: analyses(scenario.tests, reads.modules),
    baseModules: analyses(base.tests, reads.baseModules),
    now: NOW,
  });
}

/** The seed contract with `from` replaced by `to` (which must occur once). */
function edit(text: string, from: string, to: string): string {
  assert.equal(text.split(from).length, 2, `one ${from}`);
  return text.replace(from, to);
}

const NEW_FREEZE =
  '  - id: test_new_flaky\n    owner: "oncall-payments"\n    reason: "PAY-4500"\n    expires: "2026-09-20T00:00:00Z"\n    remaining_reruns: 1\n';

function withFreezes(text: string, count: number): string {
  let freezes = "";
  for (let i = 0; i < count; i++) {
    freezes += NEW_FREEZE.replace("test_new_flaky", `test_new_flaky_${i}`);
  }
  return edit(text, "max_active_freezes: 3", `${freezes}max_active_freezes: 3`);
}

interface Row {
  observation: string;
  layer: Layer;
  gate: "reject" | "allow";
  humanAction: string;
  mutate(s: Scenario): void;
  /** Exact blocking rule ids for reject rows. */
  rules?: string[];
}

/** Seed 000's decision table, row by row. */
const DECISION_TABLE: Row[] = [
  {
    observation: "Test body became assert True",
    layer: "property",
    gate: "reject",
    humanAction: "restore invariant",
    mutate(s) {
      s.tests[PARSE] = {
        test_empty_input_raises: {
          maxExamples: 40,
          vacuity: { reason: "constant", line: 12 },
        },
      };
    },
    rules: ["property.vacuous"],
  },
  {
    observation: "max_examples dropped below contract",
    layer: "property",
    gate: "reject",
    humanAction: "restore count",
    mutate(s) {
      s.tests[CODEC] = { test_decode_encode_identity: { maxExamples: 20 } };
    },
    rules: ["property.examples_below_contract", "property.examples_lowered"],
  },
  {
    observation: "Fixture bytes changed, unlock null",
    layer: "fixture",
    gate: "reject",
    humanAction: "keep old bytes or review unlock",
    mutate(s) {
      s.bytes[INVOICE] = sha("b");
    },
    rules: ["fixture.digest_mismatch"],
  },
  {
    observation:
      "Fixture bytes changed, unlock null, digest re-hashed into the contract",
    layer: "fixture",
    gate: "reject",
    humanAction: "keep old bytes or review unlock",
    mutate(s) {
      s.bytes[INVOICE] = sha("b");
      s.headText = edit(SEED_CONTRACT, INVOICE_SHA, sha("b"));
    },
    rules: ["fixture.digest_changed", "fixture.digest_mismatch"],
  },
  {
    observation: "Fixture bytes changed, unlock set on agent branch",
    layer: "fixture",
    gate: "reject",
    humanAction: "move unlock to a human commit",
    mutate(s) {
      s.bytes[INVOICE] = sha("b");
      s.headText = edit(SEED_CONTRACT, "unlock: null", 'unlock: "rotate v3"');
    },
    rules: ["fixture.digest_mismatch", "fixture.self_unlock"],
  },
  {
    observation:
      "Fixture bytes changed, unlock set and digest re-hashed on agent branch",
    layer: "fixture",
    gate: "reject",
    humanAction: "move unlock to a human commit",
    mutate(s) {
      s.bytes[INVOICE] = sha("b");
      s.headText = edit(
        edit(SEED_CONTRACT, "unlock: null", 'unlock: "rotate v3"'),
        INVOICE_SHA,
        sha("b"),
      );
    },
    rules: [
      "fixture.digest_changed",
      "fixture.digest_mismatch",
      "fixture.self_unlock",
    ],
  },
  {
    observation: "New freeze with owner and expiry (under max)",
    layer: "freeze",
    gate: "allow",
    humanAction: "file the tracker id",
    mutate(s) {
      s.headText = withFreezes(SEED_CONTRACT, 2);
    },
  },
  {
    observation: "New freeze with owner and expiry (over max)",
    layer: "freeze",
    gate: "reject",
    humanAction: "file the tracker id",
    mutate(s) {
      s.headText = withFreezes(SEED_CONTRACT, 3);
    },
    rules: ["freeze.over_cap"],
  },
  {
    observation: "Freeze expiry moved forward",
    layer: "freeze",
    gate: "reject",
    humanAction: "let it expire, then fix",
    mutate(s) {
      s.headText = edit(
        SEED_CONTRACT,
        '"2026-09-22T00:00:00Z"',
        '"2026-09-29T00:00:00Z"',
      );
    },
    rules: ["freeze.expiry_extended"],
  },
  {
    observation: "Rerun budget increased",
    layer: "freeze",
    gate: "reject",
    humanAction: "leave budget as-is",
    mutate(s) {
      s.headText = edit(
        SEED_CONTRACT,
        "remaining_reruns: 2",
        "remaining_reruns: 5",
      );
    },
    rules: ["freeze.reruns_raised"],
  },
  {
    observation: "Property added, others unchanged",
    layer: "property",
    gate: "allow",
    humanAction: "keep the stronger set",
    mutate(s) {
      s.headText = edit(
        SEED_CONTRACT,
        "fixtures:\n",
        "  - id: parse_rejects_nul\n    module: tests.properties.test_parse\n    name: test_nul_byte_raises\n    min_examples: 50\nfixtures:\n",
      );
      s.tests[PARSE] = {
        test_empty_input_raises: { maxExamples: 40 },
        test_nul_byte_raises: { maxExamples: 50 },
      };
    },
  },
  {
    observation: "Active freezes exceed max",
    layer: "freeze",
    gate: "reject",
    humanAction: "fix or drop the oldest",
    mutate(s) {
      s.headText = edit(
        withFreezes(SEED_CONTRACT, 1),
        "max_active_freezes: 3",
        "max_active_freezes: 1",
      );
    },
    rules: ["freeze.over_cap"],
  },
];

Deno.test("checkAgentContract() passes the seed's clean example", () => {
  assert.deepEqual(judge(seedScenario()), []);
});

Deno.test("checkAgentContract() follows seed 000's decision table", async (t) => {
  for (const row of DECISION_TABLE) {
    await t.step(
      `${row.observation}: ${row.layer} ${row.gate} (${row.humanAction})`,
      () => {
        const scenario = seedScenario();
        row.mutate(scenario);
        const findings = judge(scenario);
        if (row.gate === "allow") {
          assert.deepEqual(blockingRules(findings), []);
          return;
        }
        assert.deepEqual(blockingRules(findings), row.rules);
        for (const f of findings) assert.equal(f.layer, row.layer);
      },
    );
  }
});

Deno.test("checkAgentContract() keeps enforcing base entries the head dropped", async (t) => {
  await t.step(
    "a base fixture removed from the contract is still hashed against its base digest",
    () => {
      const scenario = seedScenario();
      scenario.headText = edit(
        SEED_CONTRACT,
        `  - id: invoice_v3\n    path: tests/fixtures/invoice_v3.json\n    sha256: ${INVOICE_SHA}\n    unlock: null\n`,
        "",
      );
      scenario.bytes[INVOICE] = sha("b");
      assert.deepEqual(blockingRules(judge(scenario)), [
        "fixture.digest_mismatch",
        "fixture.removed",
      ]);
    },
  );
  await t.step(
    "a base fixture moved to another path is still checked at its base path",
    () => {
      const scenario = seedScenario();
      scenario.headText = edit(
        SEED_CONTRACT,
        "path: tests/fixtures/invoice_v3.json",
        "path: tests/fixtures/invoice_v4.json",
      );
      scenario.files["tests/fixtures/invoice_v4.json"] = "file";
      scenario.bytes["tests/fixtures/invoice_v4.json"] = INVOICE_SHA;
      scenario.bytes[INVOICE] = sha("c");
      assert.deepEqual(blockingRules(judge(scenario)), [
        "fixture.digest_mismatch",
        "fixture.retargeted",
      ]);
    },
  );
  await t.step(
    "a base property removed from the contract is still checked",
    () => {
      const scenario = seedScenario();
      scenario.headText = edit(
        SEED_CONTRACT,
        "  - id: roundtrip_stable\n    module: tests.properties.test_codec\n    name: test_decode_encode_identity\n    min_examples: 80\n",
        "",
      );
      scenario.tests[CODEC] = {
        test_decode_encode_identity: {
          maxExamples: 80,
          vacuity: { reason: "no_assertion", line: 11 },
        },
      };
      assert.deepEqual(blockingRules(judge(scenario)), [
        "property.removed",
        "property.vacuous",
      ]);
    },
  );
  await t.step("a lowered min_examples is still held to the base count", () => {
    const scenario = seedScenario();
    scenario.headText = edit(
      SEED_CONTRACT,
      "min_examples: 80",
      "min_examples: 10",
    );
    scenario.tests[CODEC] = {
      test_decode_encode_identity: { maxExamples: 10 },
    };
    assert.deepEqual(blockingRules(judge(scenario)), [
      "property.examples_below_contract",
      "property.examples_lowered",
      "property.min_examples_lowered",
    ]);
  });
  await t.step("an extended expiry is judged at the base expiry", () => {
    const scenario = seedScenario();
    scenario.headText = edit(
      SEED_CONTRACT,
      '"2026-09-22T00:00:00Z"',
      '"2026-12-01T00:00:00Z"',
    );
    const findings = checkAgentContract({
      path: CONTRACT,
      base: BASE,
      head: read(scenario.headText),
      headTree: treeOf(scenario.files),
      digests: new Map([[INVOICE, INVOICE_SHA]]),
      modules: analyses(scenario.tests, [PARSE, CODEC]),
      now: Date.parse("2026-10-01T00:00:00Z"),
    });
    assert.deepEqual(blockingRules(findings), [
      "freeze.expired",
      "freeze.expiry_extended",
    ]);
  });
  await t.step("a raised cap is judged at the base cap", () => {
    const scenario = seedScenario();
    scenario.headText = edit(
      withFreezes(SEED_CONTRACT, 3),
      "max_active_freezes: 3",
      "max_active_freezes: 4",
    );
    assert.deepEqual(blockingRules(judge(scenario)), [
      "freeze.cap_raised",
      "freeze.over_cap",
    ]);
  });
  await t.step("a removed freeze is not judged", () => {
    const scenario = seedScenario();
    scenario.headText = edit(
      SEED_CONTRACT,
      '  - id: test_report_render_flaky\n    owner: "oncall-payments"\n    reason: "clock skew in renderer; tracked as PAY-4412"\n    expires: "2026-09-22T00:00:00Z"\n    remaining_reruns: 2\n',
      "",
    );
    const findings = checkAgentContract({
      path: CONTRACT,
      base: BASE,
      head: read(scenario.headText),
      headTree: treeOf(scenario.files),
      digests: new Map([[INVOICE, INVOICE_SHA]]),
      modules: analyses(scenario.tests, [PARSE, CODEC]),
      now: Date.parse("2027-01-01T00:00:00Z"),
    });
    assert.deepEqual(findings, []);
  });
});

Deno.test("checkAgentContract() judges head files by the base contract when the head contract is gone", async (t) => {
  await t.step("clean head files pass", () => {
    const scenario = seedScenario();
    scenario.headText = null;
    assert.deepEqual(judge(scenario), []);
  });
  await t.step("rewritten fixtures and vacuous tests are still caught", () => {
    const scenario = seedScenario();
    scenario.headText = null;
    scenario.bytes[INVOICE] = sha("b");
    scenario.tests[PARSE] = {
      test_empty_input_raises: {
        maxExamples: 40,
        vacuity: { reason: "constant", line: 12 },
      },
    };
    const findings = judge(scenario);
    assert.deepEqual(blockingRules(findings), [
      "fixture.digest_mismatch",
      "property.vacuous",
    ]);
    // No line points into a head contract file that is not there.
    for (const f of findings) {
      if (f.path === CONTRACT) assert.equal(f.line, undefined);
    }
  });
});

Deno.test("checkAgentContract() points findings at the head file's lines", () => {
  const scenario = seedScenario();
  scenario.headText = edit(
    SEED_CONTRACT,
    "remaining_reruns: 2",
    "remaining_reruns: 9",
  );
  delete scenario.files[CODEC];
  const findings = judge(scenario);
  assert.deepEqual(findings.map((f) => [f.rule, f.path, f.line]), [
    ["freeze.reruns_raised", CONTRACT, 22],
    ["property.module_missing", CONTRACT, 9],
  ]);
});

Deno.test("checkAgentContract() reports identical findings once", () => {
  const scenario = seedScenario();
  // The head registers the same test twice under two ids.
  scenario.headText = edit(
    SEED_CONTRACT,
    "fixtures:\n",
    "  - id: parse_rejects_empty_again\n    module: tests.properties.test_parse\n    name: test_empty_input_raises\n    min_examples: 40\nfixtures:\n",
  );
  scenario.tests[PARSE] = {
    test_empty_input_raises: {
      maxExamples: 40,
      vacuity: { reason: "constant", line: 12 },
    },
  };
  assert.deepEqual(blockingRules(judge(scenario)), ["property.vacuous"]);
});

Deno.test("agentContractReads() lists the files the shell must read", () => {
  const head = read(
    edit(
      edit(
        SEED_CONTRACT,
        "path: tests/fixtures/invoice_v3.json",
        "path: tests/fixtures/invoice_v4.json",
      ),
      "module: tests.properties.test_codec",
      "module: tests.properties.test_codec2",
    ),
  );
  const headTree = treeOf({
    [PARSE]: "file",
    [CODEC]: "file",
    "tests/properties/test_codec2/__init__.py": "file",
    [INVOICE]: "file",
    "tests/fixtures/invoice_v4.json": "file",
    "tests/fixtures/unrelated.json": "file",
  });
  const reads = agentContractReads(BASE, head, headTree, {
    baseTree: treeOf({ [PARSE]: "file", [CODEC]: "file", [INVOICE]: "file" }),
  });
  assert.deepEqual(reads, {
    modules: [
      CODEC,
      "tests/properties/test_codec2/__init__.py",
      PARSE,
    ],
    fixtures: [INVOICE, "tests/fixtures/invoice_v4.json"],
    baseModules: [CODEC, PARSE],
  });
});

Deno.test("agentContractReads() never asks to hash a symlink or an unsafe path", () => {
  const head = read(
    edit(
      SEED_CONTRACT,
      "path: tests/fixtures/invoice_v3.json",
      "path: tests/fixtures/../../etc/passwd",
    ),
  );
  const reads = agentContractReads(
    BASE,
    head,
    treeOf({ [INVOICE]: "symlink" }),
  );
  assert.deepEqual(reads.fixtures, []);
  assert.deepEqual(reads.baseModules, []);
});

Deno.test("checkAgentContract() reports a fixture the head re-hashed and deleted as missing once", () => {
  // The enforced contract holds the head entry and the base entry it
  // re-hashed, both at the same path: the missing file is one finding.
  const scenario = seedScenario();
  scenario.headText = edit(
    SEED_CONTRACT,
    `sha256: ${INVOICE_SHA}`,
    `sha256: ${sha("a")}`,
  );
  delete scenario.files[INVOICE];
  assert.deepEqual(
    judge(scenario).map((f) => [f.rule, f.line]),
    [["fixture.digest_changed", 15], ["fixture.missing", 14]],
  );
});

Deno.test("checkAgentContract() holds fixtures to the base's fixture roots", async (t) => {
  const DATA = "data/invoice_v3.json";
  const contract = read(
    edit(SEED_CONTRACT, `path: ${INVOICE}`, `path: ${DATA}`),
  );
  const scenario = seedScenario();
  const headTree = treeOf({ [PARSE]: "file", [CODEC]: "file", [DATA]: "file" });
  const rows: {
    name: string;
    roots: string[] | undefined;
    hashed: string[];
    rules: string[];
  }[] = [
    {
      name: "a fixture inside the configured roots is hashed and passes",
      roots: ["data"],
      hashed: [DATA],
      rules: [],
    },
    {
      name:
        "without configured roots the same fixture lies outside tests/fixtures",
      roots: undefined,
      hashed: [],
      rules: ["fixture.path_unsafe"],
    },
    {
      name: "a fixture outside the configured roots is refused",
      roots: ["tests/fixtures"],
      hashed: [],
      rules: ["fixture.path_unsafe"],
    },
  ];
  for (const row of rows) {
    await t.step(row.name, () => {
      const reads = agentContractReads(contract, contract, headTree, {
        fixtureRoots: row.roots,
      });
      assert.deepEqual(reads.fixtures, row.hashed);
      const findings = checkAgentContract({
        path: CONTRACT,
        base: contract,
        head: contract,
        headTree,
        digests: new Map(reads.fixtures.map((path) => [path, INVOICE_SHA])),
        modules: analyses(scenario.tests, reads.modules),
        now: NOW,
        fixtureRoots: row.roots,
      });
      assert.deepEqual(blockingRules(findings), row.rules);
    });
  }
});

Deno.test("agentContractReads() lists the files that may load a Hypothesis profile for the properties", () => {
  const headTree = treeOf({
    [PARSE]: "file",
    [CODEC]: "file",
    "conftest.py": "file",
    "tests/__init__.py": "file",
    "tests/properties/__init__.py": "file",
    "src/__init__.py": "file",
  });
  const reads = agentContractReads(BASE, null, headTree, {
    baseTree: headTree,
  });
  const expected = [
    "conftest.py",
    "tests/__init__.py",
    "tests/properties/__init__.py",
    CODEC,
    PARSE,
  ];
  assert.deepEqual(reads.modules, expected);
  assert.deepEqual(reads.baseModules, expected);
});
