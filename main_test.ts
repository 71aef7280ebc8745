import assert from "node:assert/strict";
import fc from "fast-check";
import { main } from "./main.ts";
import type { CliIo } from "./src/cli/cli_io.ts";
import type { CommandOptions } from "./src/cli/parse_command_args.ts";
import { CHECK_OPTIONS } from "./src/cli/_check_options.ts";
import {
  AUDIT_OPTIONS,
  AUDIT_REPORT_OPTIONS,
} from "./src/cli/audit_command.ts";
import { DEMO_OPTIONS } from "./src/cli/demo_command.ts";
import { KEYGEN_OPTIONS } from "./src/cli/keygen_command.ts";
import { PROPOSE_OPTIONS } from "./src/cli/propose_command.ts";
import { SERVE_OPTIONS } from "./src/cli/serve_command.ts";
import { VERIFY_OPTIONS } from "./src/cli/verify_command.ts";

const RUNS = { seed: 7, numRuns: 60 } as const;

/** Each command line's leading words and its option table. */
const COMMANDS: [string[], CommandOptions][] = [
  [["check"], CHECK_OPTIONS],
  [["diff"], CHECK_OPTIONS],
  [["audit"], AUDIT_OPTIONS],
  [["audit", "report"], AUDIT_REPORT_OPTIONS],
  [["demo"], DEMO_OPTIONS],
  [["propose"], PROPOSE_OPTIONS],
  [["keygen"], KEYGEN_OPTIONS],
  [["verify"], VERIFY_OPTIONS],
  [["serve"], SERVE_OPTIONS],
  [["version"], {}],
];

/** What an empty or hostile variable leaves where an option's value goes. */
const HOSTILE_VALUES = ["-h", "--help", "--json", "--", "-x", ""];

async function run(args: readonly string[]) {
  let stdout = "";
  let stderr = "";
  const io: CliIo = {
    out: (text) => void (stdout += text),
    err: (text) => void (stderr += text),
    env: { PATH: "/usr/bin:/bin" },
    terminal: false,
  };
  const code = await main(args, io);
  return { code, stdout, stderr };
}

/**
 * Whether `args` asks for help, read independently of pawl's parser: an
 * `-h` or `--help` that is not the value of a string option, before `--`.
 */
function asksForHelp(args: readonly string[], options: CommandOptions) {
  return givesFlag(args, options, ["-h", "--help"]);
}

/**
 * Whether one of `spellings` is given as an option of its own, not as the
 * value of a string option, before `--`.
 */
function givesFlag(
  args: readonly string[],
  options: CommandOptions,
  spellings: readonly string[],
) {
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    if (arg === "--") return false;
    if (spellings.includes(arg)) return true;
    if (arg.startsWith("--") && !arg.includes("=")) {
      if (options[arg.slice(2)]?.type === "string") i++;
    }
  }
  return false;
}

/** A command line that cannot be right: at least one part is malformed. */
function malformed(options: CommandOptions): fc.Arbitrary<string[]> {
  const names = Object.keys(options).filter((n) => n !== "help");
  const strings = names.filter((n) => options[n]?.type === "string");
  const flags = names.filter((n) => options[n]?.type === "boolean");
  const poison: fc.Arbitrary<string[]>[] = [
    fc.constant(["--frob"]),
    fc.constant(["stray"]),
  ];
  const fine: fc.Arbitrary<string[]>[] = [
    fc.constant(["-h"]),
    fc.constant(["--help"]),
    fc.constant(["--"]),
  ];
  if (strings.length > 0) {
    const name = fc.constantFrom(...strings);
    poison.push(
      fc.tuple(name, fc.constantFrom(...HOSTILE_VALUES)).map((
        [n, v],
      ) => [`--${n}`, v]),
      name.map((n) => [`--${n}=`]),
    );
    fine.push(name.map((n) => [`--${n}`, "v"]));
  }
  if (flags.length > 0) {
    fine.push(fc.constantFrom(...flags).map((n) => [`--${n}`]));
  }
  return fc.tuple(
    fc.oneof(...poison),
    fc.array(fc.oneof(...fine, ...poison), { maxLength: 4 }),
    fc.nat(),
  ).map(([bad, rest, at]) => {
    const parts = [...rest];
    parts.splice(at % (parts.length + 1), 0, bad);
    return parts.flat();
  });
}

Deno.test("a malformed command line never exits 0 unless it truly asks for help", async (t) => {
  const dir = await Deno.makeTempDir({ prefix: "pawl-args-" });
  const cwd = Deno.cwd();
  // Nothing should be written, but a command that ran would write here.
  Deno.chdir(dir);
  try {
    for (const [words, options] of COMMANDS) {
      await t.step(words.join(" "), async () => {
        await fc.assert(
          fc.asyncProperty(malformed(options), async (rest) => {
            const args = [...words, ...rest];
            const result = await run(args);
            if (asksForHelp(rest, options)) {
              assert.equal(
                result.code,
                0,
                `${args.join(" ")}: ${result.stderr}`,
              );
              assert.match(result.stdout, /^Usage:\n/);
              return;
            }
            assert.equal(result.code, 2, `${args.join(" ")}: ${result.stdout}`);
            // check and diff print the undecided verdict when asked for
            // JSON; nothing else prints on stdout.
            const json = words[0] === "check" || words[0] === "diff"
              ? givesFlag(rest, options, ["--json"])
              : false;
            if (json) {
              assert.equal(
                JSON.parse(result.stdout).decision,
                "undecided",
                args.join(" "),
              );
            } else {
              assert.equal(result.stdout, "", args.join(" "));
            }
            assert.match(
              result.stderr,
              new RegExp(`^pawl ${words.join(" ")}: usage error: `),
              args.join(" "),
            );
          }),
          RUNS,
        );
      });
    }
  } finally {
    Deno.chdir(cwd);
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("pawl help, -h and --help print the usage; a bare pawl is a usage error", async (t) => {
  const cases: [string[], number][] = [
    [["help"], 0],
    [["-h"], 0],
    [["--help"], 0],
    [[], 2],
  ];
  for (const [args, code] of cases) {
    await t.step(args.join(" ") || "(nothing)", async () => {
      const result = await run(args);
      assert.equal(result.code, code);
      assert.match(result.stdout, /^pawl \S+ — a merge gate/);
    });
  }
});

/** The commands `pawl --help` lists. */
async function listedCommands(): Promise<string[]> {
  const { stdout } = await run(["--help"]);
  const block = stdout.split("\nCommands:\n")[1]?.split("\n\n")[0] ?? "";
  return block.split("\n").map((line) => line.trim().split(" ")[0] ?? "");
}

/**
 * The option names a usage text describes: the `--name` (and `-x, --name`,
 * `--a, --b`) at the start of a line of its option list.
 */
function describedOptions(usage: string): Set<string> {
  const names = usage.split("\n").flatMap((line) => {
    const lead = /^ {2,}((?:-\w, )?--[a-z][\w-]*(?:, --[a-z][\w-]*)*)/
      .exec(line);
    return lead === null
      ? []
      : [...lead[1]!.matchAll(/--([a-z][\w-]*)/g)].map((m) => m[1]!);
  });
  return new Set(names);
}

Deno.test("every command's --help describes every option its parser accepts, and no other", async (t) => {
  assert.deepEqual(
    [...new Set(COMMANDS.map(([words]) => words[0]))].sort(),
    (await listedCommands()).sort(),
    "the table here covers every command pawl --help lists",
  );
  for (const [words, options] of COMMANDS) {
    await t.step(words.join(" "), async () => {
      const { code, stdout } = await run([...words, "--help"]);
      assert.equal(code, 0);
      const described = describedOptions(stdout);
      // -h and --help are read by main.ts for every command.
      const accepted = new Set([...Object.keys(options), "help"]);
      const missing = [...accepted].filter((n) => !described.has(n));
      assert.deepEqual(missing, [], `not in the help of ${words.join(" ")}`);
      if (words.length === 1) {
        // "audit report" shares audit's usage, which describes both.
        const unknown = [...described].filter((n) => !accepted.has(n));
        assert.deepEqual(unknown, [], `described but refused`);
      }
    });
  }
});
