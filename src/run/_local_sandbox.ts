/**
 * A `Sandbox` that runs commands as plain child processes, for unit tests
 * of trusted test projects only.
 *
 * @module
 */
import type {
  Sandbox,
  SandboxCommand,
  SandboxResult,
} from "../sandbox/sandbox.ts";

/** Runs each command as a local child process with exactly its environment. */
export class LocalSandbox implements Sandbox {
  /** Tier `none`: nothing is isolated. */
  readonly isolation = {
    tier: "none" as const,
    network: "inherited" as const,
    notes: ["local processes, test only"],
  };
  /** Every command run, in order. */
  readonly calls: SandboxCommand[] = [];

  /** Nothing to prepare. */
  prepareDir(): Promise<void> {
    return Promise.resolve();
  }

  /** Run the command to completion. */
  async run(command: SandboxCommand): Promise<SandboxResult> {
    this.calls.push(command);
    const [program = "", ...args] = command.argv;
    const output = await new Deno.Command(program, {
      args,
      cwd: command.cwd,
      env: { ...command.env },
      clearEnv: true,
      stdout: "piped",
      stderr: "piped",
    }).output();
    const text = new TextDecoder().decode(output.stdout) +
      new TextDecoder().decode(output.stderr);
    return {
      code: output.code,
      signal: null,
      timedOut: false,
      outputExceeded: false,
      outputHead: text.slice(0, 4096),
      outputTail: text.slice(-4096),
      outputBytes: text.length,
    };
  }
}
