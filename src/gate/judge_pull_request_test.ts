import assert from "node:assert/strict";
import { parseNow } from "../core/parse_now.ts";
import { SILENT_PROGRESS } from "../core/progress.ts";
import { sampleBaseFiles } from "../demo/build_sample_repo.ts";
import type { CloneRepositoryOptions } from "../git/clone_repository.ts";
import { type FakeCommitFiles, FakeGit } from "../git/fake_git.ts";
import {
  FakeSandbox,
  type FakeSandboxHandler,
} from "../sandbox/fake_sandbox.ts";
import type { SandboxCommand } from "../sandbox/sandbox.ts";
import { FakeWorkspace } from "./fake_workspace.ts";
import {
  type FakeTestCase,
  streamFakeObservation,
  writeFakePytestRun,
} from "./fake_pytest_run.ts";
import type { GatePorts, SandboxRequest } from "./gate_ports.ts";
import type { JudgeOptions } from "./judge_options.ts";
import { judgePullRequest } from "./judge_pull_request.ts";
import { NoContractError } from "./no_contract_error.ts";

const NOW = parseNow("2026-11-30T12:00:00Z");

const PARSE = {
  classname: "tests.properties.test_parse",
  name: "test_empty_input_raises",
};
const CODEC = {
  classname: "tests.properties.test_codec",
  name: "test_decode_encode_identity",
};
const SUITE = [
  PARSE,
  CODEC,
  { classname: "tests.test_invoices", name: "test_fixture_invoices_parse" },
  { classname: "tests.test_invoices", name: "test_report_render_flaky" },
];

type Case = FakeTestCase;

/**
 * The sample project with mutation off: the fake "pytest" here answers
 * without running the code, so no mutant could be killed (mutation is
 * judged in mutation_hook_test.ts).
 */
function sample(): FakeCommitFiles {
  return {
    ...sampleBaseFiles(),
    "pawl.toml": "[mutation]\nenabled = false\n",
  };
}

/** Whether the command selects node ids (the properties on their own). */
function selects(command: SandboxCommand): boolean {
  return command.argv.some((a) => a.includes("::"));
}

/** Whether the command runs in a copy of the base tree (its README is the sample's). */
function atBase(command: SandboxCommand): boolean {
  return Deno.readTextFileSync(`${command.cwd}/README.md`) ===
    sample()["README.md"];
}

/** Answer each run with a report of `cases(command)`, written where pytest would. */
function reporting(
  cases: (command: SandboxCommand) => readonly Case[],
): FakeSandboxHandler {
  return async (command) => ({
    code: await writeFakePytestRun(command, cases(command)),
  });
}

interface Harness {
  ports: GatePorts;
  git: FakeGit;
  sandbox: FakeSandbox;
  workspace: () => FakeWorkspace;
  clones: { source: string; options: CloneRepositoryOptions }[];
  requests: SandboxRequest[];
}

function harness(
  head: FakeCommitFiles,
  handler: FakeSandboxHandler,
  base: FakeCommitFiles = sample(),
): Harness {
  const git = new FakeGit({ commits: { main: base, "pr-head": head } });
  const sandbox = new FakeSandbox(handler);
  const clones: Harness["clones"] = [];
  const requests: SandboxRequest[] = [];
  let opened: FakeWorkspace | undefined;
  return {
    git,
    sandbox,
    clones,
    requests,
    workspace: () => {
      if (opened === undefined) throw new Error("no workspace was opened");
      return opened;
    },
    ports: {
      clone: (source, options) => {
        clones.push({ source, options });
        return Promise.resolve(git);
      },
      sandbox: (request) => {
        requests.push(request);
        // One sandbox: no spare uid for runs beside the suite.
        return request.spare === true
          ? Promise.reject(new Error("no spare uid"))
          : Promise.resolve(sandbox);
      },
      workspace: async (name) => (opened = await FakeWorkspace.open(name)),
      progress: SILENT_PROGRESS,
    },
  };
}

function options(extra: Partial<JudgeOptions> = {}): JudgeOptions {
  return {
    repo: "https://example.test/shop.git",
    base: "main",
    head: "pr-head",
    now: NOW,
    allowFixtureRotate: false,
    isolation: "auto",
    runTests: true,
    hiddenPaths: ["/etc/pawl"],
    ...extra,
  };
}

const HONEST = {
  ...sample(),
  "README.md": "# invoices\n\nNow with a changelog.\n",
};

Deno.test("judgePullRequest() accepts an honest pull request after every stage ran", async () => {
  const h = harness(
    HONEST,
    reporting((c) => selects(c) ? [PARSE, CODEC] : SUITE),
  );
  const [base, head] = [
    await h.git.resolveCommit("main"),
    await h.git.resolveCommit("pr-head"),
  ];
  const { verdict, ledger } = await judgePullRequest(options(), h.ports);

  assert.equal(verdict.decision, "accept", JSON.stringify(verdict.findings));
  assert.deepEqual(verdict.findings, []);
  assert.equal(verdict.base, base);
  assert.equal(verdict.head, head);
  assert.deepEqual(verdict.contract.layouts, ["000"]);
  assert.deepEqual(verdict.isolation, { tier: "none", network: "inherited" });
  assert.deepEqual(verdict.tests?.properties, [
    { layout: "000", id: "parse_rejects_empty", outcome: "passed" },
    { layout: "000", id: "roundtrip_stable", outcome: "passed" },
  ]);
  assert.equal(verdict.tests?.summary.total, 4);
  assert.deepEqual(ledger.map((r) => [r.id, r.ok, r.kind]), [
    ["parse_rejects_empty", true, "fresh"],
    ["roundtrip_stable", true, "fresh"],
  ]);

  // Clone: both revisions, into the workspace.
  const workspace = h.workspace();
  assert.equal(h.clones.length, 1);
  assert.equal(h.clones[0]?.source, "https://example.test/shop.git");
  assert.deepEqual(h.clones[0]?.options.revisions, ["main", "pr-head"]);
  assert.equal(h.clones[0]?.options.dest, `${workspace.root}/repo.git`);
  assert.match(workspace.name, /^pawl-[0-9a-f]{16}$/);
  // Test stage: one sandbox, hiding the clone and the given paths; the
  // suite, then the properties on their own, each in a fresh export.
  const { signal, trials: _, ...first } = h.requests[0] ?? {};
  assert.deepEqual(first, {
    isolation: "auto",
    hiddenPaths: ["/etc/pawl", `${workspace.root}/repo.git`],
  });
  // Asked for ahead, and used: never given up.
  assert.equal(signal?.aborted, false);
  // One set of isolation trials for the three.
  assert.ok(first !== undefined && h.requests[0]?.trials !== undefined);
  assert.ok(h.requests.every((r) => r.trials === h.requests[0]?.trials));
  // Two spares were asked for too; none could be made.
  assert.deepEqual(h.requests.map((r) => r.spare === true), [
    false,
    true,
    true,
  ]);
  assert.equal(h.sandbox.commands.length, 2);
  assert.equal(selects(h.sandbox.commands[0] as SandboxCommand), false);
  assert.deepEqual(
    h.sandbox.commands[1]?.argv.filter((a) => a.includes("::")),
    [
      "tests/properties/test_codec.py::test_decode_encode_identity",
      "tests/properties/test_parse.py::test_empty_input_raises",
    ],
  );
  // Both copies are exported before the first run starts (in either order).
  assert.deepEqual([...workspace.made].sort(), ["reports", "work-1", "work-2"]);
  assert.deepEqual(
    h.sandbox.commands.map((c) => c.cwd),
    [`${workspace.root}/work-1`, `${workspace.root}/work-2`],
  );
  // Everything released.
  assert.equal(h.sandbox.closed, true);
  assert.equal(h.git.closed, true);
  assert.equal(workspace.removed, true);
});

Deno.test("judgePullRequest() rejects a property that passes in the suite but not on its own", async () => {
  const h = harness(
    HONEST,
    reporting((c) =>
      selects(c) && !atBase(c)
        ? [PARSE, { ...CODEC, failure: "Falsifying example" }]
        : selects(c)
        ? [PARSE, CODEC]
        : SUITE
    ),
  );
  const { verdict, ledger } = await judgePullRequest(options(), h.ports);
  assert.equal(verdict.decision, "reject");
  assert.deepEqual(verdict.findings.map((f) => f.rule), [
    "property.not_passed",
  ]);
  assert.match(
    verdict.findings[0]?.message ?? "",
    /^Property "roundtrip_stable" \(tests\/properties\/test_codec\.py::test_decode_encode_identity\) did not pass on seed \d+: it passed in the full run but it failed when the properties ran on their own/,
  );
  assert.deepEqual(ledger.map((r) => [r.id, r.ok]), [
    ["parse_rejects_empty", true],
    ["roundtrip_stable", false],
  ]);
});

Deno.test("judgePullRequest() holds a failing property against the pull request only when the base does not fail it the same way", async (t) => {
  const failing = (failure: string) => ({ ...CODEC, failure });
  const table = [
    {
      name: "the base fails it the same way: cannot decide",
      base: failing("assert 2 == 3"),
      undecided: true,
    },
    {
      name: "the base fails it another way: reject",
      base: failing("payments.parser.ParseError: bad amount"),
      undecided: false,
    },
    { name: "the base passes it: reject", base: CODEC, undecided: false },
  ];
  for (const row of table) {
    await t.step(row.name, async () => {
      const h = harness(
        HONEST,
        reporting((c) =>
          !selects(c)
            ? SUITE
            : atBase(c)
            ? [PARSE, row.base]
            : [PARSE, failing("assert 1 == 3")]
        ),
      );
      const judged = judgePullRequest(options(), h.ports);
      if (row.undecided) {
        await assert.rejects(
          judged,
          (e) =>
            e instanceof Error &&
            e.message.includes("already fails on this runner") &&
            e.message.includes("test_decode_encode_identity"),
        );
        return;
      }
      const { verdict } = await judged;
      assert.equal(verdict.decision, "reject");
      assert.deepEqual(verdict.findings.map((f) => f.rule), [
        "property.not_passed",
      ]);
    });
  }
});

Deno.test("judgePullRequest() with runTests false judges statically and never asks for a sandbox", async () => {
  const head = { ...sample() } as Record<string, string>;
  delete head["tests/properties/test_codec.py"];
  const h = harness(head, () => {
    throw new Error("nothing may run");
  });
  const { verdict, ledger } = await judgePullRequest(
    options({ runTests: false }),
    h.ports,
  );
  assert.equal(verdict.decision, "reject");
  assert.ok(
    verdict.findings.some((f) => f.rule === "property.module_missing"),
    JSON.stringify(verdict.findings),
  );
  assert.equal(verdict.tests, null);
  assert.equal(verdict.isolation, null);
  assert.deepEqual(ledger, []);
  assert.deepEqual(h.requests, []);
  assert.deepEqual(h.workspace().made, []);
  assert.equal(h.workspace().removed, true);
});

Deno.test("judgePullRequest() cannot decide without a contract at base, and cleans up", async () => {
  const h = harness(HONEST, () => ({}), { "README.md": "# nothing\n" });
  await assert.rejects(
    judgePullRequest(options(), h.ports),
    (error) =>
      error instanceof NoContractError &&
      /^Cannot decide: the base commit [0-9a-f]{12} has no contract/.test(
        error.message,
      ),
  );
  // The sandboxes asked for ahead are given up unused and closed.
  assert.ok(h.requests.length > 0);
  assert.ok(h.requests.every((r) => r.signal?.aborted === true));
  assert.equal(h.sandbox.commands.length, 0);
  assert.equal(h.sandbox.closed, true);
  assert.equal(h.git.closed, true);
  assert.equal(h.workspace().removed, true);
});

Deno.test("judgePullRequest() closes the sandbox when a test run throws", async () => {
  const h = harness(HONEST, () => {
    throw new Error("the sandbox broke");
  });
  await assert.rejects(
    judgePullRequest(options(), h.ports),
    /the sandbox broke/,
  );
  assert.equal(h.sandbox.closed, true);
  assert.equal(h.git.closed, true);
  assert.equal(h.workspace().removed, true);
});

Deno.test("judgePullRequest() exports the next run's copy during a run, but hands it to the sandbox only when that run starts", async () => {
  const seen: { made: string[]; prepared: string[] }[] = [];
  const answer = reporting((c) => selects(c) ? [PARSE, CODEC] : SUITE);
  const h: Harness = harness(HONEST, async (command) => {
    // Long enough for the copy made ahead to be exported meanwhile.
    await new Promise((resolve) => setTimeout(resolve, 100));
    seen.push({
      made: [...h.workspace().made],
      prepared: h.sandbox.preparedDirs.map((d) =>
        d.slice(d.lastIndexOf("/") + 1)
      ),
    });
    return await answer(command);
  });
  const { verdict } = await judgePullRequest(options(), h.ports);
  assert.equal(verdict.decision, "accept", JSON.stringify(verdict.findings));
  assert.equal(seen.length, 2);
  assert.deepEqual([...seen[0]?.made ?? []].sort(), [
    "reports",
    "work-1",
    "work-2",
  ]);
  const works = (dirs: string[] | undefined) =>
    dirs?.filter((d) => d.startsWith("work-"));
  assert.deepEqual(works(seen[0]?.prepared), ["work-1"]);
  assert.deepEqual(works(seen[1]?.prepared), ["work-1", "work-2"]);
  assert.equal(h.workspace().removed, true);
});

Deno.test("judgePullRequest() runs the properties and the base's oracle beside the suite in spare sandboxes, to the same verdict byte for byte", async () => {
  const base = sample();
  const head = {
    ...base,
    "tests/properties/test_codec.py": `${
      base["tests/properties/test_codec.py"]
    }\n# a comment the pull request added\n`,
  };
  const answer = reporting((c) => selects(c) ? [PARSE, CODEC] : SUITE);
  const isolation = (uid: number) => ({
    isolation: {
      tier: "uid" as const,
      network: "inherited" as const,
      uid,
      notes: [],
    },
  });
  /** Judge with `spares` spare uids free (a repeated uid is one in use). */
  const judge = async (spares: readonly number[]) => {
    const git = new FakeGit({ commits: { main: base, "pr-head": head } });
    // With a spare, the suite ends only once a property run has started
    // in a spare sandbox: the two overlap, or the judgement never ends.
    let started = () => {};
    const propertiesStarted = new Promise<void>((resolve) => {
      started = resolve;
    });
    const first = new FakeSandbox(async (command) => {
      if (!selects(command) && spares.length > 0) await propertiesStarted;
      return await answer(command);
    }, isolation(64481));
    const made: FakeSandbox[] = [];
    const requests: SandboxRequest[] = [];
    let opened: FakeWorkspace | undefined;
    const { verdict, ledger } = await judgePullRequest(options(), {
      clone: () => Promise.resolve(git),
      sandbox: (request) => {
        requests.push(request);
        if (request.spare !== true) return Promise.resolve(first);
        const uid = spares[made.length];
        if (uid === undefined) return Promise.reject(new Error("no uid"));
        const spare = new FakeSandbox((command) => {
          started();
          return answer(command);
        }, isolation(uid));
        made.push(spare);
        return Promise.resolve(spare);
      },
      workspace: async (name) => (opened = await FakeWorkspace.open(name)),
      progress: SILENT_PROGRESS,
    });
    return { verdict, ledger, first, made, requests, workspace: opened };
  };
  const sequential = await judge([]);
  const one = await judge([64482]);
  const two = await judge([64482, 64483]);
  const busy = await judge([64482, 64482]);
  assert.equal(sequential.verdict.decision, "accept");
  const cwd = (s: FakeSandbox) =>
    s.commands.map((c) => c.cwd.slice(c.cwd.lastIndexOf("/") + 1));
  // One after another: the suite, the properties, the oracle, each in the
  // copy the plan named, all in the first sandbox.
  assert.deepEqual(cwd(sequential.first), ["work-1", "work-2", "work-3"]);
  // One spare: the suite in the first; the properties and then the oracle
  // in the spare, from a report directory of its own.
  assert.deepEqual(cwd(one.first), ["work-1"]);
  assert.deepEqual(one.made.map(cwd), [["work-2", "work-3"]]);
  assert.ok(one.workspace?.made.includes("reports-alone"));
  assert.deepEqual(one.requests.map((r) => r.spare === true), [
    false,
    true,
    true,
  ]);
  // Each copy is handed to the sandbox whose uid runs in it.
  const works = (s: FakeSandbox | undefined) =>
    s?.preparedDirs.map((d) => d.slice(d.lastIndexOf("/") + 1))
      .filter((d) => d.startsWith("work-"));
  assert.deepEqual(works(one.first), ["work-1"]);
  assert.deepEqual(works(one.made[0]), ["work-2", "work-3"]);
  // Two spares: the oracle in a third sandbox of its own.
  assert.deepEqual(cwd(two.first), ["work-1"]);
  assert.deepEqual(two.made.map(cwd), [["work-2"], ["work-3"]]);
  assert.deepEqual(two.made.map(works), [["work-2"], ["work-3"]]);
  const writable = (c: SandboxCommand | undefined) => c?.writable.join(" ");
  assert.notEqual(
    writable(two.made[0]?.commands[0]),
    writable(two.first.commands[0]),
  );
  assert.notEqual(
    writable(two.made[1]?.commands[0]),
    writable(two.made[0]?.commands[0]),
  );
  // A spare whose uid another sandbox of this judgement holds is not used.
  assert.deepEqual(busy.made.map(cwd), [["work-2", "work-3"], []]);
  // The runs beside the suite yield it the cores; one after another, none
  // is lowered.
  const priorities = (s: FakeSandbox | undefined) =>
    s?.commands.map((c) => c.priority ?? "normal");
  assert.deepEqual(priorities(sequential.first), [
    "normal",
    "normal",
    "normal",
  ]);
  for (const run of [one, two, busy]) {
    assert.deepEqual(priorities(run.first), ["normal"]);
    assert.ok(
      run.made.flatMap((s) => priorities(s) ?? []).every((p) =>
        p === "background"
      ),
    );
  }
  assert.deepEqual(two.made.map(priorities), [["background"], ["background"]]);
  for (const run of [one, two, busy]) {
    assert.ok(run.made.every((s) => s.closed));
    assert.equal(
      JSON.stringify(run.verdict),
      JSON.stringify(sequential.verdict),
    );
    assert.equal(JSON.stringify(run.ledger), JSON.stringify(sequential.ledger));
  }
});

Deno.test("judgePullRequest() gives the same verdict when the suite does not report and the properties ran beside it", async () => {
  const judge = async (withSpare: boolean) => {
    const git = new FakeGit({
      commits: { main: sample(), "pr-head": HONEST },
    });
    const isolation = (uid: number) => ({
      isolation: {
        tier: "uid" as const,
        network: "inherited" as const,
        uid,
        notes: [],
      },
    });
    // The suite loads pawl's observer but writes no report at the head;
    // the properties alone would pass, and the base reports.
    const handler = async (command: SandboxCommand) =>
      selects(command)
        ? await reporting(() => [PARSE, CODEC])(command)
        : atBase(command)
        ? await reporting(() => SUITE)(command)
        : (await streamFakeObservation(command, []), { code: 2 });
    const first = new FakeSandbox(handler, isolation(64484));
    const spare = new FakeSandbox(handler, isolation(64485));
    const { verdict } = await judgePullRequest(options(), {
      clone: () => Promise.resolve(git),
      sandbox: (request) =>
        request.spare !== true
          ? Promise.resolve(first)
          : withSpare
          ? Promise.resolve(spare)
          : Promise.reject(new Error("no uid")),
      workspace: (name) => FakeWorkspace.open(name),
      progress: SILENT_PROGRESS,
    });
    return { verdict, first, spare };
  };
  const sequential = await judge(false);
  const overlapped = await judge(true);
  // The suite, then the suite again at the base.
  assert.equal(sequential.first.commands.length, 2);
  assert.equal(overlapped.spare.commands.length, 1);
  assert.ok(overlapped.spare.closed);
  assert.notEqual(sequential.verdict.decision, "accept");
  assert.equal(
    JSON.stringify(overlapped.verdict),
    JSON.stringify(sequential.verdict),
  );
});

Deno.test("judgePullRequest() asks the base's tree whether pawl's observer loads when the suite never reached it", async (t) => {
  // The suite stops before pawl's observer connects; `--version` is the
  // same command on the base's tree, stopped once pytest loaded plugins.
  const judge = (loadsAtBase: boolean) => {
    const h = harness(HONEST, async (command) => {
      if (!command.argv.includes("--version")) return { code: 1 };
      if (loadsAtBase) await streamFakeObservation(command, []);
      return { code: loadsAtBase ? 0 : 1 };
    });
    return { h, judged: judgePullRequest(options(), h.ports) };
  };
  await t.step(
    "it does not load there either: the base's problem, could not decide",
    async () => {
      const { h, judged } = judge(false);
      await assert.rejects(
        judged,
        (error: Error) =>
          error.name === "ObserverNotLoadedError" &&
          error.message.includes("[environment] pythonpath"),
      );
      const probe = h.sandbox.commands.at(-1);
      assert.ok(probe?.argv.includes("--version"));
      assert.match(probe?.cwd ?? "", /work-\d+$/);
    },
  );
  await t.step(
    "it loads there: the pull request kept it out, a reject",
    async () => {
      const { verdict } = await judge(true).judged;
      assert.equal(verdict.decision, "reject");
      const rules = new Set(
        verdict.findings.filter((f) => f.blocking).map((f) => f.rule),
      );
      assert.deepEqual([...rules].sort(), [
        "harness.observer_missing",
        "property.not_passed",
        "tests.no_report",
      ]);
    },
  );
});

Deno.test("judgePullRequest() asks for the test sandboxes before the clone, and gives them up when a stage before the tests fails", async (t) => {
  await t.step("asked for before the clone is made", async () => {
    const events: string[] = [];
    const h = harness(
      HONEST,
      reporting((c) => selects(c) ? [PARSE, CODEC] : SUITE),
    );
    const { verdict } = await judgePullRequest(options(), {
      ...h.ports,
      progress: { ...SILENT_PROGRESS, step: (label) => events.push(label) },
      sandbox: (request) => {
        events.push(request.spare === true ? "spare" : "sandbox");
        return h.ports.sandbox(request);
      },
    });
    assert.equal(verdict.decision, "accept");
    assert.deepEqual(events.slice(0, 4), [
      "sandbox",
      "spare",
      "spare",
      "cloning https://example.test/shop.git",
    ]);
  });

  /** A clone whose fixtures cannot be hashed: the static stage fails. */
  class UnhashableGit extends FakeGit {
    override sha256Blobs(): Promise<Map<string, string>> {
      return Promise.reject(new Error("cannot hash the fixtures"));
    }
  }
  const failing = (sandbox: GatePorts["sandbox"]): GatePorts => ({
    clone: () =>
      Promise.resolve(
        new UnhashableGit({
          commits: { main: sample(), "pr-head": HONEST },
        }),
      ),
    sandbox,
    workspace: (name) => FakeWorkspace.open(name),
    progress: SILENT_PROGRESS,
  });

  await t.step("a sandbox still waiting for a uid stops waiting", async () => {
    const requests: SandboxRequest[] = [];
    await assert.rejects(
      judgePullRequest(
        options(),
        failing((request) => {
          requests.push(request);
          // Waits for a uid until the judgement gives it up.
          return new Promise((_, reject) => {
            request.signal?.addEventListener(
              "abort",
              () => reject(new Error("given up")),
            );
          });
        }),
      ),
      /cannot hash the fixtures/,
    );
    assert.equal(requests.length, 3);
    assert.ok(requests.every((r) => r.signal?.aborted === true));
  });

  await t.step("sandboxes already made are closed", async () => {
    const made: FakeSandbox[] = [];
    await assert.rejects(
      judgePullRequest(
        options(),
        failing(() => {
          const sandbox = new FakeSandbox(() => ({ code: 0 }), {
            isolation: {
              tier: "uid",
              network: "inherited",
              uid: 64481 + made.length,
              notes: [],
            },
          });
          made.push(sandbox);
          return Promise.resolve(sandbox);
        }),
      ),
      /cannot hash the fixtures/,
    );
    assert.equal(made.length, 3);
    assert.ok(made.every((s) => s.closed && s.commands.length === 0));
    // The copies exported ahead were never handed to a sandbox uid.
    assert.ok(made.every((s) => s.preparedDirs.length === 0));
  });
});
