import assert from "node:assert/strict";
import { SAMPLE_PATCHES } from "../src/demo/_sample_files.ts";
import { check, explain, NOW, pawl, ROOT } from "./_cli.ts";
import { buildRepo } from "./_repo.ts";

/** One module of `deno info --json`. */
interface InfoModule {
  specifier: string;
  dependencies?: {
    code?: { specifier: string };
    type?: { specifier: string };
    isDynamic?: boolean;
  }[];
}

/** The modules main.ts loads before any command runs: its static import graph. */
async function staticGraph(): Promise<string[]> {
  const output = await new Deno.Command(Deno.execPath(), {
    args: ["info", "--json", `${ROOT}/main.ts`],
    cwd: ROOT,
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.equal(output.code, 0, new TextDecoder().decode(output.stderr));
  const info = JSON.parse(new TextDecoder().decode(output.stdout)) as {
    roots: string[];
    modules: InfoModule[];
  };
  const modules = new Map(info.modules.map((m) => [m.specifier, m]));
  const seen = new Set<string>();
  const stack = [...info.roots];
  while (stack.length > 0) {
    const specifier = stack.pop()!;
    if (seen.has(specifier)) continue;
    seen.add(specifier);
    for (const dep of modules.get(specifier)?.dependencies ?? []) {
      if (dep.isDynamic === true) continue;
      for (const target of [dep.code, dep.type]) {
        if (target !== undefined) stack.push(target.specifier);
      }
    }
  }
  return [...seen].map((s) => s.replace(`file://${ROOT}/`, "")).sort();
}

Deno.test("main.ts loads no command's code before the command runs", async () => {
  const graph = await staticGraph();
  // The graph walk itself is checked: main.ts and what it needs are in it.
  assert.ok(graph.includes("main.ts"), graph.join("\n"));
  assert.ok(graph.includes("src/version.ts"), graph.join("\n"));
  const heavy = graph.filter((m) =>
    m.startsWith("npm:") || m.startsWith("jsr:") ||
    /^src\/(sign|github|python|git|sandbox|check|layouts|contract|report|audit|propose)\//
      .test(m) ||
    /^src\/cli\/.*_command\.ts$/.test(m)
  );
  assert.deepEqual(
    heavy,
    [],
    `main.ts imports statically:\n${graph.join("\n")}`,
  );
});

Deno.test("pawl version and pawl --help print without loading a command", async () => {
  const version = await pawl(["version"], { out: false });
  assert.equal(version.code, 0, version.stderr);
  assert.match(version.stdout, /^pawl \d+\.\d+\.\d+\n$/);
  const help = await pawl(["--help"], { out: false });
  assert.equal(help.code, 0, help.stderr);
  for (
    const command of [
      "check",
      "diff",
      "audit",
      "demo",
      "propose",
      "keygen",
      "verify",
      "version",
    ]
  ) {
    assert.match(help.stdout, new RegExp(`^  ${command} `, "m"));
  }
  assert.equal(help.stderr, "");
});

/** The commands `pawl --help` lists. */
async function listedCommands(): Promise<string[]> {
  const { stdout } = await pawl(["--help"], { out: false });
  const block = stdout.split("\nCommands:\n")[1]?.split("\n\n")[0] ?? "";
  return block.split("\n").map((line) => line.trim().split(" ")[0] ?? "");
}

Deno.test("pawl COMMAND --help prints that command's own usage on stdout and exits 0", async (t) => {
  const commands = await listedCommands();
  assert.ok(commands.includes("diff"), commands.join(" "));
  for (const command of commands) {
    await t.step(command, async () => {
      for (const flag of ["--help", "-h"]) {
        const result = await pawl([command, flag], { out: false });
        assert.equal(result.code, 0, result.stderr);
        assert.equal(result.stderr, "");
        assert.match(
          result.stdout,
          new RegExp(`^Usage:\n  pawl ${command}\\b`),
        );
        // Every form the usage shows is a form of this command.
        const forms = result.stdout.split("\n").filter((line) =>
          /^ {2}pawl /.test(line)
        );
        for (const form of forms) {
          assert.match(form, new RegExp(`^  pawl ${command}\\b`), form);
        }
      }
    });
  }
  await t.step("after other options, and for audit report", async () => {
    const check = await pawl(["check", "--repo", ".", "--help"], {
      out: false,
    });
    assert.equal(check.code, 0, check.stderr);
    assert.match(check.stdout, /^Usage:\n {2}pawl check /);
    const report = await pawl(["audit", "report", "--help"], { out: false });
    assert.equal(report.code, 0, report.stderr);
    assert.match(report.stdout, /pawl audit report/);
  });
});

Deno.test("a command line pawl cannot follow is a usage error (exit 2), not a could-not-decide", async (t) => {
  const cases: [string, string[], RegExp][] = [
    ["an unknown option", ["check", "--frob"], /Unknown option '--frob'/],
    [
      "a repeated single-valued option",
      [
        "diff",
        "--now",
        "2026-11-30T12:00:00Z",
        "--now",
        "2026-12-01T00:00:00Z",
      ],
      /Option "--now" is given more than once; it takes one value/,
    ],
    ["a missing value", ["audit", "--repo"], /--repo/],
    ["a positional argument", ["verify", "envelope.json"], /envelope\.json/],
    [
      "a missing required option",
      ["keygen"],
      /Missing required option "--out"/,
    ],
    ["an unknown propose option", ["propose", "--nope"], /--nope/],
    ["a demo option that takes a value", ["demo", "--now"], /--now/],
    ["an argument to version", ["version", "x"], /'x'/],
    [
      "a check without a clock",
      ["check", "--repo", ".", "--base", "a", "--head", "b"],
      /--now is required/,
    ],
    [
      "a malformed --now of check",
      ["check", "--repo", ".", "--base", "a", "--head", "b", "--now", "x"],
      /Cannot read --now "x"/,
    ],
    [
      "a malformed --now of diff",
      ["diff", "--repo", ".", "--base", "a", "--head", "b", "--now", "x"],
      /Cannot read --now "x"/,
    ],
    [
      "a malformed --now of audit",
      ["audit", "--repo", "o/r", "--prs", "1", "--now", "x"],
      /Cannot read --now "x"/,
    ],
    ["a malformed --now of demo", ["demo", "--now", "x"], /"x"/],
    [
      "a malformed --prs of audit",
      ["audit", "--repo", "o/r", "--prs", "x", "--now", NOW],
      /Cannot read --prs "x"/,
    ],
    [
      "a malformed --shard of audit",
      ["audit", "--repo", "o/r", "--prs", "1", "--now", NOW, "--shard", "9"],
      /Cannot read --shard "9"/,
    ],
    [
      "an unknown option of audit report",
      ["audit", "report", "--frob"],
      /Unknown option '--frob'/,
    ],
  ];
  for (const [name, args, problem] of cases) {
    await t.step(name, async () => {
      const result = await pawl(args, { out: false });
      const command = args[1] === "report" ? "audit report" : args[0]!;
      assert.equal(result.code, 2, result.stderr);
      assert.equal(result.stdout, "");
      const lines = result.stderr.split("\n");
      assert.match(lines[0]!, new RegExp(`^pawl ${command}: usage error: `));
      assert.match(lines[0]!, problem);
      assert.equal(lines[1], `Run "pawl ${command} --help" for its usage.`);
      assert.equal(lines.length, 3, result.stderr);
      assert.doesNotMatch(result.stderr, /could not decide|^Usage:/m);
    });
  }
});

Deno.test("an unknown command names itself and lists the commands (exit 2)", async () => {
  const result = await pawl(["frobnicate"], { out: false });
  assert.equal(result.code, 2);
  assert.match(result.stderr, /^pawl: unknown command "frobnicate"\n/);
  assert.match(result.stderr, /^ {2}check /m);
});

Deno.test("an empty or option-like value of --base or --head is a usage error (exit 2), never help or an accept", async (t) => {
  const honest = SAMPLE_PATCHES.find((p) => p.branch === "agent/honest-fix");
  assert.ok(honest !== undefined);
  await using repo = await buildRepo({ heads: { pr: honest.files } });
  await t.step("with real values the pull request is accepted", async () => {
    const result = await check(repo.dir, "pr", { command: "diff" });
    assert.equal(result.code, 0, explain(result));
  });
  const line = (base: string[], head: string[]) => [
    "--repo",
    repo.dir,
    ...base,
    ...head,
    "--now",
    NOW,
    "--quiet",
  ];
  const cases: [string, string[], RegExp][] = [
    [
      "--base -h",
      line(["--base", "-h"], ["--head", "pr"]),
      /^Option "--base" is followed by "-h", which looks like an option/,
    ],
    [
      "--head --help",
      line(["--base", "main"], ["--head", "--help"]),
      /^Option "--head" is followed by "--help", which looks like an option/,
    ],
    [
      "--base followed by the next option",
      line(["--base"], ["--head", "pr"]),
      /^Option "--base" is followed by "--head"/,
    ],
    [
      "--base=",
      line(["--base="], ["--head", "pr"]),
      /^Option "--base" is given an empty value$/,
    ],
    [
      '--head ""',
      line(["--base", "main"], ["--head", ""]),
      /^Option "--head" is given an empty value$/,
    ],
  ];
  for (const command of ["check", "diff"]) {
    for (const [name, args, problem] of cases) {
      await t.step(`${command} ${name}`, async () => {
        const result = await pawl([command, ...args]);
        assert.equal(result.code, 2, explain(result));
        assert.equal(result.stdout, "");
        const [first = "", second] = result.stderr.split("\n");
        const prefix = `pawl ${command}: usage error: `;
        assert.ok(first.startsWith(prefix), result.stderr);
        assert.match(first.slice(prefix.length), problem);
        assert.equal(second, `Run "pawl ${command} --help" for its usage.`);
        assert.deepEqual(
          JSON.parse(result.outText ?? "{}").decision,
          "undecided",
        );
      });
    }
  }
  await t.step("every command: -h as a value is not help", async () => {
    const lines: [string, ...string[]][] = [
      ["audit", "--repo", "-h", "--prs", "1", "--now", NOW],
      ["audit", "report", "--out-dir", "--help"],
      ["demo", "--now", "-h"],
      ["propose", "--repo", "--help"],
      ["keygen", "--out", "-h"],
      ["verify", "--key", "-h", "--envelope", "e.json"],
      ["serve", "--config", "--help"],
      ["version", "--", "-h"],
    ];
    for (const args of lines) {
      const result = await pawl(args, { out: false });
      assert.equal(result.code, 2, `${args.join(" ")}\n${result.stderr}`);
      assert.equal(result.stdout, "", args.join(" "));
      const command = args[1] === "report" ? "audit report" : args[0];
      assert.ok(
        result.stderr.startsWith(`pawl ${command}: usage error: `),
        result.stderr,
      );
    }
  });
});
