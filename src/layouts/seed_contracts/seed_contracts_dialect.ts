/**
 * Seed 002's layout: `contracts.yml` (contracts on public functions, each
 * run by a test with a trial budget) and `flake_freeze.yml` (human-owned
 * freezes that pin a failing seed), both at the repository root.
 *
 * @module
 */
import { ContractSyntaxError } from "../../contract/contract_syntax_error.ts";
import {
  checkFlakeFreeze,
  checkSeedContracts,
  CONTRACTS_PATH,
  contractTestRef,
  enforcedContracts,
  FLAKE_FREEZE_PATH,
  type FlakeFreeze,
  type FreezeFileState,
  frozenSeeds,
  NO_CONTRACT_LINES,
  readContracts,
  readFlakeFreeze,
  type SeedContracts,
  seedContractsReads,
} from "./mod.ts";
import type { Finding } from "../../core/finding.ts";
import type { Tree } from "../../git/git.ts";
import {
  baseContractText,
  contractFileRefs,
  headContractText,
  invalidHeadContract,
} from "../contract_text.ts";
import type {
  ContractBlob,
  ContractBlobs,
  Dialect,
  LoadedDialect,
  LoadOptions,
  StaticInput,
  TestPlan,
  VerdictFacts,
} from "../dialect.ts";
import { NO_VERDICT_FACTS } from "../dialect.ts";
import { ParsedTexts } from "../parsed_texts.ts";
import {
  BEFORE_ANY_EXPIRY,
  refuseBaseFindings,
} from "../refuse_base_findings.ts";

/** A `contracts.yml` with no contracts: what a commit without the file holds. */
const NO_CONTRACTS: SeedContracts = {
  version: 1,
  contracts: [],
  lines: NO_CONTRACT_LINES,
};

/**
 * Seed 002's dialect.
 *
 * Detection: the layout is present in a commit when either file exists
 * (each is optional), so `files` lists both but neither is required. A base
 * without `contracts.yml` has no contracts; a base without
 * `flake_freeze.yml` has no freezes. Base-side problems (a symlink, a
 * directory, an oversize or non-UTF-8 file, YAML or schema errors,
 * unknown keys included) throw `ContractSyntaxError`: pawl cannot decide.
 * Head-side problems with a file the base has (removed, symlinked, invalid)
 * become `config.*` load findings and the base copy is enforced.
 *
 * `flake_freeze.yml` is read from the base only: any head change to it is
 * `freeze.file_touched`, and the head copy is parsed just to report a
 * broken file.
 *
 * Test plan: every enforced contract's test is a registered property
 * (module and qualname from its node id); one fresh-seed run serves all
 * contracts, so `trials` is the largest `min_trials` among them (a
 * contract's budget is a floor, and running the others longer only makes
 * them stricter); every unexpired freeze's seed is replayed, and the tests
 * of unexpired well-formed freezes are non-blocking on the fresh seed (see
 * `frozenSeeds`).
 *
 * @example
 * ```ts
 * import { seedContractsDialect } from "./seed_contracts_dialect.ts";
 * const text = "version: 1\ncontracts:\n  - id: c\n    function: billing.ledger.apply\n" +
 *   "    test: tests/contracts/test_ledger.py::TestLedger::test_apply\n    min_trials: 200\n";
 * const blob = { kind: "file" as const, text, bytes: new TextEncoder().encode(text) };
 * const files = new Map([["contracts.yml", blob]]);
 * const loaded = seedContractsDialect.load(files, files);
 * const plan = loaded.plan({
 *   now: 0, nowText: "1970-01-01T00:00:00Z", baseTree: new Map(), headTree: new Map(), changes: [],
 *   headModules: new Map(), baseModules: new Map(), digests: new Map(), allowFixtureRotate: false,
 * });
 * if (plan.properties[0]?.name !== "TestLedger.test_apply" || plan.trials !== 200) throw new Error();
 * ```
 */
export const seedContractsDialect: Dialect = {
  id: "002",
  files: [CONTRACTS_PATH, FLAKE_FREEZE_PATH],
  presentIn(tree: Tree): boolean {
    return tree.has(CONTRACTS_PATH) || tree.has(FLAKE_FREEZE_PATH);
  },
  load(
    base: ContractBlobs,
    head: ContractBlobs,
    options: LoadOptions = {},
  ): LoadedDialect {
    const parsed = options.parsed ?? new ParsedTexts();
    const baseContractsText = baseContractText(base, CONTRACTS_PATH);
    const baseContracts = baseContractsText === undefined
      ? NO_CONTRACTS
      : parsed.read(readContracts, baseContractsText, { path: CONTRACTS_PATH });
    const baseFreezeText = baseContractText(base, FLAKE_FREEZE_PATH);
    const baseFreeze = baseFreezeText === undefined
      ? null
      : parsed.read(readFlakeFreeze, baseFreezeText, {
        path: FLAKE_FREEZE_PATH,
      });
    if (baseFreeze !== null) {
      // No clock: an expiry is not the base's fault, a malformed freeze is.
      refuseBaseFindings(
        checkFlakeFreeze(baseFreeze, {
          now: BEFORE_ANY_EXPIRY,
          path: FLAKE_FREEZE_PATH,
        }),
        FLAKE_FREEZE_PATH,
      );
    }

    const loadFindings: Finding[] = [];
    let headContracts: SeedContracts | null = null;
    const headText = headContractText(
      base,
      head,
      CONTRACTS_PATH,
      loadFindings,
    );
    // Stryker disable next-line BlockStatement: with no contracts.yml on either side the base is NO_CONTRACTS too, and a null head enforces the base: the same empty set
    if (headText === undefined) {
      headContracts = NO_CONTRACTS;
    } else if (headText !== null) {
      try {
        headContracts = parsed.read(readContracts, headText, {
          path: CONTRACTS_PATH,
        });
      } catch (error) {
        if (!(error instanceof ContractSyntaxError)) throw error;
        invalidHeadContract(error, loadFindings);
      }
    }
    const headFreezeText = headContractText(
      base,
      head,
      FLAKE_FREEZE_PATH,
      loadFindings,
    );
    if (typeof headFreezeText === "string") {
      try {
        parsed.read(readFlakeFreeze, headFreezeText, {
          path: FLAKE_FREEZE_PATH,
        });
      } catch (error) {
        if (!(error instanceof ContractSyntaxError)) throw error;
        invalidHeadContract(error, loadFindings);
      }
    }
    return loadedSeedContracts({
      base: baseContracts,
      head: headContracts,
      freeze: baseFreeze,
      baseFreezeBlob: base.get(FLAKE_FREEZE_PATH),
      headFreezeBlob: head.get(FLAKE_FREEZE_PATH),
      files: contractFileRefs("002", base, [CONTRACTS_PATH, FLAKE_FREEZE_PATH]),
      loadFindings,
    });
  },
};

interface LoadedParts extends Pick<LoadedDialect, "files" | "loadFindings"> {
  base: SeedContracts;
  head: SeedContracts | null;
  freeze: FlakeFreeze | null;
  baseFreezeBlob: ContractBlob | undefined;
  headFreezeBlob: ContractBlob | undefined;
}

function loadedSeedContracts(parts: LoadedParts): LoadedDialect {
  const { base, head, freeze } = parts;
  return {
    id: "002",
    files: parts.files,
    loadFindings: parts.loadFindings,
    reads(baseTree: Tree, headTree: Tree) {
      const r = seedContractsReads(base, head, baseTree, headTree);
      return {
        headModules: r.headModules,
        baseModules: r.baseModules,
        headDigests: [],
      };
    },
    check(input: StaticInput): Finding[] {
      return checkSeedContracts({
        base,
        head,
        freeze,
        freezeFile: {
          base: freezeFileState(input.baseTree, parts.baseFreezeBlob),
          head: freezeFileState(input.headTree, parts.headFreezeBlob),
        },
        headTree: input.headTree,
        changes: input.changes,
        modules: input.headModules,
        baseModules: input.baseModules,
        now: input.now,
      });
    },
    plan(input: StaticInput): TestPlan {
      const contracts = enforcedContracts(base, head).contracts;
      const seeds = frozenSeeds(freeze, input.now);
      const plan: TestPlan = {
        properties: contracts.map((contract) => {
          const ref = contractTestRef(contract.test);
          return { id: contract.id, module: ref.module, name: ref.name };
        }),
        reruns: [],
        deselect: [],
        replays: seeds.replays,
        nonBlocking: seeds.nonBlocking,
      };
      if (contracts.length > 0) {
        plan.trials = Math.max(...contracts.map((c) => c.minTrials));
      }
      return plan;
    },
    verdictFacts(): VerdictFacts {
      return NO_VERDICT_FACTS;
    },
  };
}

/** The freeze file in one commit, from its tree entry and the blob read at load. */
function freezeFileState(
  tree: Tree,
  blob: ContractBlob | undefined,
): FreezeFileState | undefined {
  const entry = tree.get(FLAKE_FREEZE_PATH);
  if (entry === undefined && blob === undefined) return undefined;
  return {
    // Stryker disable next-line OptionalChaining: the blob's kind is read only without a tree entry, and the guard above has returned if the blob is missing too
    kind: entry?.kind ?? (blob?.kind === "oversize" ? "file" : blob?.kind) ??
      // Stryker disable next-line StringLiteral: a blob always has a kind, so this last fallback is never taken
      "file",
    oid: entry?.oid,
    bytes: blob?.kind === "file" ? blob.bytes : undefined,
  };
}
