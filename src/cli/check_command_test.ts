import assert from "node:assert/strict";
import { checkCommand } from "./check_command.ts";
import type { CliIo } from "./cli_io.ts";

const IO: CliIo = { out: () => {}, err: () => {}, env: {}, terminal: false };

Deno.test("checkCommand() leaves an undecided --out when the command line cannot be judged", async (t) => {
  const dir = await Deno.makeTempDir({ prefix: "pawl_check_command_" });
  try {
    const out = `${dir}/verdict.json`;
    const base = ["--repo", dir, "--base", "main", "--head", "pr"];
    const cases: [string, string[]][] = [
      ["a missing --now", [...base, "--out", out]],
      ["a malformed --now", [...base, "--now", "yesterday", "--out", out]],
      ["an unknown option", [...base, `--out=${out}`, "--frobnicate"]],
      [
        "an unknown isolation",
        [
          ...base,
          "--now",
          "2026-11-30T12:00:00Z",
          "--isolation",
          "bogus",
          "--out",
          out,
        ],
      ],
      [
        "a bad --sandbox-uids",
        [
          ...base,
          "--now",
          "2026-11-30T12:00:00Z",
          "--sandbox-uids",
          "64200-64100",
          "--out",
          out,
        ],
      ],
    ];
    for (const [name, args] of cases) {
      await t.step(name, async () => {
        await Deno.writeTextFile(out, '{"decision": "accept"}');
        await assert.rejects(checkCommand(args, IO, { runTests: false }));
        const verdict = JSON.parse(await Deno.readTextFile(out));
        assert.equal(verdict.decision, "undecided");
        assert.equal(typeof verdict.error, "string");
      });
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("checkCommand() rewrites every requested report when it cannot decide", async () => {
  const dir = await Deno.makeTempDir({ prefix: "pawl_check_command_" });
  try {
    const paths = {
      sarif: `${dir}/pawl.sarif`,
      junit: `${dir}/pawl.xml`,
      codequality: `${dir}/pawl-codequality.json`,
      markdown: `${dir}/pawl.md`,
    };
    for (const path of Object.values(paths)) {
      await Deno.writeTextFile(path, "stale: accept");
    }
    await assert.rejects(
      checkCommand(
        [
          "--repo",
          dir,
          "--base",
          "main",
          "--head",
          "pr",
          "--now",
          "yesterday",
          "--sarif",
          paths.sarif,
          "--junit",
          paths.junit,
          "--codequality",
          paths.codequality,
          "--markdown",
          paths.markdown,
        ],
        IO,
        { runTests: false },
      ),
    );
    const sarif = JSON.parse(await Deno.readTextFile(paths.sarif));
    assert.equal(sarif.version, "2.1.0");
    assert.equal(sarif.runs[0].invocations[0].executionSuccessful, false);
    assert.equal(sarif.runs[0].invocations[0].properties.decision, "undecided");
    assert.match(
      await Deno.readTextFile(paths.junit),
      /<error message="pawl could not decide: Cannot read --now/,
    );
    const [issue] = JSON.parse(await Deno.readTextFile(paths.codequality));
    assert.equal(issue.check_name, "pawl.undecided");
    assert.equal(issue.severity, "blocker");
    const markdown = await Deno.readTextFile(paths.markdown);
    assert.match(
      markdown,
      /^<!-- pawl:verdict -->\n## ⚠️ pawl could not decide/,
    );
    assert.doesNotMatch(markdown, /stale/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
