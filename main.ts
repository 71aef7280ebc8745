/**
 * pawl — a merge gate for pull requests written by coding agents.
 *
 * Parses the command, reads the environment once, runs, and maps errors to
 * the stable exit codes: 0 accept, 1 reject, 2 could not decide.
 *
 * @module
 */
import { type CliIo, processIo } from "./src/cli/cli_io.ts";
import { EXIT } from "./src/cli/exit_code.ts";
import {
  type CommandOptions,
  parseCommandArgs,
  UsageError,
  usageErrorText,
  wantsHelp,
} from "./src/cli/parse_command_args.ts";
import { optionsHelp } from "./src/cli/options_help.ts";
import { VERSION } from "./src/version.ts";

/** A command's code and its usage text, loaded only when the command is used. */
interface LoadedCommand {
  /** What `pawl COMMAND --help` prints. */
  usage: string;
  /** The command as a usage error names it, when not the first word alone (`audit report`). */
  name?: string;
  /**
   * The command's option table: help is asked for only by an `-h` or
   * `--help` that is not the value of one of these options.
   */
  options: CommandOptions;
  /** Run the command with the arguments after its name; the exit code. */
  run(args: readonly string[], io: CliIo): Promise<number>;
}

/**
 * Every command, with the line `pawl --help` shows for it. Each loads its
 * module on first use, so `pawl version` and `pawl --help` load neither the
 * GitHub client, the Python parser nor the signing code.
 */
const COMMANDS: Readonly<
  Record<string, {
    summary: string;
    load(args: readonly string[]): Promise<LoadedCommand>;
  }>
> = {
  check: {
    summary: "judge a pull request: contract diff, tests in a sandbox, verdict",
    load: (args) => loadCheck(args, { runTests: true }),
  },
  diff: {
    summary: "the static rules only; executes nothing from the repository",
    load: (args) => loadCheck(args, { runTests: false }),
  },
  audit: {
    summary: "judge past pull requests of a GitHub repository; report",
    load: async (args) => {
      const m = await import("./src/cli/audit_command.ts");
      return {
        usage: m.AUDIT_USAGE,
        ...(args[0] === "report" ? { name: "audit report" } : {}),
        options: args[0] === "report"
          ? m.AUDIT_REPORT_OPTIONS
          : m.AUDIT_OPTIONS,
        run: m.auditCommand,
      };
    },
  },
  demo: {
    summary: "run the gate on a built-in sample repository",
    load: async () => {
      const m = await import("./src/cli/demo_command.ts");
      return {
        usage: m.DEMO_USAGE,
        options: m.DEMO_OPTIONS,
        run: m.demoCommand,
      };
    },
  },
  propose: {
    summary: "print a candidate contract for a repository that has none",
    load: async () => {
      const m = await import("./src/cli/propose_command.ts");
      return {
        usage: m.PROPOSE_USAGE,
        options: m.PROPOSE_OPTIONS,
        run: m.proposeCommand,
      };
    },
  },
  keygen: {
    summary: "write an Ed25519 key pair for signing verdicts (check --key)",
    load: async () => {
      const m = await import("./src/cli/keygen_command.ts");
      return {
        usage: m.KEYGEN_USAGE,
        options: m.KEYGEN_OPTIONS,
        run: m.keygenCommand,
      };
    },
  },
  verify: {
    summary:
      "check a signed verdict against a public key (exit 0 valid, 1 not)",
    load: async () => {
      const m = await import("./src/cli/verify_command.ts");
      return {
        usage: m.VERIFY_USAGE,
        options: m.VERIFY_OPTIONS,
        run: m.verifyCommand,
      };
    },
  },
  serve: {
    summary: "the GitHub App webhook server that judges every pull request",
    load: async () => {
      const m = await import("./src/cli/serve_command.ts");
      return {
        usage: m.SERVE_USAGE,
        options: m.SERVE_OPTIONS,
        run: m.serveCommand,
      };
    },
  },
  version: {
    summary: "print the version",
    load: () =>
      Promise.resolve({
        usage: VERSION_USAGE,
        options: {},
        run: versionCommand,
      }),
  },
};

const USAGE = `pawl ${VERSION} — a merge gate for agent-written pull requests

Usage: pawl COMMAND [options]

Commands:
${
  Object.entries(COMMANDS).map(([name, c]) =>
    `  ${name.padEnd(8)} ${c.summary}`
  )
    .join("\n")
}

"pawl COMMAND --help" prints a command's usage and options.
Exit codes: 0 accept, 1 reject, 2 could not decide or a usage error.
`;

const VERSION_USAGE = `Usage:
  pawl version

Prints pawl's version ("pawl --version" does the same).

Options:
${optionsHelp({})}`;

/** Run pawl with `args`; returns the exit code. */
export async function main(
  args: readonly string[],
  io: CliIo,
): Promise<number> {
  const [requested, ...rest] = args;
  switch (requested) {
    case undefined:
    case "help":
    case "--help":
    case "-h":
      io.out(USAGE);
      return requested === undefined ? EXIT.undecided : 0;
  }
  const name = requested === "--version" ? "version" : requested;
  const command = Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined;
  if (command === undefined) {
    io.err(`pawl: unknown command "${name}"\n\n${USAGE}`);
    return EXIT.undecided;
  }
  let loaded: LoadedCommand | undefined;
  try {
    loaded = await command.load(rest);
    if (wantsHelp(rest, loaded.options)) {
      io.out(loaded.usage);
      return 0;
    }
    return await loaded.run(rest, io);
  } catch (error) {
    if (error instanceof UsageError) {
      io.err(
        usageErrorText(loaded?.name ?? name, error.message, loaded?.usage),
      );
      return EXIT.undecided;
    }
    const message = error instanceof Error ? error.message : String(error);
    io.err(`pawl: could not decide: ${message}\n`);
    if (io.env["PAWL_DEBUG"] === "1" && error instanceof Error) {
      io.err(`${error.stack ?? ""}\n`);
    }
    return EXIT.undecided;
  }
}

/**
 * `check` and `diff`: the entry that starts the clone before the command's
 * code loads. `--help` loads the whole command, as a run does (the image
 * fills its code cache by running each command's `--help`).
 */
async function loadCheck(
  args: readonly string[],
  options: { runTests: boolean },
): Promise<LoadedCommand> {
  const [m, { CHECK_OPTIONS, checkUsage }] = await Promise.all([
    import("./src/cli/check_start.ts"),
    import("./src/cli/_check_options.ts"),
  ]);
  const usage = checkUsage(options.runTests ? "check" : "diff");
  if (wantsHelp(args, CHECK_OPTIONS)) {
    const command = await import("./src/cli/check_command.ts");
    return {
      usage,
      options: CHECK_OPTIONS,
      run: (rest, io) => command.checkCommand(rest, io, options),
    };
  }
  return {
    usage,
    options: CHECK_OPTIONS,
    run: (rest, io) => m.checkStart(rest, io, options),
  };
}

/** `pawl version`: print the version. */
function versionCommand(args: readonly string[], io: CliIo): Promise<number> {
  parseCommandArgs(args, {});
  io.out(`pawl ${VERSION}\n`);
  return Promise.resolve(0);
}

if (import.meta.main) {
  Deno.exit(await main(Deno.args, processIo()));
}
