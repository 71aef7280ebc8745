/**
 * The GitHub Action's entry script (tools/action_entrypoint.ts), run as the
 * runner runs it in the container: inputs as `INPUT_*`, a synthetic
 * `pull_request` event at `GITHUB_EVENT_PATH`, `GITHUB_OUTPUT`,
 * `GITHUB_STEP_SUMMARY` and `GITHUB_WORKSPACE` files of its own, and the
 * API of the fake GitHub. Nothing from the machine's environment leaks in.
 */
import assert from "node:assert/strict";
import { SAMPLE_PATCHES } from "../src/demo/_sample_files.ts";
import { E2E_SANDBOX_UIDS, ROOT } from "./_cli.ts";
import { makeBareRemote, startFakeGitHub } from "./_fake_github.ts";
import { buildRepo, type TestRepo } from "./_repo.ts";

const TOKEN = "ghs_pawlActionToken0123456789abcdefABCD";

function patch(branch: string) {
  const found = SAMPLE_PATCHES.find((p) => p.branch === branch);
  if (found === undefined) throw new Error(`No sample patch "${branch}"`);
  return found.files;
}

interface ActionRun {
  code: number;
  stdout: string;
  stderr: string;
  outputs: Record<string, string>;
}

async function runAction(
  env: Record<string, string>,
): Promise<ActionRun> {
  const outputPath = `${env["GITHUB_WORKSPACE"]}/../github_output`;
  await Deno.writeTextFile(outputPath, "");
  const run = () =>
    new Deno.Command(Deno.execPath(), {
      args: ["run", "--allow-all", `${ROOT}/tools/action_entrypoint.ts`],
      cwd: env["GITHUB_WORKSPACE"] ?? ROOT,
      clearEnv: true,
      env: {
        PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
        HOME: Deno.env.get("HOME") ?? "/root",
        NO_COLOR: "1",
        // Each run leases its own sandbox uid from the end-to-end range.
        PAWL_SANDBOX_UIDS: E2E_SANDBOX_UIDS,
        GITHUB_OUTPUT: outputPath,
        ...env,
      },
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).output();
  const out = await run();
  const outputs: Record<string, string> = {};
  for (const line of (await Deno.readTextFile(outputPath)).split("\n")) {
    const eq = line.indexOf("=");
    if (eq > 0) outputs[line.slice(0, eq)] = line.slice(eq + 1);
  }
  const decoder = new TextDecoder();
  return {
    code: out.code,
    stdout: decoder.decode(out.stdout),
    stderr: decoder.decode(out.stderr),
    outputs,
  };
}

Deno.test("the action's entry script judges the event's pull request and writes its outputs", async (t) => {
  await using repo: TestRepo = await buildRepo({
    heads: {
      "pr/honest": patch("agent/honest-fix"),
      "pr/weaken": patch("agent/delete-property"),
    },
  });
  const sha = {
    main: await repo.commit("main"),
    honest: await repo.commit("pr/honest"),
    weaken: await repo.commit("pr/weaken"),
  };
  await using remote = await makeBareRemote(repo.dir, {
    7: "pr/honest",
    8: "pr/weaken",
  });
  await using gh = startFakeGitHub({ token: TOKEN });
  gh.addRepository("o/r", { gitDir: remote.gitDir, cloneVia: "file" });
  gh.addPullRequest("o/r", {
    number: 7,
    baseSha: sha.main,
    headSha: sha.honest,
    updatedAt: "2026-11-30T10:30:00Z",
  });
  gh.addPullRequest("o/r", {
    number: 8,
    baseSha: sha.main,
    headSha: sha.weaken,
    updatedAt: "2026-11-30T10:45:00Z",
  });
  const dir = await Deno.makeTempDir({ prefix: "pawl-e2e-action-" });
  try {
    const workspace = `${dir}/workspace`;
    await Deno.mkdir(workspace);
    const runner = async (number: number, inputs: Record<string, string>) => {
      const event = `${dir}/event-${number}.json`;
      await Deno.writeTextFile(
        event,
        JSON.stringify({
          action: "synchronize",
          number,
          "pull_request": gh.pullRequestJson("o/r", number),
          repository: { "full_name": "o/r" },
        }),
      );
      await Deno.writeTextFile(`${dir}/summary.md`, "");
      return {
        GITHUB_WORKSPACE: workspace,
        GITHUB_EVENT_PATH: event,
        GITHUB_EVENT_NAME: "pull_request",
        GITHUB_REPOSITORY: "o/r",
        GITHUB_API_URL: gh.url,
        GITHUB_STEP_SUMMARY: `${dir}/summary.md`,
        PAWL_GITHUB_RETRY_BASE_MS: "5",
        INPUT_TOKEN: TOKEN,
        ...inputs,
      };
    };

    await t.step(
      "an honest pull request: accept, clock from the event",
      async () => {
        const r = await runAction(await runner(7, {}));
        assert.equal(r.code, 0, r.stderr);
        assert.deepEqual(r.outputs, {
          decision: "accept",
          "exit-code": "0",
          verdict: "pawl-out/verdict.json",
          markdown: "pawl-out/pawl.md",
          sarif: "pawl-out/pawl.sarif",
        });
        const verdict = JSON.parse(
          await Deno.readTextFile(`${workspace}/pawl-out/verdict.json`),
        );
        assert.equal(verdict.head, sha.honest);
        assert.equal(verdict.now, "2026-11-30T10:30:00Z");
        assert.deepEqual(verdict.clock, {
          source: "event",
          field: "pull_request.updated_at",
        });
        const sarif = JSON.parse(
          await Deno.readTextFile(`${workspace}/pawl-out/pawl.sarif`),
        );
        assert.equal(
          sarif.runs[0].invocations[0].properties.decision,
          "accept",
        );
        // Readable by a later step that runs as another user.
        const mode = (await Deno.stat(`${workspace}/pawl-out/pawl.sarif`))
          .mode!;
        assert.equal(mode & 0o777, 0o644);
        assert.match(
          await Deno.readTextFile(`${dir}/summary.md`),
          /pawl: accept/,
        );
        assert.equal(gh.checkRuns.at(-1)?.conclusion, "success");
        assert.equal(gh.checkRuns.at(-1)?.headSha, sha.honest);
      },
    );

    await t.step(
      "a weakening pull request: reject, exit 1, outputs still written",
      async () => {
        const r = await runAction(
          await runner(8, { INPUT_OUT_DIR: "reports", INPUT_PUBLISH: "false" }),
        );
        assert.equal(r.code, 1, r.stderr);
        assert.equal(r.outputs["decision"], "reject");
        assert.equal(r.outputs["exit-code"], "1");
        assert.equal(r.outputs["verdict"], "reports/verdict.json");
        const verdict = JSON.parse(
          await Deno.readTextFile(`${workspace}/reports/verdict.json`),
        );
        assert.equal(verdict.head, sha.weaken);
        assert.ok(
          verdict.findings.some((f: { rule: string }) =>
            f.rule === "property.removed"
          ),
        );
        // publish: false: nothing new on the pull request.
        assert.ok(!gh.checkRuns.some((c) => c.headSha === sha.weaken));
      },
    );

    await t.step(
      "command diff with an explicit clock runs nothing and says so",
      async () => {
        const r = await runAction(
          await runner(7, {
            INPUT_COMMAND: "diff",
            INPUT_NOW: "2026-11-30T12:00:00Z",
            INPUT_PUBLISH: "false",
          }),
        );
        assert.equal(r.code, 0, r.stderr);
        assert.equal(r.outputs["decision"], "accept");
        const verdict = JSON.parse(
          await Deno.readTextFile(`${workspace}/pawl-out/verdict.json`),
        );
        assert.equal(verdict.tests, null);
        assert.equal(verdict.now, "2026-11-30T12:00:00Z");
      },
    );

    await t.step("a bad input is undecided, exit 2", async () => {
      const r = await runAction(
        await runner(7, { INPUT_COMMAND: "merge" }),
      );
      assert.equal(r.code, 2);
      assert.equal(r.outputs["decision"], "undecided");
      assert.match(r.stderr, /input "command" = "merge"/);
    });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
