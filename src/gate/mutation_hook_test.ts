/**
 * The gate's hook into the oracle-strength rule, over the gate's fakes:
 * on unless the base's `[mutation]` turns it off (then no verdict changes),
 * and when on, its findings and counts reach the verdict. The fake "pytest"
 * fails the codec property on a changed parser only in the base's copy of
 * its test module, as a weakened head test would let the bug through.
 */
import assert from "node:assert/strict";
import { parseNow } from "../core/parse_now.ts";
import { SILENT_PROGRESS } from "../core/progress.ts";
import { sampleBaseFiles } from "../demo/build_sample_repo.ts";
import { FakeGit } from "../git/fake_git.ts";
import { FakeSandbox } from "../sandbox/fake_sandbox.ts";
import type { SandboxCommand } from "../sandbox/sandbox.ts";
import { FakeWorkspace } from "./fake_workspace.ts";
import { writeFakePytestRun } from "./fake_pytest_run.ts";
import { judgePullRequest } from "./judge_pull_request.ts";
import {
  memoryMutationCache,
  type MutationCache,
} from "../mutation/mutation_cache.ts";

const PARSER = "payments/parser.py";
const CODEC_TEST = "tests/properties/test_codec.py";
const BASE = sampleBaseFiles();

const SUITE = [
  {
    classname: "tests.properties.test_parse",
    name: "test_empty_input_raises",
  },
  {
    classname: "tests.properties.test_codec",
    name: "test_decode_encode_identity",
  },
  { classname: "tests.test_invoices", name: "test_fixture_invoices_parse" },
  { classname: "tests.test_invoices", name: "test_report_render_flaky" },
];

/** A head whose codec test reads differently (a comment) but runs the same. */
const HEAD = {
  ...BASE,
  [CODEC_TEST]: `# Round trip.\n${BASE[CODEC_TEST]}`,
};

async function fakePytest(command: SandboxCommand) {
  // The warm driver cannot run here: it never connects, and its mutants
  // run one pytest each, as below.
  if (!command.argv.some((a) => a.startsWith("--junitxml="))) {
    return { code: 2 };
  }
  const selected = command.argv.filter((a) => a.includes("::"));
  const cases = selected.length === 0
    ? SUITE
    : SUITE.filter((c) => selected.some((s) => s.endsWith(`::${c.name}`)));
  const parser = await Deno.readTextFile(`${command.cwd}/${PARSER}`);
  const test = await Deno.readTextFile(`${command.cwd}/${CODEC_TEST}`);
  const broken = parser !== BASE[PARSER] && test === BASE[CODEC_TEST];
  return {
    code: await writeFakePytestRun(
      command,
      cases.map((c) =>
        broken && c.name === "test_decode_encode_identity"
          ? { ...c, failure: "AssertionError: round trip" }
          : c
      ),
    ),
  };
}

async function judge(
  pawlToml: string | undefined,
  cache?: MutationCache,
  headFiles: Record<string, string> = HEAD,
) {
  const base = pawlToml === undefined
    ? BASE
    : { ...BASE, "pawl.toml": pawlToml };
  const head = pawlToml === undefined
    ? headFiles
    : { ...headFiles, "pawl.toml": pawlToml };
  const git = new FakeGit({ commits: { main: base, "pr-head": head } });
  const sandbox = new FakeSandbox(fakePytest);
  let sandboxes = 0;
  let spares = 0;
  let workspace: FakeWorkspace | undefined;
  try {
    const judgement = await judgePullRequest({
      repo: "https://example.test/shop.git",
      base: "main",
      head: "pr-head",
      now: parseNow("2026-11-30T12:00:00Z"),
      allowFixtureRotate: false,
      isolation: "auto",
      runTests: true,
    }, {
      clone: () => Promise.resolve(git),
      sandbox: (request) => {
        if (request.spare === true) spares++;
        else sandboxes++;
        return Promise.resolve(sandbox);
      },
      workspace: async (name) => (workspace = await FakeWorkspace.open(name)),
      progress: SILENT_PROGRESS,
      ...(cache === undefined
        ? {}
        : { mutationCache: () => Promise.resolve(cache) }),
    });
    return { judgement, sandboxes, spares, made: workspace?.made ?? [] };
  } finally {
    await workspace?.remove();
  }
}

Deno.test("the mutation hook is on when the base's pawl.toml says nothing of it, with the default cap", async () => {
  const { judgement } = await judge(undefined);
  const m = judgement.verdict.tests?.mutation;
  assert.ok(m !== undefined, JSON.stringify(judgement.verdict.findings));
  assert.equal(m.selected, Math.min(m.generated, 50));
  assert.equal(m.ran, m.selected);
  assert.equal(m.cutByCap, m.generated - m.selected);
  assert.equal(m.cutByBudget, 0);
  assert.ok(
    judgement.verdict.findings.some((f) =>
      f.rule === "property.oracle_weakened"
    ),
  );
});

Deno.test("no mutant runs when no kill set can change the decision, and the verdict says why", async (t) => {
  const cases = [
    {
      name: "the test side is the base's (only code changed)",
      head: { ...BASE, [PARSER]: `${BASE[PARSER]}\n# A comment.\n` },
      why: /the head's test side is the base's/,
      // The code changed: the base's tests are checked across the change.
      blinding: true,
    },
    {
      name: "a rule that reads only the sources already rejects",
      head: {
        ...BASE,
        [CODEC_TEST]: BASE[CODEC_TEST]!.replace(
          "assert parse_invoice(obj.to_bytes()) == obj",
          "assert True",
        ),
      },
      why: /already rejects/,
      blinding: false,
    },
  ];
  for (const c of cases) {
    await t.step(c.name, async () => {
      const { judgement } = await judge(undefined, undefined, c.head);
      const m = judgement.verdict.tests?.mutation;
      assert.ok(m !== undefined, JSON.stringify(judgement.verdict.findings));
      assert.match(m.notRun ?? "", c.why);
      assert.equal(m.ran, 0);
      assert.equal(m.generated, 0);
      assert.equal(m.blinding !== undefined, c.blinding);
      assert.ok(
        !judgement.verdict.findings.some((f) =>
          f.rule.startsWith("property.mutants") ||
          f.rule === "property.oracle_weakened"
        ),
      );
    });
  }
});

Deno.test("the mutation hook is off when the base's [mutation] turns it off: the verdict has no trace of it", async () => {
  for (const toml of ["[mutation]\nenabled = false\n"]) {
    const { judgement, sandboxes, spares } = await judge(toml);
    assert.equal(judgement.verdict.decision, "accept");
    assert.equal(judgement.verdict.tests?.mutation, undefined);
    assert.equal("mutation" in (judgement.verdict.tests ?? {}), false);
    assert.equal(judgement.mutation, undefined);
    assert.ok(
      !judgement.verdict.findings.some((f) =>
        f.rule === "property.oracle_weakened" ||
        f.rule === "property.mutants_survived"
      ),
    );
    assert.equal(sandboxes, 1);
    // The test stage's two spares, asked for ahead, and no more.
    assert.equal(spares, 2);
  }
});

Deno.test("the mutation hook puts its weakenings and counts into the verdict when [mutation] is on", async () => {
  const toml = "[mutation]\nenabled = true\nmax_mutants = 8\n";
  const cache = memoryMutationCache();
  const { judgement, sandboxes, spares } = await judge(toml, cache);
  const { verdict } = judgement;
  const m = verdict.tests?.mutation;
  assert.ok(m !== undefined, JSON.stringify(verdict.findings));
  assert.equal(m.selected, 8);
  assert.equal(m.ran, 8);
  assert.equal(m.reach, "import analysis");
  assert.ok(m.cutByCap > 0);
  const weakened = verdict.findings.filter((f) =>
    f.rule === "property.oracle_weakened"
  );
  assert.equal(weakened.length, 1, JSON.stringify(verdict.findings));
  assert.match(weakened[0]?.message ?? "", /Property "roundtrip_stable"/);
  assert.equal(weakened[0]?.path, PARSER);
  assert.equal(verdict.decision, "reject");
  assert.equal(m.weakened, m.killed);
  assert.equal(judgement.mutation?.results.length, 8);
  // The fake sandbox has no uid of its own: no second sandbox is used, and
  // no spare asked for beyond the two the test stage asked for ahead.
  assert.equal(sandboxes, 1);
  assert.equal(spares, 2);
  assert.ok(!judgement.mutation?.results.some((r) => r.cached));

  // Judged again with the runner's cache: the same verdict, every mutant cached.
  const again = await judge(toml, cache);
  assert.deepEqual(again.judgement.verdict, verdict);
  assert.equal(
    again.judgement.mutation?.results.filter((r) => r.cached).length,
    8,
  );
});
