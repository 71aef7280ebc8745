/**
 * The verdict: the gate's product. Everything in it is derived from the
 * inputs (repository, revisions, `--now`, flags), so the same inputs give
 * byte-identical JSON.
 *
 * @module
 */
import type { Finding } from "./finding.ts";
import { LAYERS, RULES } from "./rules.ts";

/** The gate's decision. */
export type Decision = "accept" | "reject";

/** A contract file the decision rests on (read from the base commit). */
export interface ContractFileRef {
  /** Repository-relative path. */
  path: string;
  /** Which seed layout the file belongs to. */
  layout: string;
  /** sha256 of the base commit's bytes. */
  sha256: string;
}

/** Which hash a frozen test's recorded body hash matched (seed 003). */
export interface FreezeBodyHashRecord {
  /** Freeze id. */
  freeze: string;
  /** `function` (sliced source), `file` (whole file), or `none`. */
  bodyHash: string;
}

/** The contract the decision rests on. */
export interface ContractReport {
  /** Layouts found at the base commit. */
  layouts: string[];
  /** Base contract files with their digests. */
  files: ContractFileRef[];
  /** sha256 over the files list. */
  digest: string;
  /** Seed 003 freezes: which body hash matched. */
  freezeBodyHashes: FreezeBodyHashRecord[];
}

/** Counts over the per-test results. */
export interface TestSummary {
  /** Test cases reported. */
  total: number;
  /** Passed. */
  passed: number;
  /** Failed. */
  failed: number;
  /** Errored. */
  errors: number;
  /** Skipped (xfail excluded). */
  skipped: number;
  /** xfailed. */
  xfailed: number;
}

/** One registered property's outcome in the run. */
export interface PropertyResult {
  /** Contract layout (`000`, `003`, `002`). */
  layout: string;
  /** Contract id. */
  id: string;
  /** `passed` or why it did not pass. */
  outcome: string;
}

/** One frozen test's reruns. */
export interface RerunRecord {
  /** Freeze id. */
  freeze: string;
  /** Test the freeze covers, as the contract names it. */
  test: string;
  /** pytest node ids that were rerun. */
  selected: string[];
  /** Reruns used. */
  used: number;
  /** Reruns the freeze allowed. */
  allowed: number;
  /** Whether a rerun passed. */
  passed: boolean;
}

/** One frozen seed's replay. */
export interface ReplayRecord {
  /** Freeze id. */
  freeze: string;
  /** Test replayed (pytest node id). */
  test: string;
  /** The pinned seed. */
  seed: number;
  /** Whether the test passed on it. */
  passed: boolean;
}

/** Seeds used by the run. */
export interface SeedsReport {
  /** The run's fresh seed, derived from (head commit, `--now`). */
  fresh: number;
  /** `CONTRACT_TRIALS` on the fresh run, when a contract sets one. */
  trials: number | null;
  /** Replays of unexpired frozen seeds. */
  replays: ReplayRecord[];
}

/**
 * What the oracle-strength rule ran (`[mutation]`): how many mutants were
 * made, selected, run, killed, survived and timed out at the base, and
 * what the cap and the time budget cut. How many outcomes came from the
 * runner's cache is not part of it: the verdict is the same with a cold
 * cache and a warm one.
 */
export interface MutationReport {
  /** How the functions mutated were found (`import analysis`). */
  reach: string;
  /** The seed the sample of untouched functions' mutants was drawn from (fixed by the base commit). */
  sampleSeed: number;
  /** The fixed Hypothesis seed every mutant ran with (derived from the base commit). */
  runSeed: number;
  /** Mutants made of the reachable files. */
  generated: number;
  /** Mutants selected (touched functions first, then the sample). */
  selected: number;
  /** Of `selected`, those in functions the pull request touched. */
  touched: number;
  /** Mutants run against the base's oracle (or taken from the cache). */
  ran: number;
  /** Of `ran`, killed by a base property (a failure or error). */
  killed: number;
  /** Of `ran`, killed by no base property. */
  survived: number;
  /** Of `ran`, runs the time limit stopped or Hypothesis called too slow or flaky (killed for mutation tools; never a weakening). */
  timedOut: number;
  /** Of `ran`, runs whose report pawl's observer could not confirm (never counted as killed or survived). */
  unknown?: number;
  /** Mutants left out by `max_mutants`. */
  cutByCap: number;
  /** Selected mutants the time budget left unrun. */
  cutByBudget: number;
  /** Selected mutants no base test executes on the unmutated code: never run (coverage comes from the warm engine's baseline; 0 when every mutant ran one process each; absent in verdicts made before it was counted). */
  notCovered?: number;
  /** Mutants a base property kills and the same head property does not. */
  weakened: number;
  /** Why no mutant was made or run, when none could change a kill set (absent when they ran). */
  notRun?: string;
  /** The base's tests on the base's code and on the head's, against mutants of code the pull request did not change (absent when its code side is the base's). */
  blinding?: BlindingReport;
}

/** Counts of the check that the code under test did not blind the oracle. */
export interface BlindingReport {
  /** Mutants made of code the pull request did not change, in the files the properties reach. */
  generated: number;
  /** Mutants selected (those in files the pull request changed first). */
  selected: number;
  /** Mutants left out by `max_mutants`. */
  cutByCap: number;
  /** Selected mutants the time budget left unrun. */
  cutByBudget: number;
  /** Selected mutants whose runs were lost (a driver went away, lines run only at import, a baseline that could not be trusted). */
  lost: number;
  /** Mutants run on the base's code. */
  ran: number;
  /** Of `ran`, killed by a base property on the base's code. */
  killed: number;
  /** Of `killed`, ones no killing property's tests execute on the head's code (not judged). */
  notExecuted: number;
  /** Of `killed`, ones the same tests let survive on the head's code, executing them. */
  blinded: number;
  /** Why none ran, when none did. */
  notRun?: string;
}

/** What the test stage observed (absent when the suite was not run). */
export interface TestsReport {
  /** The base's `[environment]` the tests ran with (absent in verdicts made before it was recorded). */
  environment?: EnvironmentRecord;
  /** The base's `[environment.setup]` step whose result the tests saw, when it has one. */
  setup?: SetupRecord;
  /** Counts. */
  summary: TestSummary;
  /** Registered properties, sorted by id. */
  properties: PropertyResult[];
  /** Reruns of frozen tests. */
  reruns: RerunRecord[];
  /** Seeds: the fresh one and the frozen replays. */
  seeds: SeedsReport;
  /** The oracle-strength rule's counts, when `[mutation]` is on. */
  mutation?: MutationReport;
  /** The changed code of the pull request and how much of it the suite ran, when it changed any (`[coverage]`). */
  changedCode?: ChangedCodeReport;
}

/** The lines the pull request added or changed in the code under test, and what the suite's run saw of them. */
export interface ChangedCodeReport {
  /** Changed lines (blank lines and comments included). */
  changed: number;
  /** `yes` when the suite's run traced them, `removed` when code under test switched the line probes off, `absent` when the run reported none. */
  traced: "yes" | "removed" | "absent";
  /** Of `changed`, the lines with code on them (traced runs only). */
  executable?: number;
  /** Of `executable`, those no test executed (traced runs only). */
  unexecuted?: number;
  /** Executable changed lines of files a module was loaded from without pawl's probes: neither run nor unexecuted (absent when none). */
  unknown?: number;
  /** Mutants on changed lines that survive every base property. */
  survivors: number;
}

/** The interpreter, import path and variables every test run had. */
export interface EnvironmentRecord {
  /** argv of the test command, `[environment] python` in place (before seed and selection flags). */
  command: string[];
  /** The base's `[environment] python`, when it sets one. */
  python?: string;
  /** The base's `[environment] pythonpath` entries, in order. */
  pythonpath: string[];
  /** Names (sorted) of the base's `[environment] env` variables; their values are in the base's `pawl.toml`. */
  env: string[];
}

/** The sandbox the suite ran in. */
export interface IsolationRecord {
  /** Tier name (`bwrap`, `unshare`, `uid`, `none`). */
  tier: string;
  /** Whether the sandbox itself cut the network. */
  network: string;
}

/**
 * Where the verdict's clock came from, when it was not `--now`: `event`
 * means the GitHub Actions event payload, `merged-at` and `created-at` the
 * pull request's own timestamps as the API reported them (`pawl audit
 * --now-from`); `field` names the field read (`pull_request.updated_at`,
 * `pull_request.merged_at`). A verdict without it used `--now`.
 */
export interface ClockRecord {
  /**
   * `flag` (`--now`), `event` (the Actions event payload), or the pull
   * request's `merged-at` / `created-at` (an audit of past pull requests).
   */
  source: "flag" | "event" | "merged-at" | "created-at";
  /** The field read, for every source but `flag`. */
  field?: string;
}

/** A test the base's `pawl.toml` excuses on this runner. */
export interface ExcuseRecord {
  /** The pytest node id (or file) excused. */
  test: string;
  /** The human who owns the excuse, as written. */
  owner: string;
  /** Why the test cannot pass on this runner. */
  reason: string;
  /** The excuse's expiry (RFC 3339), compared with `now`. */
  expires: string;
  /** `active`: deselected from every run; `expired`: it ran like any test. */
  status: "active" | "expired";
}

/** A signed-off decision about one pull request. */
export interface Verdict {
  /** Producer and version. */
  pawl: { version: string };
  /** accept or reject. */
  decision: Decision;
  /** The orchestrator's clock, as given. */
  now: string;
  /** Where `now` came from; absent when it was `--now`. */
  clock?: ClockRecord;
  /** Repository as given on the command line. */
  repo: string;
  /** Full base commit id. */
  base: string;
  /** Full head commit id. */
  head: string;
  /** The contract the decision rests on. */
  contract: ContractReport;
  /** Flags that change the judgement. */
  options: { allowFixtureRotate: boolean; isolation: string };
  /** Sandbox used for the run, or null when nothing was executed. */
  isolation: IsolationRecord | null;
  /** Every finding, sorted; blocking ones decide. */
  findings: Finding[];
  /** Test results, or null when the suite was not run. */
  tests: TestsReport | null;
  /** Excuses of the base's `pawl.toml`, when it has any. */
  excuses?: ExcuseRecord[];
}

/** Everything {@linkcode buildVerdict} needs except the findings. */
export type VerdictInput = Omit<Verdict, "decision" | "findings">;

/**
 * Assemble a verdict: the decision is `reject` exactly when a blocking
 * finding exists. Findings are sorted so output is reproducible.
 *
 * @example
 * ```ts
 * import { buildVerdict } from "./verdict.ts";
 * import { finding } from "./finding.ts";
 * const v = buildVerdict([finding("property.removed", "Property \"a\" was removed")], {
 *   pawl: { version: "0" }, now: "2026-11-30T12:00:00Z", repo: ".", base: "b", head: "h",
 *   contract: { layouts: [], files: [], digest: "", freezeBodyHashes: [] }, options: { allowFixtureRotate: false, isolation: "auto" },
 *   isolation: null, tests: null,
 * });
 * if (v.decision !== "reject") throw new Error("unexpected");
 * ```
 */
export function buildVerdict(
  findings: readonly Finding[],
  input: VerdictInput,
): Verdict {
  const sorted = [...findings].sort(compareFindings);
  const decision: Decision = sorted.some((f) => f.blocking)
    ? "reject"
    : "accept";
  return {
    pawl: input.pawl,
    decision,
    now: input.now,
    ...(input.clock === undefined ? {} : { clock: input.clock }),
    repo: input.repo,
    base: input.base,
    head: input.head,
    contract: input.contract,
    options: input.options,
    isolation: input.isolation,
    findings: sorted,
    tests: input.tests,
    ...(input.excuses === undefined ? {} : { excuses: input.excuses }),
  };
}

const RULE_ORDER = new Map(Object.keys(RULES).map((rule, i) => [rule, i]));

/** Blocking first, then layer, then the registry's order (most telling rule first), then place. */
function compareFindings(a: Finding, b: Finding): number {
  return Number(b.blocking) - Number(a.blocking) ||
    LAYERS.indexOf(a.layer) - LAYERS.indexOf(b.layer) ||
    (RULE_ORDER.get(a.rule) ?? 0) - (RULE_ORDER.get(b.rule) ?? 0) ||
    cmp(a.path ?? "", b.path ?? "") ||
    (a.line ?? 0) - (b.line ?? 0) ||
    cmp(a.rule, b.rule) ||
    cmp(a.message, b.message);
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Which setup result the tests ran with (the same whether it was cached or made). */
export interface SetupRecord {
  /** The runner's cache key (sha256 hex). */
  key: string;
  /** argv of the base's setup command. */
  command: string[];
  /** Whether the step had the network. */
  network: boolean;
  /** The base's input files: path and sha256. */
  inputs: { path: string; sha256: string }[];
}
