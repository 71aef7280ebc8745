/**
 * Everything pawl cannot decide exits 2 and is never an accept: the `--out`
 * file, even one holding a stale accept from an earlier run, then says
 * "undecided".
 */
import assert from "node:assert/strict";
import { explain, mapPool, NOW, pawl, type PawlResult, ROOT } from "./_cli.ts";
import {
  buildRepo,
  defaultBaseFiles,
  edit,
  lineOf,
  type TestRepo,
} from "./_repo.ts";

const CONTRACT = "tests/agent_contract.yaml";

/** A verdict an earlier run could have left in the --out file. */
const STALE_ACCEPT = JSON.stringify({ decision: "accept", findings: [] });

const ALIAS_BOMB = [
  "version: 1",
  'a: &a ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]',
  "b: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]",
  "c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b]",
  "d: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c]",
  "e: &e [*d, *d, *d, *d, *d, *d, *d, *d, *d]",
  "f: &f [*e, *e, *e, *e, *e, *e, *e, *e, *e]",
  "g: &g [*f, *f, *f, *f, *f, *f, *f, *f, *f]",
  "h: &h [*g, *g, *g, *g, *g, *g, *g, *g, *g]",
  "i: &i [*h, *h, *h, *h, *h, *h, *h, *h, *h]",
  "",
].join("\n");

/** Base variants, each used as both --base and --head. */
const BASES = {
  "base/no-contract": { [CONTRACT]: null },
  "base/unknown-key": {
    [CONTRACT]: edit("version: 1\n", 'version: 1\nnotes: "be lenient"\n'),
  },
  "base/alias-bomb": { [CONTRACT]: ALIAS_BOMB },
  "base/symlink": {
    "tests/contract_copy.yaml": (_: string) => defaultBaseFiles()[CONTRACT]!,
    [CONTRACT]: { symlink: "contract_copy.yaml" },
  },
  "base/oversize": {
    [CONTRACT]: (base: string) =>
      `${base}${`# ${"padding ".repeat(15)}\n`.repeat(9000)}`,
  },
  "base/examples-below": {
    [CONTRACT]: edit("min_examples: 40", "min_examples: 400"),
  },
  "base/no-runner": {
    "pawl.toml": '[tests]\ncommand = ["definitely-not-a-runner"]\n',
  },
};

/**
 * Assert exit 2, "could not decide" (or, for a command line pawl cannot
 * follow, "usage error" and where the usage is) on stderr, and an undecided
 * --out.
 */
function assertUndecided(
  result: PawlResult,
  pattern?: RegExp,
  usage = false,
): void {
  const why = explain(result);
  assert.equal(result.code, 2, why);
  if (usage) {
    assert.match(result.stderr, /^pawl check: usage error: /m, why);
    assert.match(
      result.stderr,
      /^Run "pawl check --help" for its usage\.$/m,
      why,
    );
    assert.doesNotMatch(result.stderr, /could not decide/, why);
  } else {
    assert.match(result.stderr, /could not decide/, why);
  }
  assert.doesNotMatch(result.stdout, /"decision": "accept"/, why);
  assert.ok(result.verdict !== undefined, `--out is not JSON\n${why}`);
  assert.equal(result.verdict.decision, "undecided", why);
  const error = (result.verdict as unknown as { error?: unknown }).error;
  assert.equal(typeof error, "string", why);
  if (pattern !== undefined) {
    assert.match(result.stderr, pattern, why);
    assert.match(error as string, pattern, why);
  }
}

interface Case {
  group: string;
  name: string;
  args: string[];
  /** Must appear on stderr and in the --out error. */
  patterns: RegExp[];
  /** A command line pawl cannot follow: reported as a usage error. */
  usage?: boolean;
}

function args(repo: string, overrides: Record<string, string | null> = {}) {
  const values: Record<string, string | null> = {
    repo,
    base: "main",
    head: "head/ok",
    now: NOW,
    ...overrides,
  };
  return [
    "check",
    ...Object.entries(values).flatMap(([k, v]) =>
      v === null ? [] : [`--${k}`, v]
    ),
    "--quiet",
  ];
}

Deno.test("pawl check exits 2 with an undecided --out for whatever it cannot decide", async (t) => {
  await using repo: TestRepo = await buildRepo({
    heads: {
      "head/ok": {
        "tests/test_misc.py": "def test_misc():\n    assert 2 + 2 == 4\n",
      },
      ...BASES,
    },
  });
  const unknownKeyLine = lineOf(
    repo.text("base/unknown-key", CONTRACT),
    "notes:",
  );
  const onBase = (branch: string) =>
    args(repo.dir, { base: branch, head: branch });
  const cases: Case[] = [
    {
      group: "the clock",
      name: "a missing --now",
      args: args(repo.dir, { now: null }),
      patterns: [/--now/],
      usage: true,
    },
    ...[
      "2026-13-01T00:00:00Z",
      "yesterday",
      "2026-11-30",
      "2026-11-30T12:00:00",
      "2026-02-30T12:00:00Z",
    ].map((now) => ({
      group: "the clock",
      name: `a malformed --now "${now}"`,
      args: args(repo.dir, { now }),
      patterns: [new RegExp(`--now "${now}"`)],
      usage: true,
    })),
    {
      group: "revisions and repositories",
      name: "an unknown --base revision",
      args: args(repo.dir, { base: "no-such-branch" }),
      patterns: [/no-such-branch/],
    },
    {
      group: "revisions and repositories",
      name: "an unknown --head revision",
      args: args(repo.dir, { head: "no-such-branch" }),
      patterns: [/no-such-branch/],
    },
    {
      group: "revisions and repositories",
      name: "a repository path that does not exist",
      args: args(`${repo.dir}-missing`),
      patterns: [/no such directory/],
    },
    {
      group: "revisions and repositories",
      name: "a directory that is not a git repository",
      args: args(`${repo.dir}/tests`),
      patterns: [/exists but is not a git repository/],
    },
    {
      group: "the base contract",
      name: "a base without a contract points at pawl propose",
      args: onBase("base/no-contract"),
      patterns: [/pawl propose/],
    },
    {
      group: "the base contract",
      name:
        "a base contract with an unknown key names the file, the key and the line",
      args: onBase("base/unknown-key"),
      patterns: [
        /tests\/agent_contract\.yaml/,
        /"notes"/,
        new RegExp(`line ${unknownKeyLine}\\b`),
      ],
    },
    {
      group: "the base contract",
      name: "a base contract that is a YAML alias bomb",
      args: onBase("base/alias-bomb"),
      patterns: [/alias/i],
    },
    {
      group: "the base contract",
      name: "a base contract that is a symlink",
      args: onBase("base/symlink"),
      patterns: [/symlink/],
    },
    {
      group: "the base contract",
      name: "a base whose test runs fewer examples than its own contract asks",
      args: onBase("base/examples-below"),
      patterns: [
        /already breaks its own contract/,
        /property\.examples_below_contract/,
      ],
    },
    {
      group: "the base contract",
      name: "an oversize base contract",
      args: onBase("base/oversize"),
      patterns: [/larger than/],
    },
    {
      group: "the command line",
      name: "an unknown option",
      args: [...args(repo.dir), "--frobnicate"],
      patterns: [/Unknown option '--frobnicate'/],
      usage: true,
    },
    {
      group: "the command line",
      name: "a repeated --now",
      args: [...args(repo.dir), "--now", "2026-12-01T00:00:00Z"],
      patterns: [/"--now" is given more than once/],
      usage: true,
    },
    {
      group: "the command line",
      name: "an unknown --isolation",
      args: [...args(repo.dir), "--isolation", "bogus"],
      patterns: [/bogus/],
      usage: true,
    },
    {
      group: "the command line",
      name: "a missing --repo",
      args: args(repo.dir, { repo: null }),
      patterns: [/--repo/],
      usage: true,
    },
    // The only case that gets as far as the sandbox.
    {
      group: "the test runner",
      name: "a base test command that is not installed",
      args: onBase("base/no-runner"),
      patterns: [/definitely-not-a-runner/],
    },
  ];
  const results = await mapPool(
    cases,
    3,
    (c) => pawl(c.args, { stale: STALE_ACCEPT }),
  );

  await t.step("the control: the same arguments decide (accept)", async () => {
    const result = await pawl(args(repo.dir), { stale: STALE_ACCEPT });
    assert.equal(result.code, 0, explain(result));
    assert.equal(result.verdict?.decision, "accept", explain(result));
  });

  for (const group of new Set(cases.map((c) => c.group))) {
    await t.step(group, async (t) => {
      for (const [i, c] of cases.entries()) {
        if (c.group !== group) continue;
        await t.step(c.name, () => {
          const result = results[i]!;
          assertUndecided(result, undefined, c.usage);
          for (const pattern of c.patterns) {
            assertUndecided(result, pattern, c.usage);
          }
          assert.ok(result.ms < 30_000, `took ${result.ms} ms`);
        });
      }
    });
  }
});

Deno.test("pawl check --json prints the undecided verdict on stdout on exit 2, the same document --out holds", async (t) => {
  const missing = `${ROOT}/no-such-repository`;
  const cases: [string, string[]][] = [
    ["a usage error", ["check", "--frobnicate"]],
    ["a malformed --now", args(missing, { now: "yesterday" })],
    ["a repository that does not exist", args(missing)],
    ["pawl diff", ["diff", ...args(missing).slice(1)]],
  ];
  for (const [name, command] of cases) {
    await t.step(name, async () => {
      const result = await pawl([...command, "--json"]);
      const why = explain(result);
      assert.equal(result.code, 2, why);
      assert.equal(result.verdict?.decision, "undecided", why);
      assert.equal(result.stdout, result.outText, why);
    });
  }
  await t.step(
    "a --json that is another option's value is not the flag",
    async () => {
      const result = await pawl(["check", "--base", "--json"]);
      assert.equal(result.code, 2, explain(result));
      assert.equal(result.stdout, "");
    },
  );
});

Deno.test("pawl check run by an unprivileged uid refuses to run the tests unless told --isolation none", async (t) => {
  // Everything the unprivileged uid needs, readable and writable by it: a
  // copy of pawl, a Deno cache with pawl's npm packages, a home, the repo.
  // Outside pawl's default range: a pawl check elsewhere on the machine
  // may lease (and sweep) any uid of 64123-64186 while this runs.
  const UID = 64406;
  const dir = await Deno.makeTempDir({ prefix: "pawl-e2e-uid-" });
  try {
    await Deno.chmod(dir, 0o755);
    await using repo = await buildRepo({
      heads: {
        "head/ok": {
          "tests/test_misc.py": "def test_misc():\n    assert 2 + 2 == 4\n",
        },
      },
    });
    await copy(
      ["main.ts", "src", "deno.json", "deno.lock", "node_modules"].map((p) =>
        `${ROOT}/${p}`
      ),
      `${dir}/pawl`,
    );
    await Deno.mkdir(`${dir}/deno`);
    await Deno.mkdir(`${dir}/home`);
    await Deno.mkdir(`${dir}/out`);
    const cache = `${
      Deno.env.get("DENO_DIR") ?? `${Deno.env.get("HOME")}/.cache/deno`
    }/npm`;
    await copy([cache], `${dir}/deno`);
    await copy([repo.dir], dir);
    await run("chown", ["-R", `${UID}:${UID}`, dir]);
    const runAs = (extra: string[], out: string) =>
      pawl([
        "check",
        "--repo",
        `${dir}/repo`,
        "--base",
        "main",
        "--head",
        "head/ok",
        "--now",
        NOW,
        "--quiet",
        ...extra,
      ], {
        out,
        stale: STALE_ACCEPT,
        clearEnv: true,
        env: {
          PATH: "/usr/local/bin:/usr/bin:/bin",
          HOME: `${dir}/home`,
          DENO_DIR: `${dir}/deno`,
          DENO_NO_UPDATE_CHECK: "1",
          NO_COLOR: "1",
        },
        wrapper: [
          "setpriv",
          `--reuid=${UID}`,
          `--regid=${UID}`,
          "--clear-groups",
          "--",
        ],
        main: `${dir}/pawl/main.ts`,
        denoFlags: ["--cached-only"],
      });

    await t.step("the default isolation is refused with exit 2", async () => {
      const out = `${dir}/out/refused.json`;
      await Deno.writeTextFile(out, STALE_ACCEPT);
      await run("chown", [`${UID}:${UID}`, out]);
      const result = await runAs([], out);
      assertUndecided(result, /--isolation none/);
      assert.match(result.stderr, /only root can switch/);
    });

    await t.step(
      "the control: with --isolation none the same run decides",
      async () => {
        const out = `${dir}/out/none.json`;
        const result = await runAs(["--isolation", "none"], out);
        assert.equal(result.code, 0, explain(result));
        assert.equal(result.verdict?.decision, "accept");
        assert.equal(result.verdict?.isolation?.tier, "none");
        assert.equal(result.verdict?.options.isolation, "none");
      },
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

async function copy(sources: string[], dest: string): Promise<void> {
  await Deno.mkdir(dest, { recursive: true });
  await run("cp", ["-a", ...sources, `${dest}/`]);
}

async function run(cmd: string, argv: string[]): Promise<void> {
  const out = await new Deno.Command(cmd, {
    args: argv,
    stdout: "null",
    stderr: "piped",
  }).output();
  if (!out.success) {
    throw new Error(
      `${cmd} ${argv.join(" ")}: ${new TextDecoder().decode(out.stderr)}`,
    );
  }
}
