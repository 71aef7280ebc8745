/**
 * Every recipe in docs/ci.md and docs/github-actions.md, copied from the
 * files: the YAML parses, the
 * workflows use only the action's declared inputs and outputs with the
 * documented permissions, and the command line each recipe builds runs
 * against a sample repository — through the action's entry script and the
 * fake GitHub for the workflows, and through `bash` with stand-ins for
 * `docker` (tests/_fake_docker.ts) and `buildkite-agent` for the others.
 */
import assert from "node:assert/strict";
import { parse as parseYaml, parseAllDocuments } from "yaml";
import { SAMPLE_PATCHES } from "../src/demo/_sample_files.ts";
import { E2E_SANDBOX_UIDS, NOW, ROOT } from "./_cli.ts";
import { makeBareRemote, startFakeGitHub } from "./_fake_github.ts";
import { buildRepo, git, type TestRepo } from "./_repo.ts";

// deno-lint-ignore no-explicit-any
type Json = any;

const DOCS = ["docs/ci.md", "docs/github-actions.md"];
const DOC = (await Promise.all(
  DOCS.map((path) => Deno.readTextFile(`${ROOT}/${path}`)),
)).join("\n");
const ACTION = parseYaml(await Deno.readTextFile(`${ROOT}/action.yml`));
const TOKEN = "ghs_pawlCiDocsToken0123456789abcdefABCDE";

/** The fenced block after `<!-- snippet: NAME -->`. */
function snippet(name: string): string {
  const marker = `<!-- snippet: ${name} -->`;
  const at = DOC.indexOf(marker);
  assert.ok(at >= 0, `${DOCS.join(" and ")} have no snippet "${name}"`);
  const open = /```[a-z]*\n/.exec(DOC.slice(at));
  assert.ok(open !== null);
  const start = at + open.index + open[0].length;
  const end = DOC.indexOf("\n```", start);
  return DOC.slice(start, end + 1);
}

const HONEST = SAMPLE_PATCHES.find((p) => p.branch === "agent/honest-fix")!;

interface World {
  repo: TestRepo;
  base: string;
  head: string;
  dir: string;
  bin: string;
  checkout: string;
}

/** The sample repository, a CI-style clone of it at the head, and the stand-ins. */
async function world(): Promise<World> {
  const repo = await buildRepo({ heads: { "pr/honest": HONEST.files } });
  const base = await repo.commit("main");
  const head = await repo.commit("pr/honest");
  const dir = await Deno.makeTempDir({ prefix: "pawl-e2e-ci-docs-" });
  const bin = `${dir}/bin`;
  await Deno.mkdir(bin);
  const deno = Deno.execPath();
  const shims: Record<string, string> = {
    pawl: `exec "${deno}" run --allow-all "${ROOT}/main.ts" "$@"`,
    docker:
      `exec "${deno}" run --allow-all "${ROOT}/tests/_fake_docker.ts" "$@"`,
    "buildkite-agent":
      `[ "$1 $2 $3" = "meta-data get pawl-now" ] && echo "$PAWL_TEST_META_NOW" && exit 0\nexit 1`,
  };
  for (const [name, body] of Object.entries(shims)) {
    await Deno.writeTextFile(`${bin}/${name}`, `#!/bin/sh\n${body}\n`);
    await Deno.chmod(`${bin}/${name}`, 0o755);
  }
  const checkout = `${dir}/checkout`;
  await git(dir, ["clone", "-q", repo.dir, checkout]);
  await git(checkout, ["checkout", "-q", "--detach", head]);
  return { repo, base, head, dir, bin, checkout };
}

interface ScriptRun {
  code: number;
  output: string;
}

async function bash(
  w: World,
  script: string,
  env: Record<string, string>,
): Promise<ScriptRun> {
  const out = await new Deno.Command("bash", {
    args: ["-e", "-o", "pipefail", "-c", script],
    cwd: w.checkout,
    clearEnv: true,
    env: {
      PATH: `${w.bin}:/usr/local/bin:/usr/bin:/bin`,
      HOME: Deno.env.get("HOME") ?? "/root",
      // Each pawl run leases its own sandbox uid from the end-to-end range.
      PAWL_SANDBOX_UIDS: E2E_SANDBOX_UIDS,
      ...env,
    },
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  const decoder = new TextDecoder();
  return {
    code: out.code,
    output: decoder.decode(out.stdout) + decoder.decode(out.stderr),
  };
}

async function verdictAt(path: string): Promise<Json> {
  return JSON.parse(await Deno.readTextFile(path));
}

Deno.test("docs/ci.md: the GitLab job runs as written", async () => {
  const w = await world();
  await using _repo = w.repo;
  try {
    const job = parseYaml(snippet("gitlab")).pawl;
    assert.deepEqual(job.image.entrypoint, [""]);
    assert.equal(
      job.rules[0].if,
      '$CI_PIPELINE_SOURCE == "merge_request_event"',
    );
    assert.equal(job.artifacts.reports.junit, "pawl-out/junit.xml");
    const r = await bash(w, (job.script as string[]).join("\n"), {
      CI_PROJECT_DIR: w.checkout,
      CI_MERGE_REQUEST_DIFF_BASE_SHA: w.base,
      CI_COMMIT_SHA: w.head,
      CI_PIPELINE_CREATED_AT: NOW,
    });
    assert.equal(r.code, 0, r.output);
    const verdict = await verdictAt(`${w.checkout}/pawl-out/verdict.json`);
    assert.equal(verdict.decision, "accept");
    assert.equal(verdict.now, NOW);
    assert.equal(verdict.head, w.head);
    assert.equal(
      job.artifacts.reports.codequality,
      "pawl-out/codequality.json",
    );
    for (const file of ["junit.xml", "pawl.md", "pawl.sarif"]) {
      await Deno.stat(`${w.checkout}/pawl-out/${file}`);
    }
    // An accept has no blocker; its advisory findings are "info" issues.
    const quality = JSON.parse(
      await Deno.readTextFile(`${w.checkout}/pawl-out/codequality.json`),
    );
    assert.equal(quality.length, verdict.findings.length);
    assert.ok(quality.every((i: Json) => i.severity === "info"));
  } finally {
    await Deno.remove(w.dir, { recursive: true });
  }
});

interface ComponentInput {
  description?: string;
  default?: string;
  options?: string[];
  regex?: string;
}

const COMPONENT_TEXT = await Deno.readTextFile(`${ROOT}/templates/pawl.yml`);
const INTERPOLATION = /\$\[\[\s*inputs\.([a-z_]+)\s*\]\]/g;

/** The component's `spec:inputs` and its job text, as GitLab splits them. */
function component(): { inputs: Record<string, ComponentInput>; body: string } {
  const docs = parseAllDocuments(COMPONENT_TEXT);
  assert.equal(docs.length, 2, "a header and the job, split by ---");
  const header = docs[0]!.toJS();
  assert.deepEqual(Object.keys(header), ["spec"]);
  const body = COMPONENT_TEXT.slice(COMPONENT_TEXT.indexOf("\n---\n") + 5);
  return { inputs: header.spec.inputs, body };
}

/** The job text with each input replaced as GitLab does, checked against its spec. */
function interpolate(
  inputs: Record<string, ComponentInput>,
  body: string,
  given: Record<string, string>,
): string {
  for (const name of Object.keys(given)) {
    assert.ok(name in inputs, `no input "${name}"`);
  }
  return body.replace(INTERPOLATION, (_, name: string) => {
    const spec = inputs[name];
    assert.ok(spec !== undefined, `the job uses an undeclared input "${name}"`);
    const value = given[name] ?? spec.default;
    assert.ok(value !== undefined, `input "${name}" is required`);
    if (spec.options !== undefined) {
      assert.ok(spec.options.includes(value), `"${value}" for ${name}`);
    }
    if (spec.regex !== undefined) {
      assert.match(value, new RegExp(spec.regex), name);
    }
    return value;
  });
}

Deno.test("templates/pawl.yml: the GitLab component declares what it uses, and runs as docs/ci.md includes it", async (t) => {
  const { inputs, body } = component();
  const used = new Set([...body.matchAll(INTERPOLATION)].map((m) => m[1]!));
  assert.deepEqual([...used].sort(), Object.keys(inputs).sort());
  for (const [name, spec] of Object.entries(inputs)) {
    assert.ok(spec.description, `input "${name}" has no description`);
  }
  const include = parseYaml(snippet("gitlab-component")).include[0];
  assert.match(include.component, /\/pawl@[0-9.]+$/);
  assert.match(
    include.inputs.image,
    /^[a-z0-9.\/-]+@sha256:[0-9a-f]{64}$/,
    "the documented image is pinned by digest",
  );
  const documented = await Deno.readTextFile(`${ROOT}/docs/ci.md`);
  for (const name of Object.keys(inputs)) {
    assert.ok(documented.includes(`\`${name}\``), `docs/ci.md omits "${name}"`);
  }
  await t.step("a value outside an input's spec is refused", () => {
    assert.throws(() =>
      interpolate(inputs, body, { ...include.inputs, out_dir: "a; rm -rf /" })
    );
    assert.throws(() =>
      interpolate(inputs, body, { ...include.inputs, command: "audit" })
    );
    assert.throws(() => interpolate(inputs, body, {}));
  });

  const w = await world();
  await using _repo = w.repo;
  try {
    const cases = [
      { name: "as documented", given: include.inputs, dir: "pawl-out" },
      {
        name: "diff into another directory",
        given: { ...include.inputs, command: "diff", out_dir: "reports" },
        dir: "reports",
      },
    ];
    for (const c of cases) {
      await t.step(c.name, async () => {
        const job = parseYaml(interpolate(inputs, body, c.given)).pawl;
        assert.deepEqual(job.image, {
          name: include.inputs.image,
          entrypoint: [""],
        });
        assert.equal(
          job.rules[0].if,
          '$CI_PIPELINE_SOURCE == "merge_request_event"',
        );
        assert.equal(job.artifacts.when, "always");
        assert.deepEqual(job.artifacts.reports, {
          junit: `${c.dir}/junit.xml`,
          codequality: `${c.dir}/codequality.json`,
        });
        const r = await bash(w, (job.script as string[]).join("\n"), {
          CI_PROJECT_DIR: w.checkout,
          CI_MERGE_REQUEST_DIFF_BASE_SHA: w.base,
          CI_COMMIT_SHA: w.head,
          CI_PIPELINE_CREATED_AT: NOW,
        });
        assert.equal(r.code, 0, r.output);
        const verdict = await verdictAt(`${w.checkout}/${c.dir}/verdict.json`);
        assert.equal(verdict.decision, "accept");
        assert.equal(verdict.now, NOW);
        assert.equal(verdict.tests === null, c.given.command === "diff");
        const quality = JSON.parse(
          await Deno.readTextFile(`${w.checkout}/${c.dir}/codequality.json`),
        );
        assert.equal(quality.length, verdict.findings.length);
        assert.ok(quality.every((i: Json) => i.severity === "info"));
        for (const file of ["junit.xml", "pawl.md", "pawl.sarif"]) {
          await Deno.stat(`${w.checkout}/${c.dir}/${file}`);
        }
      });
    }
  } finally {
    await Deno.remove(w.dir, { recursive: true });
  }
});

Deno.test("docs/ci.md: the Jenkins and Buildkite docker run recipes run as written", async (t) => {
  const w = await world();
  await using _repo = w.repo;
  try {
    await t.step("Jenkins", async () => {
      const text = snippet("jenkins");
      const sh = /sh '''\n([\s\S]*?)'''/.exec(text);
      assert.ok(sh !== null, "the Jenkinsfile has an sh ''' block");
      assert.match(text, /currentBuild\.startTimeInMillis/);
      const r = await bash(w, sh[1]!, {
        WORKSPACE: w.checkout,
        CHANGE_TARGET: "main",
        GIT_COMMIT: w.head,
        PAWL_NOW: NOW,
      });
      assert.equal(r.code, 0, r.output);
      const verdict = await verdictAt(`${w.checkout}/pawl-out/verdict.json`);
      assert.equal(verdict.decision, "accept");
      assert.equal(verdict.base, w.base);
      await Deno.stat(`${w.checkout}/pawl-out/junit.xml`);
      await Deno.remove(`${w.checkout}/pawl-out`, { recursive: true });
    });
    await t.step("Buildkite", async () => {
      const pipeline = parseYaml(snippet("buildkite"));
      const step = pipeline.steps[0];
      assert.equal(step.if, "build.pull_request.id != null");
      assert.equal(step.artifact_paths, "pawl-out/*");
      const r = await bash(w, step.command, {
        BUILDKITE_PULL_REQUEST_BASE_BRANCH: "main",
        BUILDKITE_COMMIT: w.head,
        PAWL_TEST_META_NOW: NOW,
      });
      assert.equal(r.code, 0, r.output);
      const verdict = await verdictAt(`${w.checkout}/pawl-out/verdict.json`);
      assert.equal(verdict.decision, "accept");
      assert.equal(verdict.now, NOW);
    });
  } finally {
    await Deno.remove(w.dir, { recursive: true });
  }
});

Deno.test("docs/github-actions.md: the workflows use the action as declared, and run", async (t) => {
  const w = await world();
  await using _repo = w.repo;
  await using remote = await makeBareRemote(w.repo.dir, { 7: "pr/honest" });
  await using gh = startFakeGitHub({ token: TOKEN });
  gh.addRepository("o/r", { gitDir: remote.gitDir, cloneVia: "file" });
  gh.addPullRequest("o/r", {
    number: 7,
    baseSha: w.base,
    headSha: w.head,
    updatedAt: "2026-11-30T10:30:00Z",
  });
  const event = `${w.dir}/event.json`;
  await Deno.writeTextFile(
    event,
    JSON.stringify({
      action: "synchronize",
      number: 7,
      "pull_request": gh.pullRequestJson("o/r", 7),
      repository: { "full_name": "o/r" },
    }),
  );
  const github = {
    GITHUB_EVENT_PATH: event,
    GITHUB_EVENT_NAME: "pull_request",
    GITHUB_REPOSITORY: "o/r",
    GITHUB_API_URL: gh.url,
    GITHUB_TOKEN: TOKEN,
    GITHUB_STEP_SUMMARY: `${w.dir}/summary.md`,
    PAWL_GITHUB_RETRY_BASE_MS: "5",
  };
  const inputs = Object.keys(ACTION.inputs);
  const outputs = Object.keys(ACTION.outputs);

  /** Run the action's entry script with a step's `with:` as the runner would. */
  const runAction = async (
    step: Json,
    eventName: string,
    eventPath = event,
  ) => {
    const env: Record<string, string> = {
      ...github,
      GITHUB_ACTIONS: "true",
      GITHUB_EVENT_PATH: eventPath,
      GITHUB_EVENT_NAME: eventName,
      GITHUB_WORKSPACE: w.checkout,
      GITHUB_OUTPUT: `${w.dir}/output`,
    };
    for (const [name, spec] of Object.entries(ACTION.inputs as Json)) {
      const given = step.with?.[name];
      const value = given ?? (spec as Json).default ?? "";
      env[`INPUT_${name.toUpperCase()}`] = String(value).includes("${{")
        ? TOKEN
        : String(value);
    }
    await Deno.writeTextFile(`${w.dir}/output`, "");
    const r = await bash(
      w,
      `exec "${Deno.execPath()}" run --allow-all "${ROOT}/tools/action_entrypoint.ts"`,
      env,
    );
    const written = await Deno.readTextFile(`${w.dir}/output`);
    return { ...r, written };
  };

  try {
    await t.step(
      "pull_request: check, SARIF upload, the permissions",
      async () => {
        const workflow = parseYaml(snippet("github-pull-request"));
        assert.deepEqual(Object.keys(workflow.on), ["pull_request"]);
        assert.deepEqual(workflow.permissions, {
          contents: "read",
          checks: "write",
          statuses: "write",
          "pull-requests": "write",
          "security-events": "write",
        });
        const job = workflow.jobs.gate;
        assert.equal(job.name, "pawl-gate");
        assert.equal(job["continue-on-error"], undefined);
        assert.equal(job.if, undefined);
        const step = job.steps.find((s: Json) => s.id === "pawl");
        for (const key of Object.keys(step.with)) {
          assert.ok(inputs.includes(key));
        }
        const used = [
          ...JSON.stringify(job).matchAll(/steps\.pawl\.outputs\.([\w-]+)/g),
        ].map((m) => m[1]!);
        for (const name of used) assert.ok(outputs.includes(name), name);
        const upload = job.steps.find((s: Json) =>
          String(s.uses).startsWith("github/codeql-action/upload-sarif@")
        );
        assert.equal(upload.with.sarif_file, "${{ steps.pawl.outputs.sarif }}");
        assert.match(upload.if, /always\(\)/);

        const r = await runAction(step, "pull_request");
        assert.equal(r.code, 0, r.output);
        assert.match(r.written, /^decision=accept$/m);
        assert.match(r.written, /^sarif=pawl-out\/pawl\.sarif$/m);
        assert.match(
          r.written,
          /^mutation-report=pawl-out\/mutation-report\.json$/m,
        );
        const mutants = JSON.parse(
          await Deno.readTextFile(
            `${w.checkout}/pawl-out/mutation-report.json`,
          ),
        );
        assert.equal(mutants.schemaVersion, "2");
        const verdict = await verdictAt(`${w.checkout}/pawl-out/verdict.json`);
        assert.equal(verdict.clock.source, "event");
        assert.notEqual(verdict.tests, null);
        // Published to the pull request: no annotations besides.
        assert.doesNotMatch(r.output, /^::(error|warning) /m);
      },
    );

    await t.step(
      "pull_request from a fork: every finding is also an annotation",
      async () => {
        const workflow = parseYaml(snippet("github-pull-request"));
        const step = workflow.jobs.gate.steps.find((s: Json) =>
          s.id === "pawl"
        );
        const payload = JSON.parse(await Deno.readTextFile(event));
        payload.pull_request.head.repo = {
          ...payload.pull_request.head.repo,
          "full_name": "fork/r",
          fork: true,
        };
        const forkEvent = `${w.dir}/fork-event.json`;
        await Deno.writeTextFile(forkEvent, JSON.stringify(payload));
        const r = await runAction(step, "pull_request", forkEvent);
        assert.equal(r.code, 0, r.output);
        const verdict = await verdictAt(`${w.checkout}/pawl-out/verdict.json`);
        assert.ok(verdict.findings.length > 0, "the sample has a note");
        for (const f of verdict.findings) {
          assert.match(
            r.output,
            new RegExp(
              `^::${f.blocking ? "error" : "warning"} file=${f.path},line=${
                f.line ?? "\\d+"
              },title=${f.rule.replaceAll(".", "\\.")}::`,
              "m",
            ),
          );
        }
      },
    );

    await t.step(
      "pull_request_target: diff only, no checkout of the pull request",
      async () => {
        const workflow = parseYaml(snippet("github-pull-request-target"));
        assert.deepEqual(Object.keys(workflow.on), ["pull_request_target"]);
        const steps: Json[] = workflow.jobs["pawl-diff"].steps;
        assert.ok(
          !steps.some((s) => String(s.uses).startsWith("actions/checkout")),
        );
        const step = steps.find((s) => s.id === "pawl");
        assert.equal(step.with.command, "diff");
        for (const key of Object.keys(step.with)) {
          assert.ok(inputs.includes(key));
        }

        const r = await runAction(step, "pull_request_target");
        assert.equal(r.code, 0, r.output);
        assert.match(r.written, /^decision=accept$/m);
        const verdict = await verdictAt(`${w.checkout}/pawl-out/verdict.json`);
        assert.equal(verdict.tests, null, "nothing from the pull request ran");
        assert.equal(verdict.isolation, null);
      },
    );

    await t.step(
      "docker run in a workflow: the event is mounted, no --network none",
      async () => {
        const [step] = parseYaml(snippet("github-docker-run"));
        assert.doesNotMatch(step.run, /--network none/);
        const r = await bash(w, step.run, github);
        assert.equal(r.code, 0, r.output);
        const verdict = await verdictAt(`${w.checkout}/pawl-out/verdict.json`);
        assert.equal(verdict.decision, "accept");
        assert.equal(verdict.now, "2026-11-30T10:30:00Z");
        assert.equal(verdict.clock.source, "event");
      },
    );
  } finally {
    await Deno.remove(w.dir, { recursive: true });
  }
});
