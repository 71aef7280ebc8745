/**
 * Seed 003's layout: `invariants.toml`, `fixtures.lock` and `freeze.yml` at
 * the repository root, each optional.
 *
 * @module
 */
import { refuseBaseFindings } from "../refuse_base_findings.ts";
import { ParsedTexts } from "../parsed_texts.ts";
import { baseFreezeListProblems } from "./base_freeze_list_problems.ts";
import { ContractSyntaxError } from "../../contract/contract_syntax_error.ts";
import {
  checkInvariants,
  type ContractSides,
  FIXTURES_LOCK,
  FREEZE_YML,
  freezeBodyHashes,
  INVARIANTS_TOML,
  type InvariantsContract,
  invariantsPlan,
  invariantsReads,
  readFixtureLock,
  readFreezeList,
  readPropertyRegistry,
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
  ContractBlobs,
  Dialect,
  LoadedDialect,
  LoadOptions,
  StaticInput,
  TestPlan,
  VerdictFacts,
} from "../dialect.ts";

/** Seed 003's files, in the order the layout is described. */
export const INVARIANTS_FILES: readonly string[] = [
  INVARIANTS_TOML,
  FIXTURES_LOCK,
  FREEZE_YML,
];

/**
 * Seed 003's dialect. The layout is present when any of its three files is;
 * a file absent at base sets no constraint of its kind (and a freeze list
 * the head creates has no budget). A file present at base and removed,
 * symlinked or invalid at head is a `config.*` finding, and the base copy
 * is enforced.
 *
 * @example
 * ```ts
 * import { invariantsDialect } from "./invariants_dialect.ts";
 * const entry = { path: "fixtures.lock", kind: "file" as const, oid: "1", size: 1 };
 * if (!invariantsDialect.presentIn(new Map([[entry.path, entry]]))) throw new Error();
 * ```
 */
export const invariantsDialect: Dialect = {
  id: "003",
  files: INVARIANTS_FILES,
  presentIn(tree: Tree): boolean {
    return INVARIANTS_FILES.some((path) => tree.has(path));
  },
  load(
    base: ContractBlobs,
    head: ContractBlobs,
    options: LoadOptions = {},
  ): LoadedDialect {
    const parsed = options.parsed ?? new ParsedTexts();
    if (!INVARIANTS_FILES.some((path) => base.has(path))) {
      throw new ContractSyntaxError(
        INVARIANTS_TOML,
        `the base commit has none of ${
          INVARIANTS_FILES.map((p) => JSON.stringify(p)).join(", ")
        }`,
      );
    }
    const loadFindings: Finding[] = [];
    const sides = <T>(
      path: string,
      read: (text: string, options: { path: string }) => T,
    ): ContractSides<T> => {
      const baseText = baseContractText(base, path);
      const baseValue = baseText === undefined
        ? undefined
        : parsed.read(read, baseText, { path });
      const headText = headContractText(base, head, path, loadFindings);
      if (typeof headText !== "string") return { base: baseValue, head: null };
      try {
        return {
          base: baseValue,
          head: parsed.read(read, headText, { path }),
        };
      } catch (error) {
        if (!(error instanceof ContractSyntaxError)) throw error;
        invalidHeadContract(error, loadFindings);
        return { base: baseValue, head: null };
      }
    };
    const contract: InvariantsContract = {
      registry: sides(INVARIANTS_TOML, readPropertyRegistry),
      lock: sides(FIXTURES_LOCK, readFixtureLock),
      freezes: sides(FREEZE_YML, readFreezeList),
    };
    if (contract.freezes.base !== undefined) {
      refuseBaseFindings(
        baseFreezeListProblems(contract.freezes.base),
        FREEZE_YML,
      );
    }
    return loadedInvariants(contract, {
      files: contractFileRefs("003", base, INVARIANTS_FILES),
      loadFindings,
    });
  },
};

function loadedInvariants(
  contract: InvariantsContract,
  extra: Pick<LoadedDialect, "files" | "loadFindings">,
): LoadedDialect {
  return {
    id: "003",
    ...extra,
    reads(baseTree: Tree, headTree: Tree) {
      return invariantsReads(contract, { baseTree, headTree });
    },
    check(input: StaticInput): Finding[] {
      return checkInvariants(contract, input);
    },
    plan(input: StaticInput): TestPlan {
      const plan = invariantsPlan(contract, { now: input.now });
      return {
        properties: plan.properties,
        reruns: [],
        deselect: plan.deselect,
        replays: [],
        nonBlocking: [],
      };
    },
    /**
     * Which body each freeze's `body_sha256` matched, for every enforced
     * freeze with a test and a body hash: `function` (the sliced test
     * function), `file` (the whole file's bytes, as the seed's runnable
     * checker hashes), or `none` (neither; also a blocking
     * `freeze.body_changed` finding).
     */
    verdictFacts(input: StaticInput): VerdictFacts {
      return {
        freezeBodyHashes: freezeBodyHashes(contract.freezes, input).map((
          h,
        ) => ({
          freeze: h.freeze,
          bodyHash: h.bodyHash,
        })),
      };
    },
  };
}
