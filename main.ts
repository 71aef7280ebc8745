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
import { VERSION } from "./src/version.ts";

/** A command's code, loaded only when the command runs. */
type Run = (args: readonly string[], io: CliIo) => Promise<number>;

/**
 * Every command, with the line `pawl --help` shows for it. Each loads its
 * module on first use, so `pawl version` and `pawl --help` load neither the
 * GitHub client, the Python parser nor the signing code.
 */
const COMMANDS: Readonly<
  Record<string, { summary: string; load(): Promise<Run> }>
> = {
  check: {
    summary: "judge a pull request: contract diff, tests in a sandbox, verdict",
    load: async () => {
      const { checkCommand } = await import("./src/cli/check_command.ts");
      return (args, io) => checkCommand(args, io, { runTests: true });
    },
  },
  diff: {
    summary: "the static rules only; executes nothing from the repository",
    load: async () => {
      const { checkCommand } = await import("./src/cli/check_command.ts");
      return (args, io) => checkCommand(args, io, { runTests: false });
    },
  },
  audit: {
    summary: "judge past pull requests of a GitHub repository; report",
    load: async () => (await import("./src/cli/audit_command.ts")).auditCommand,
  },
  demo: {
    summary: "run the gate on a built-in sample repository",
    load: async () => (await import("./src/cli/demo_command.ts")).demoCommand,
  },
  propose: {
    summary: "print a candidate contract for a repository that has none",
    load: async () =>
      (await import("./src/cli/propose_command.ts")).proposeCommand,
  },
  keygen: {
    summary: "write an Ed25519 key pair for signing verdicts (check --key)",
    load: async () =>
      (await import("./src/cli/keygen_command.ts")).keygenCommand,
  },
  verify: {
    summary:
      "check a signed verdict against a public key (exit 0 valid, 1 not)",
    load: async () =>
      (await import("./src/cli/verify_command.ts")).verifyCommand,
  },
  version: {
    summary: "print the version",
    load: () => Promise.resolve(versionCommand),
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

"pawl COMMAND --help" prints a command's options.
Exit codes: 0 accept, 1 reject, 2 could not decide.
`;

/** Run pawl with `args`; returns the exit code. */
export async function main(
  args: readonly string[],
  io: CliIo,
): Promise<number> {
  const [name, ...rest] = args;
  switch (name) {
    case "--version":
      return await versionCommand(rest, io);
    case undefined:
    case "help":
    case "--help":
    case "-h":
      io.out(USAGE);
      return name === undefined ? EXIT.undecided : 0;
  }
  const command = Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined;
  if (command === undefined) {
    io.err(`pawl: unknown command "${name}"\n\n${USAGE}`);
    return EXIT.undecided;
  }
  try {
    const run = await command.load();
    return await run(rest, io);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    io.err(`pawl: could not decide: ${message}\n`);
    if (io.env["PAWL_DEBUG"] === "1" && error instanceof Error) {
      io.err(`${error.stack ?? ""}\n`);
    }
    return EXIT.undecided;
  }
}

/** `pawl version`: print the version. */
function versionCommand(_args: readonly string[], io: CliIo): Promise<number> {
  io.out(`pawl ${VERSION}\n`);
  return Promise.resolve(0);
}

if (import.meta.main) {
  Deno.exit(await main(Deno.args, processIo()));
}
