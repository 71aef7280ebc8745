/**
 * A candidate contract for a repository that has none, built purely from
 * a commit's tree, its parsed Python files and its fixture digests.
 *
 * @module
 */
import type { Tree } from "../git/git.ts";
import type { PythonModule } from "../python/python_module.ts";
import { collectCandidates } from "./_collect_candidates.ts";
import { srcLayoutHint } from "./src_layout_hint.ts";
import { headerComment } from "./_header.ts";
import { renderAgentContract } from "./_render_agent_contract.ts";
import {
  renderFixturesLock,
  renderFreezeYml,
  renderInvariants,
} from "./_render_invariants.ts";
import {
  renderContracts,
  renderFlakeFreeze,
} from "./_render_seed_contracts.ts";
import { layoutFiles, type ProposalLayout } from "./layout_files.ts";

/** What the shell read from one commit. */
export interface ProposalInput {
  /** Full commit id: the proposal's only provenance (no timestamps). */
  commit: string;
  /** The commit's recursive tree listing. */
  tree: Tree;
  /** Analyses of every file `proposalReads(...).python` named that could be read, keyed by path. */
  modules: ReadonlyMap<string, PythonModule>;
  /**
   * Files of `proposalReads(...).python` the shell could not read, with
   * the reason completing "… is not read: " (e.g. `it is not valid UTF-8`).
   */
  unreadable?: ReadonlyMap<string, string>;
  /** SHA-256 (lowercase hex) of every file `proposalReads(...).fixtures` named, keyed by path. */
  fixtureDigests: ReadonlyMap<string, string>;
}

/** Options for {@linkcode buildProposal}. */
export interface BuildProposalOptions {
  /** The layout to write (default `000`). */
  layout?: ProposalLayout;
  /**
   * The commit's `pawl.toml` `[fixtures] roots`: fixtures are proposed from
   * under them (default `tests/fixtures`).
   */
  fixtureRoots?: readonly string[] | undefined;
  /**
   * The commit's `pawl.toml` `[environment] env`: a variable set there may
   * choose the Hypothesis profile the tests load.
   */
  env?: Readonly<Record<string, string>> | undefined;
  /** The commit's `pawl.toml` `[environment] pythonpath` (for the src-layout hint). */
  pythonpath?: readonly string[] | undefined;
  /** The commit's `pawl.toml` `[tests] command`, when it sets one. */
  command?: readonly string[] | undefined;
}

/** One proposed file. */
export interface ProposalFile {
  /** Repository-relative path. */
  path: string;
  /** Full text, ending with a newline. */
  text: string;
}

/** Counts of what a proposal holds, for a one-line summary. */
export interface ProposalSummary {
  /** Hypothesis tests proposed as properties (000, 003). */
  properties: number;
  /** Fixtures proposed with their digests (000, 003). */
  fixtures: number;
  /** Public functions proposed as contracts (002). */
  contracts: number;
  /** Things left out, each explained in the main file's header. */
  leftOut: number;
  /** Properties whose example count pawl could not resolve, each named in the header. */
  unresolved: number;
  /** Settings the commit's `pawl.toml` needs (such as a src layout's `pythonpath`), each in the header. */
  settings: string[];
}

/** A proposal: the files of one layout, in {@linkcode layoutFiles} order. */
export interface Proposal {
  /** The layout written. */
  layout: ProposalLayout;
  /** The files, in the layout's order. */
  files: ProposalFile[];
  /** What the files hold. */
  summary: ProposalSummary;
}

/**
 * Build the proposal for `options.layout` (default 000):
 * - 000 `tests/agent_contract.yaml`: every Hypothesis test as a property
 *   (`min_examples` = its example count today), every fixture under
 *   `tests/fixtures/` (or the `[fixtures] roots` given) with its digest and `unlock: null`, no freezes,
 *   `max_active_freezes: 3`;
 * - 003 `invariants.toml` (properties with seed 003's source hashes,
 *   `min_properties` = their count), `fixtures.lock`, `freeze.yml`;
 * - 002 `contracts.yml` (one candidate per public function, its test a
 *   TODO, `min_trials: 200`) and an empty `flake_freeze.yml`.
 *
 * A Hypothesis test that would not hold as a property today (skipped,
 * unable to fail, `max_examples` not a literal) and any file that could not
 * be read is left out and named in the header. Output is sorted and holds
 * no timestamp, so the same input always gives the same bytes.
 *
 * @example
 * ```ts
 * import { buildProposal } from "./build_proposal.ts";
 * const path = "tests/fixtures/a.json";
 * const proposal = buildProposal({
 *   commit: "0".repeat(40),
 *   tree: new Map([[path, { path, kind: "file", oid: "1", size: 2 }]]),
 *   modules: new Map(),
 *   fixtureDigests: new Map([[path, "1".repeat(64)]]),
 * });
 * const text = proposal.files[0]?.text ?? "";
 * if (!text.includes(`sha256: "${"1".repeat(64)}"`)) throw new Error(text);
 * ```
 */
export function buildProposal(
  input: ProposalInput,
  options: BuildProposalOptions = {},
): Proposal {
  const layout = options.layout ?? "000";
  const candidates = collectCandidates({
    tree: input.tree,
    modules: input.modules,
    unreadable: input.unreadable ?? new Map(),
    fixtureDigests: input.fixtureDigests,
    fixtureRoots: options.fixtureRoots,
    env: options.env,
  }, layout);
  const hint = srcLayoutHint(input.tree, {
    pythonpath: options.pythonpath ?? [],
    command: options.command,
  });
  const settings = hint === undefined ? [] : [hint];
  const header = (lines: readonly string[], withNotes: boolean) =>
    headerComment({
      commit: input.commit,
      layout,
      lines,
      settings: withNotes ? settings : [],
      notes: withNotes ? candidates.notes : [],
      unresolved: withNotes ? candidates.unresolved : [],
    });
  const [first, second, third] = layoutFiles(layout);
  let texts: string[];
  switch (layout) {
    case "000":
      texts = [
        renderAgentContract(
          candidates,
          header([
            "",
            "Each min_examples is the test's example count at this commit (its",
            "own settings, else the Hypothesis profile its conftest.py or",
            "__init__.py files load, else Hypothesis' default), and each sha256",
            "the digest of the fixture's bytes at this commit.",
          ], true),
        ),
      ];
      break;
    case "003":
      texts = [
        renderInvariants(
          candidates,
          header([
            "",
            `The proposal is three files: ${first}, ${second} (JSON, which`,
            `cannot carry this note) and ${third}. Each source_sha256 is the`,
            "SHA-256 of the test's source as ast.get_source_segment returns it.",
          ], true),
        ),
        renderFixturesLock(candidates),
        renderFreezeYml(header([], false)),
      ];
      break;
    case "002":
      texts = [
        renderContracts(
          candidates,
          header([
            "",
            "One candidate contract per public function. Every test names a",
            "TODO_ function that does not exist: write a contract test (a",
            "predicate over many inputs, not an example), name it here, or",
            "delete the entry.",
          ], true),
        ),
        renderFlakeFreeze(header([], false)),
      ];
      break;
  }
  const paths = layoutFiles(layout);
  return {
    layout,
    files: texts.map((text, index) => ({ path: paths[index]!, text })),
    summary: {
      properties: layout === "002" ? 0 : candidates.properties.length,
      fixtures: candidates.fixtures.length,
      contracts: candidates.publicFunctions.length,
      leftOut: candidates.notes.length,
      unresolved: candidates.unresolved.length,
      settings,
    },
  };
}
