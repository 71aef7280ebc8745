/**
 * pawl — a merge gate for pull requests written by coding agents.
 *
 * Parses the command, reads the environment once, runs, and maps errors to
 * the stable exit codes: 0 accept, 1 reject, 2 could not decide.
 *
 * @module
 */
import { auditCommand } from "./src/cli/audit_command.ts";
import { CHECK_USAGE, checkCommand } from "./src/cli/check_command.ts";
import { type CliIo, processIo } from "./src/cli/cli_io.ts";
import { demoCommand } from "./src/cli/demo_command.ts";
import { EXIT } from "./src/cli/exit_code.ts";
import { keygenCommand } from "./src/cli/keygen_command.ts";
import { proposeCommand } from "./src/cli/propose_command.ts";
import { verifyCommand } from "./src/cli/verify_command.ts";
import { VERSION } from "./src/version.ts";

const USAGE = `pawl ${VERSION} — a merge gate for agent-written pull requests

Commands:
  check    judge a pull request: contract diff, tests in a sandbox, verdict
  diff     the static rules only; executes nothing from the repository
  audit    judge past pull requests of a GitHub repository; report (audit --help)
  demo     run the gate on a built-in sample repository
  propose  print a candidate contract for a repository that has none
  keygen   write an Ed25519 key pair for signing verdicts (check --key)
  verify   check a signed verdict against a public key (exit 0 valid, 1 not)
  version  print the version

${CHECK_USAGE}`;

/** Run pawl with `args`; returns the exit code. */
export async function main(
  args: readonly string[],
  io: CliIo,
): Promise<number> {
  const [command, ...rest] = args;
  try {
    switch (command) {
      case "check":
        return await checkCommand(rest, io, { runTests: true });
      case "diff":
        return await checkCommand(rest, io, { runTests: false });
      case "audit":
        return await auditCommand(rest, io);
      case "demo":
        return await demoCommand(rest, io);
      case "propose":
        return await proposeCommand(rest, io);
      case "keygen":
        return await keygenCommand(rest, io);
      case "verify":
        return await verifyCommand(rest, io);
      case "version":
      case "--version":
        io.out(`pawl ${VERSION}\n`);
        return 0;
      case undefined:
      case "help":
      case "--help":
      case "-h":
        io.out(USAGE);
        return command === undefined ? EXIT.undecided : 0;
      default:
        io.err(`pawl: unknown command "${command}"\n\n${USAGE}`);
        return EXIT.undecided;
    }
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    io.err(`pawl: could not decide: ${message}\n`);
    if (io.env["PAWL_DEBUG"] === "1" && error instanceof Error) {
      io.err(`${error.stack ?? ""}\n`);
    }
    return EXIT.undecided;
  }
}

if (import.meta.main) {
  Deno.exit(await main(Deno.args, processIo()));
}
