/**
 * An in-memory `Sandbox` for other components' unit tests: nothing is
 * isolated, a handler decides how each run ends.
 *
 * @module
 */
import type {
  IsolationReport,
  PrepareDirOptions,
  Sandbox,
  SandboxCommand,
  SandboxResult,
} from "./sandbox.ts";

/**
 * Decides how one run ends. It may write files into `command.cwd` or a
 * writable directory first, as the real tests would (a JUnit report, say).
 */
export type FakeSandboxHandler = (
  command: SandboxCommand,
) => Promise<Partial<SandboxResult>> | Partial<SandboxResult>;

/** Options for {@linkcode FakeSandbox}. */
export interface FakeSandboxOptions {
  /** The isolation to report (default: tier `none`, network inherited). */
  isolation?: IsolationReport;
}

/**
 * A `Sandbox` that runs nothing: each `run` records the command and returns
 * what the handler gives, with the rest filled in as a clean exit. When the
 * handler gives `outputHead`, `onOutput` receives it, `outputTail` defaults
 * to it and `outputBytes` to its UTF-8 length.
 *
 * @example
 * ```ts
 * import { FakeSandbox } from "./fake_sandbox.ts";
 * const sandbox = new FakeSandbox(() => ({ code: 1, outputHead: "1 failed" }));
 * const result = await sandbox.run({
 *   argv: ["pytest"],
 *   cwd: "/tmp",
 *   env: {},
 *   writable: [],
 * });
 * console.assert(result.code === 1 && result.outputBytes === 8);
 * console.assert(sandbox.commands.length === 1);
 * ```
 */
export class FakeSandbox implements Sandbox {
  /** What isolation this fake claims. */
  readonly isolation: IsolationReport;
  /** Every command received, in order. */
  readonly commands: SandboxCommand[] = [];
  /** Every directory passed to `prepareDir`, in order. */
  readonly preparedDirs: string[] = [];
  /** Those of `preparedDirs` passed with `sharedFiles`. */
  readonly sharedDirs: string[] = [];
  /** Whether {@linkcode FakeSandbox.close} was called. */
  closed = false;
  #handler: FakeSandboxHandler;

  /** Create a fake whose runs end as `handler` says. */
  constructor(handler: FakeSandboxHandler, options: FakeSandboxOptions = {}) {
    this.#handler = handler;
    this.isolation = options.isolation ??
      { tier: "none", network: "inherited", notes: ["fake sandbox"] };
  }

  /** Record `dir`; ownership is not changed. */
  prepareDir(dir: string, options: PrepareDirOptions = {}): Promise<void> {
    this.preparedDirs.push(dir);
    if (options.sharedFiles === true) this.sharedDirs.push(dir);
    return Promise.resolve();
  }

  /** Record that the owner released the sandbox. */
  close(): Promise<void> {
    this.closed = true;
    return Promise.resolve();
  }

  /** Record `command` and answer with the handler's result. */
  async run(command: SandboxCommand): Promise<SandboxResult> {
    this.commands.push(command);
    const partial = await this.#handler(command);
    const head = partial.outputHead ?? "";
    const bytes = new TextEncoder().encode(head);
    if (bytes.length > 0) command.onOutput?.(bytes);
    return {
      code: partial.signal != null ? null : 0,
      signal: null,
      timedOut: false,
      outputExceeded: false,
      outputHead: head,
      outputTail: head,
      outputBytes: bytes.length,
      ...partial,
    };
  }
}
