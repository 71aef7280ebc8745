/**
 * The gate's ports: everything {@linkcode judgePullRequest} needs from the
 * world besides its options. Each has a real adapter (see
 * `real_gate_ports.ts`) and a fake for tests (`FakeGit`, `FakeSandbox`,
 * `FakeWorkspace`).
 *
 * @module
 */
import type { BytecodeCompiler } from "../run/bytecode_compiler.ts";
import type { AnalysisCache } from "./analysis_cache.ts";
import type { Progress } from "../core/progress.ts";
import type { CloneRepositoryOptions } from "../git/clone_repository.ts";
import type { Git } from "../git/git.ts";
import type {
  IsolationRequest,
  IsolationTrials,
} from "../sandbox/probe_isolation.ts";
import type { Sandbox } from "../sandbox/sandbox.ts";
import type { MutationCache } from "../mutation/mutation_cache.ts";

/**
 * Copy the repository `source` (a path or URL) into `options.dest` and
 * return read access to its objects. The caller closes the returned Git.
 */
export type CloneRepository = (
  source: string,
  options: CloneRepositoryOptions,
) => Promise<Git>;

/** What one judgement asks of its sandbox. */
export interface SandboxRequest {
  /** Requested strength. */
  isolation: IsolationRequest;
  /** Paths the tests must not see (the clone, the signing key's directory). */
  hiddenPaths: readonly string[];
  /**
   * A second sandbox, for a run that overlaps the first one's: it must
   * have a uid of its own, and is made only when one is free at once (the
   * factory throws otherwise and the run waits its turn in the first).
   */
  spare?: boolean;
  /**
   * Aborts when the judgement no longer needs the sandbox (it was asked
   * for ahead and an earlier stage ended the judgement): a factory waiting
   * for a free uid then gives up.
   */
  signal?: AbortSignal;
  /**
   * Isolation trials shared by the sandboxes of one judgement (see
   * `ProbeIsolationOptions.trials`): each tier is tried once for all of
   * them, and they all get the same tier.
   */
  trials?: IsolationTrials;
}

/** A sandbox that may hold resources until it is closed. */
export type GateSandbox = Sandbox & {
  /** Release what the sandbox holds; it is unusable after. */
  close?(): Promise<void>;
  /**
   * Start pawl's bytecode compiler for the working copies this sandbox's
   * runs get (`src/run/bytecode_compiler.ts`): `python` is the interpreter
   * they start, `scratch` a path of the judgement's own for a cache that
   * lasts only the judgement. Absent where the runs do not run as a uid
   * of their own (they could then write the cache) or pawl's environment
   * says `PAWL_BYTECODE_CACHE=off`; undefined when it cannot start.
   */
  startBytecodeCompiler?(
    python: string,
    scratch: string,
  ): Promise<BytecodeCompiler | undefined>;
};

/** Creates the one sandbox a judgement's test stage runs in. */
export type SandboxFactory = (request: SandboxRequest) => Promise<GateSandbox>;

/** A judgement's private temp dir. */
export interface Workspace {
  /** Absolute path of the directory (traversable by the sandbox uid). */
  readonly root: string;
  /** Create the empty directory `root/name` and return its path. */
  mkdir(name: string): Promise<string>;
  /** Write `commit`'s tree into a fresh `root/name` and return its path. */
  export(git: Git, commit: string, name: string): Promise<string>;
  /** Remove the directory and everything in it; never throws. */
  remove(): Promise<void>;
}

/**
 * Open a workspace whose directory is preferably called `name` (so paths
 * quoted in test output are the same on every run of the same inputs).
 */
export type OpenWorkspace = (name: string) => Promise<Workspace>;

/** Everything a judgement reaches the world through. */
export interface GatePorts {
  /** Repository access. */
  clone: CloneRepository;
  /** The sandbox for the test stage. */
  sandbox: SandboxFactory;
  /** Temp dirs. */
  workspace: OpenWorkspace;
  /** Progress of long steps. */
  progress: Progress;
  /** Opens the runner's cache of mutant results (none: every mutant runs). */
  mutationCache?: () => Promise<MutationCache>;
  /** Opens the runner's cache of Python analyses (none: every source is parsed). */
  analysisCache?: () => Promise<AnalysisCache | undefined>;
}
