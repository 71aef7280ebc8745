/**
 * Stage 3: the static rules. Every layout's rules and the harness rules
 * over both trees, the parsed test sources and the fixture digests;
 * nothing from the repository runs.
 *
 * @module
 */
import { plural } from "../core/plural.ts";
import type { Finding } from "../core/finding.ts";
import type { Instant } from "../core/parse_now.ts";
import type { Progress } from "../core/progress.ts";
import type { ReadsOptions, StaticInput } from "../layouts/dialect.ts";
import type { Git } from "../git/git.ts";
import {
  harnessConfigPaths,
  type HarnessJudgement,
  judgeHarness,
} from "../harness/mod.ts";
import type { AssertionRewrite } from "../contract/check_registered_tests.ts";
import {
  BaseProblemError,
  baseProblems,
  type LoadedDialect,
} from "../layouts/mod.ts";
import type { Tree } from "../git/git.ts";
import { readModuleNames } from "./read_module_names.ts";
import { type TestEnvironment, testEnvironment } from "./test_environment.ts";
import type { AnalysisCache } from "./analysis_cache.ts";
import { analyzeModules } from "./analyze_modules.ts";
import type { Contracts } from "./load_contracts.ts";
import type { Commits } from "./read_commits.ts";
import { readConfigTexts } from "./read_config_texts.ts";
import { type ExcuseJudgement, judgeExcuses } from "./judge_excuses.ts";
import { guardedTests } from "./guarded_tests.ts";

/** What the static stage found, and what it read for the later stages. */
export interface StaticResult {
  /** What every layout's rules looked at (its plan and verdict parts read it too). */
  input: StaticInput;
  /** Static findings (after the contracts' load findings). */
  findings: Finding[];
  /**
   * Registered tests whose assertions were rewritten beyond what their
   * form shows, and nothing worse: findings once the verdict knows
   * whether the mutation kill sets decided them.
   */
  rewrites: AssertionRewrite[];
  /** The base's excuses judged against the clock and the contract. */
  excuses: ExcuseJudgement;
}

/** Options for {@linkcode staticStage}. */
export interface StaticStageOptions {
  /** The clock. */
  now: Instant;
  /** A human allows fixture rotation in this run. */
  allowFixtureRotate: boolean;
  /** Digests already under way by blob id ({@linkcode hashFixtureRoot}). */
  early: Promise<Map<string, string>>;
  /**
   * Called once the test sources are parsed: this thread is then free to
   * help the hashing (the `helpAfter` of {@linkcode hashFixtureRoot}).
   */
  onParsed?: () => void;
  /** Progress sink. */
  progress: Progress;
  /** PATH inside the sandbox, where the tests' interpreter is found. */
  sandboxPath?: string | undefined;
  /** The runner's analyses of earlier judgements' sources, if it keeps them. */
  analysisCache?: Promise<AnalysisCache | undefined> | undefined;
}

/** Run the static rules of every loaded layout and the harness rules. */
export async function staticStage(
  git: Git,
  inputs: { commits: Commits; contracts: Contracts },
  options: StaticStageOptions,
): Promise<StaticResult> {
  const { progress } = options;
  const { baseTree, headTree } = inputs.commits;
  const { loaded, changes } = inputs.contracts;
  progress.step("parsing test sources");
  const fixtureRoots = inputs.contracts.settings.fixtures.roots;
  const reads = loaded.map((l) =>
    l.reads(baseTree, headTree, { fixtureRoots })
  );
  const changedPy = changes.filter((c) => c.path.endsWith(".py"))
    .map((c) => c.path);
  // Hash while parsing: git inflates and a worker hashes the fixtures off
  // this thread. A failure is awaited below, after the parse.
  const { fixtureOids, hashing, parsed } = hashWhileParsing(
    git,
    headTree,
    reads.flatMap((r) => r.headDigests),
    options.early,
  );
  const { headModules, baseModules } = await analyzeModules(git, {
    head: {
      tree: headTree,
      paths: [...reads.flatMap((r) => r.headModules), ...changedPy],
    },
    base: {
      tree: baseTree,
      paths: [...reads.flatMap((r) => r.baseModules), ...changedPy],
    },
  }, { cache: await options.analysisCache?.catch(() => undefined) })
    .catch(async (error) => {
      // Never leave the hashing children running behind an error.
      await hashing.catch(() => {});
      throw error;
    }).finally(() => {
      // Nothing left on this thread but waiting for the hashing: help it.
      parsed.resolve();
      options.onParsed?.();
    });

  progress.step(`hashing ${plural(fixtureOids.size, "file")}`);
  // Filled in once the hashing is done; nothing reads it before.
  const digests = new Map<string, string>();
  const input = staticInput(inputs, options, {
    headModules,
    baseModules,
    digests,
  });
  // The harness rules read no digest: run them while the hashing ends (it
  // is often the last thing running). Their result, or their error, is
  // taken up where it always was, so what is reported, and in what order,
  // stays the same.
  const harness = settled(harnessFindings(git, input, inputs, options));
  const byOid = await hashing.catch(async (error) => {
    await harness;
    throw error;
  });
  for (const [path, oid] of fixtureOids) {
    const digest = byOid.get(oid);
    if (digest !== undefined) digests.set(path, digest);
  }
  try {
    return await judgedWithDigests(git, inputs, options, {
      input,
      byOid,
      harness,
    });
  } catch (error) {
    // Never leave the harness reads running behind an error.
    await harness;
    throw error;
  }
}

/** What every layout's static rules read. */
function staticInput(
  inputs: { commits: Commits; contracts: Contracts },
  options: StaticStageOptions,
  read: Pick<StaticInput, "headModules" | "baseModules" | "digests">,
): StaticInput {
  const { settings, changes } = inputs.contracts;
  return {
    now: options.now.epochMs,
    nowText: options.now.text,
    baseTree: inputs.commits.baseTree,
    headTree: inputs.commits.headTree,
    changes,
    ...read,
    allowFixtureRotate: options.allowFixtureRotate,
    fixtureRoots: settings.fixtures.roots,
    testEnv: settings.environment.env,
  };
}

/**
 * Start hashing the fixtures `paths` of `headTree` that `early` does not
 * cover; the hashing is helped by this thread once `parsed` resolves.
 */
function hashWhileParsing(
  git: Git,
  headTree: Commits["headTree"],
  paths: readonly string[],
  early: Promise<Map<string, string>>,
) {
  const fixtureOids = new Map<string, string>();
  const sizes = new Map<string, number>();
  for (const path of new Set(paths)) {
    const entry = headTree.get(path);
    if (entry !== undefined) {
      fixtureOids.set(path, entry.oid);
      sizes.set(entry.oid, entry.size);
    }
  }
  const parsed = Promise.withResolvers<void>();
  const hashing = early.then(async (known) => {
    const rest = [...new Set(fixtureOids.values())].filter((o) =>
      !known.has(o)
    );
    const more = rest.length === 0 ? new Map() : await git.sha256Blobs(rest, {
      helpAfter: parsed.promise,
      bytes: rest.reduce((sum, oid) => sum + (sizes.get(oid) ?? 0), 0),
    });
    return new Map([...known, ...more]);
  });
  hashing.catch(() => {});
  return { fixtureOids, hashing, parsed };
}

/** The rules that need the digests, then the harness rules' findings. */
async function judgedWithDigests(
  git: Git,
  inputs: { commits: Commits; contracts: Contracts },
  options: StaticStageOptions,
  done: {
    input: StaticInput;
    byOid: ReadonlyMap<string, string>;
    harness: Promise<Settled<HarnessJudgement>>;
  },
): Promise<StaticResult> {
  const { input, byOid } = done;
  const { baseTree } = inputs.commits;
  const { loaded } = inputs.contracts;
  const fixtureRoots = input.fixtureRoots;
  // Problems the base already has are not the pull request's fault.
  const baseInput: StaticInput = {
    ...input,
    headTree: baseTree,
    changes: [],
    headModules: input.baseModules,
    digests: await baseDigests(git, inputs.contracts.selves, baseTree, byOid, {
      fixtureRoots,
    }),
  };
  const problems = baseProblems(inputs.contracts.selves, baseInput);
  if (problems.length > 0) {
    throw new BaseProblemError(inputs.commits.base, problems);
  }
  // The base's excuses: what every run deselects, and never a property.
  const excuses = judgeExcuses(inputs.contracts.settings.excuses, {
    now: options.now.epochMs,
    runner: inputs.contracts.settings.tests.runner,
    guarded: guardedTests(inputs.contracts, { input, baseInput }),
  });
  if (excuses.baseProblems.length > 0) {
    throw new BaseProblemError(inputs.commits.base, excuses.baseProblems);
  }
  const findings: Finding[] = [...excuses.findings];
  for (const one of loaded) findings.push(...one.check(input));
  const harness = await done.harness;
  if (!harness.ok) throw harness.error;
  findings.push(...harness.value.findings);
  return { input, findings, rewrites: harness.value.rewrites, excuses };
}

/** The harness, probe, gate-config, skip and registered-test rules. */
async function harnessFindings(
  git: Git,
  input: StaticInput,
  inputs: { commits: Commits; contracts: Contracts },
  options: StaticStageOptions,
): Promise<HarnessJudgement> {
  const { baseTree, headTree, changes } = input;
  const { loaded, settings } = inputs.contracts;
  const configPaths = harnessConfigPaths(changes);
  return judgeHarness({
    changes,
    texts: {
      base: await readConfigTexts(git, baseTree, configPaths),
      head: await readConfigTexts(git, headTree, configPaths),
    },
    baseTree,
    headTree,
    baseModules: input.baseModules,
    headModules: input.headModules,
    moduleNames: await moduleNamesOf(testEnvironment(settings, options)),
    // A plan is the contracts and the clock; the digests are not in yet.
    registered: loaded.flatMap((l) =>
      l.plan(withoutDigests(input)).properties.map((q) => ({
        layout: l.id,
        ...q,
      }))
    ),
    testSupport: settings.harness.test_support,
    seedEnv: [settings.seeds.env_seed, settings.seeds.env_trials],
    pythonpath: settings.environment.pythonpath,
  });
}

/** `input` for a reader that must not look at the digests: reading them throws. */
function withoutDigests(input: StaticInput): StaticInput {
  const out = { ...input };
  Object.defineProperty(out, "digests", {
    get(): never {
      throw new Error("A test plan was read before the fixtures were hashed");
    },
  });
  return out;
}

/** A promise's outcome, kept to be taken up later. */
type Settled<T> = { ok: true; value: T } | { ok: false; error: unknown };

function settled<T>(promise: Promise<T>): Promise<Settled<T>> {
  return promise.then(
    (value) => ({ ok: true as const, value }),
    (error: unknown) => ({ ok: false as const, error }),
  );
}

/** The module names of the interpreter the tests run with. */
function moduleNamesOf(environment: TestEnvironment) {
  return readModuleNames(
    environment.command,
    environment.path === undefined ? {} : { path: environment.path },
  );
}

/** SHA-256 of the base's own fixtures, reusing what the head's hashing found. */
async function baseDigests(
  git: Git,
  selves: readonly LoadedDialect[],
  baseTree: Tree,
  known: ReadonlyMap<string, string>,
  options: ReadsOptions,
): Promise<Map<string, string>> {
  const oids = new Map<string, string>();
  for (
    const path of selves.flatMap((s) =>
      s.reads(baseTree, baseTree, options).headDigests
    )
  ) {
    const entry = baseTree.get(path);
    if (entry !== undefined) oids.set(path, entry.oid);
  }
  const missing = [...new Set(oids.values())].filter((oid) => !known.has(oid));
  const more = missing.length === 0
    ? new Map<string, string>()
    : await git.sha256Blobs(missing);
  const out = new Map<string, string>();
  for (const [path, oid] of oids) {
    const digest = known.get(oid) ?? more.get(oid);
    if (digest !== undefined) out.set(path, digest);
  }
  return out;
}
