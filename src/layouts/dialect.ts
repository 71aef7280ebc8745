/**
 * A contract dialect: one of the seeds' file layouts (000, 003, 002). Each
 * dialect is pure: the shell reads the files a dialect names from git
 * objects and hands their bytes, trees, parsed sources and `now` to it; the
 * dialect returns findings and a plan for the test stage.
 *
 * @module
 */
import type { Finding } from "../core/finding.ts";
import type { ContractFileRef, FreezeBodyHashRecord } from "../core/verdict.ts";
import type { ChangedPath, Tree } from "../git/git.ts";
import type { PythonModule } from "../python/python_module.ts";
import type { ParsedTexts } from "./parsed_texts.ts";

/** The layouts pawl knows, by the seed that defines them. */
export type DialectId = "000" | "003" | "002";

/** One contract file as the shell found it in a commit. */
export type ContractBlob =
  /** A regular file; `text` is its UTF-8 content (invalid UTF-8 is `null`). */
  | { kind: "file"; text: string | null; bytes: Uint8Array }
  /** A symlink: never followed. */
  | { kind: "symlink" }
  /** A directory or submodule at the contract path. */
  | { kind: "other" }
  /** Larger than the contract size cap (`limit` bytes); not read. */
  | { kind: "oversize"; size: number; limit: number };

/** Contract files of one commit, keyed by path (absent = not in the tree). */
export type ContractBlobs = ReadonlyMap<string, ContractBlob>;

/** What a dialect needs from the shell beyond its own contract files. */
export interface DialectReads {
  /** Python files to analyse at head. */
  headModules: readonly string[];
  /** Python files to analyse at base. */
  baseModules: readonly string[];
  /** Files whose head bytes must be SHA-256 hashed (streamed). */
  headDigests: readonly string[];
}

/** Settings that change what a dialect reads. */
export interface ReadsOptions {
  /** The base `pawl.toml`'s `[fixtures] roots`; absent: the layout's default. */
  fixtureRoots?: readonly string[] | undefined;
}

/** Everything the static rules of a dialect may look at. */
export interface StaticInput {
  /** The orchestrator's clock, epoch milliseconds. */
  now: number;
  /** The clock as given (RFC 3339), for date-only comparisons. */
  nowText: string;
  /** Base tree listing. */
  baseTree: Tree;
  /** Head tree listing. */
  headTree: Tree;
  /** Paths that differ base → head. */
  changes: readonly ChangedPath[];
  /** Head analyses of the files `reads().headModules` named (and changed .py files). */
  headModules: ReadonlyMap<string, PythonModule>;
  /** Base analyses of the files `reads().baseModules` named (and changed .py files). */
  baseModules: ReadonlyMap<string, PythonModule>;
  /** SHA-256 hex of the head bytes of every path `reads().headDigests` named. */
  digests: ReadonlyMap<string, string>;
  /** A human started this run and allows fixture rotation. */
  allowFixtureRotate: boolean;
  /**
   * The base `pawl.toml`'s `[fixtures] roots` (`.` is the whole
   * repository); absent: each layout's own default.
   */
  fixtureRoots?: readonly string[] | undefined;
  /** The base `pawl.toml`'s `[environment] env`: the variables every test run gets. */
  testEnv?: Readonly<Record<string, string>> | undefined;
}

/** A registered property the test stage must see pass. */
export interface PlannedProperty {
  /** Contract id, unique within the dialect. */
  id: string;
  /** Dotted module, e.g. `tests.properties.test_parse`. */
  module: string;
  /** Test function, `test_x` or `Class.test_x`. */
  name: string;
}

/** A frozen test that may be rerun on failure (seed 000's freezes). */
export interface PlannedRerun {
  /** Freeze id. */
  id: string;
  /** Test name or node id the freeze covers. */
  test: string;
  /** Reruns allowed. */
  remainingReruns: number;
}

/** A frozen seed to replay (seed 002's freezes). */
export interface PlannedReplay {
  /** Freeze id. */
  id: string;
  /** pytest node id of the test to replay. */
  test: string;
  /** The pinned seed. */
  seed: number;
  /** The freeze's witness hash, for the report. */
  witness: string;
}

/** What a dialect asks of the test stage. */
export interface TestPlan {
  /** Registered properties that must be collected, run and pass. */
  properties: readonly PlannedProperty[];
  /** Frozen tests with a rerun budget. */
  reruns: readonly PlannedRerun[];
  /** Tests excluded from the gate while their freeze lasts (seed 003). */
  deselect: readonly string[];
  /** Frozen seeds to replay; each must pass. */
  replays: readonly PlannedReplay[];
  /** Tests under an unexpired freeze: a fresh-seed failure is reported, not blocking (seed 002). */
  nonBlocking: readonly string[];
  /** `CONTRACT_TRIALS` for the fresh-seed run, when the dialect sets one. */
  trials?: number;
}

/**
 * What a layout adds to the verdict's contract report beyond its files;
 * a layout that adds nothing returns {@linkcode NO_VERDICT_FACTS}.
 */
export interface VerdictFacts {
  /** Seed 003 freezes: which body hash each frozen test matched. */
  freezeBodyHashes: readonly FreezeBodyHashRecord[];
}

/** The verdict facts of a layout that adds nothing to the verdict. */
export const NO_VERDICT_FACTS: VerdictFacts = { freezeBodyHashes: [] };

/** A dialect whose base (and, if valid, head) contract was read. */
export interface LoadedDialect {
  /** Which layout. */
  id: DialectId;
  /** Base contract files the decision rests on, with their digests. */
  files: readonly ContractFileRef[];
  /** Findings from reading the head side (removed, symlinked, invalid files). */
  loadFindings: readonly Finding[];
  /** What the shell must read for {@linkcode LoadedDialect.check}. */
  reads(baseTree: Tree, headTree: Tree, options?: ReadsOptions): DialectReads;
  /** The static rules: schema, digests, hygiene, freezes, the base → head diff. */
  check(input: StaticInput): Finding[];
  /** What the test stage must run and see pass. */
  plan(input: StaticInput): TestPlan;
  /** The layout's additions to the verdict. */
  verdictFacts(input: StaticInput): VerdictFacts;
}

/** A layout pawl can detect and load. */
export interface Dialect {
  /** Which layout. */
  id: DialectId;
  /** Every contract file of the layout; the first must exist for the layout to be present. */
  files: readonly string[];
  /** Whether the layout is present in a commit (from its tree). */
  presentIn(tree: Tree): boolean;
  /**
   * Read a small built-in sample of the layout's contract, so its readers'
   * code is compiled before a repository's contract arrives (see
   * `src/gate/warm_up.ts`); reads nothing from any repository.
   */
  warmUp?(): void;
  /**
   * Load the layout from the base and head contract files. Throws
   * `ContractSyntaxError` when the base side cannot be read (could not
   * decide); head-side problems become `loadFindings`.
   */
  load(
    base: ContractBlobs,
    head: ContractBlobs,
    options?: LoadOptions,
  ): LoadedDialect;
}

/** Options for {@linkcode Dialect.load}. */
export interface LoadOptions {
  /** Texts this judgement already parsed, shared between its loads. */
  parsed?: ParsedTexts;
}
