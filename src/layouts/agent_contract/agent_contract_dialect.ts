/**
 * Seed 000's layout: one `tests/agent_contract.yaml` with properties,
 * fixtures and budgeted freezes.
 *
 * @module
 */
import {
  BEFORE_ANY_EXPIRY,
  refuseBaseFindings,
} from "../refuse_base_findings.ts";
import { checkFreezes } from "./check_freezes.ts";
import {
  type AgentContract,
  agentContractReads,
  checkAgentContract,
  enforcedAgentContract,
  readAgentContract,
} from "./mod.ts";
import { ContractSyntaxError } from "../../contract/contract_syntax_error.ts";
import { parseRfc3339 } from "../../core/parse_rfc3339.ts";
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
  PlannedRerun,
  StaticInput,
  TestPlan,
  VerdictFacts,
} from "../dialect.ts";
import { NO_VERDICT_FACTS } from "../dialect.ts";
import { ParsedTexts } from "../parsed_texts.ts";

/** Where seed 000's contract lives. */
export const AGENT_CONTRACT_FILE = "tests/agent_contract.yaml";

/** What {@linkcode agentContractDialect}'s warm-up reads. */
const SAMPLE_CONTRACT = `version: 1
properties:
  - id: sorted
    module: tests.test_sample
    name: test_sorted
    min_examples: 50
fixtures:
  - id: data
    path: tests/fixtures/data.txt
    sha256: ${"a1".repeat(32)}
    unlock: null
freezes: []
max_active_freezes: 0
`;

/** Seed 000's dialect. */
export const agentContractDialect: Dialect = {
  id: "000",
  files: [AGENT_CONTRACT_FILE],
  presentIn(tree: Tree): boolean {
    return tree.has(AGENT_CONTRACT_FILE);
  },
  // Stryker disable next-line BlockStatement: the warm-up's result is thrown away; without it only the first real read is slower
  warmUp(): void {
    // Stryker disable next-line ObjectLiteral: the path only names the file in an error, and the built-in sample is valid, so it never reaches one
    readAgentContract(SAMPLE_CONTRACT, { path: AGENT_CONTRACT_FILE });
  },
  load(
    base: ContractBlobs,
    head: ContractBlobs,
    options: LoadOptions = {},
  ): LoadedDialect {
    const parsed = options.parsed ?? new ParsedTexts();
    const path = AGENT_CONTRACT_FILE;
    const baseText = baseContractText(base, path);
    if (baseText === undefined) {
      throw new ContractSyntaxError(path, "the base commit has no such file");
    }
    const baseContract = parsed.read(readAgentContract, baseText, { path });
    // No clock: a freeze past its expiry or out of reruns is not the
    // base's fault; an unreadable expiry or an over-budget freeze list is.
    refuseBaseFindings(
      checkFreezes(baseContract, { now: BEFORE_ANY_EXPIRY, path }).filter(
        (f) => f.rule !== "freeze.no_reruns",
      ),
      path,
    );
    const loadFindings: Finding[] = [];
    const headText = headContractText(base, head, path, loadFindings);
    let headContract: AgentContract | null = null;
    // Stryker disable next-line ConditionalExpression: reading a head text equal to the base's hits the base's entry in ParsedTexts and gives the same contract
    if (headText === baseText) {
      // The usual pull request leaves the contract alone: parse it once.
      headContract = baseContract;
    } else if (typeof headText === "string") {
      try {
        headContract = parsed.read(readAgentContract, headText, { path });
      } catch (error) {
        if (!(error instanceof ContractSyntaxError)) throw error;
        invalidHeadContract(error, loadFindings);
      }
    }
    return loadedAgentContract(baseContract, headContract, {
      files: contractFileRefs("000", base, [path]),
      loadFindings,
    });
  },
};

function loadedAgentContract(
  base: AgentContract,
  head: AgentContract | null,
  extra: Pick<LoadedDialect, "files" | "loadFindings">,
): LoadedDialect {
  // A pure function of the two contracts, which never change: work it out
  // once however often the stages ask for the plan.
  let enforced: ReturnType<typeof enforcedAgentContract> | undefined;
  return {
    id: "000",
    ...extra,
    reads(baseTree: Tree, headTree: Tree, options = {}) {
      const r = agentContractReads(base, head, headTree, {
        baseTree,
        fixtureRoots: options.fixtureRoots,
      });
      return {
        headModules: r.modules,
        baseModules: r.baseModules,
        headDigests: r.fixtures,
      };
    },
    check(input: StaticInput): Finding[] {
      return checkAgentContract({
        path: AGENT_CONTRACT_FILE,
        base,
        head,
        headTree: input.headTree,
        digests: input.digests,
        modules: input.headModules,
        baseModules: input.baseModules,
        now: input.now,
        fixtureRoots: input.fixtureRoots,
        env: input.testEnv,
      });
    },
    plan(input: StaticInput): TestPlan {
      enforced ??= enforcedAgentContract(base, head);
      const reruns: PlannedRerun[] = [];
      for (const f of enforced.freezes) {
        const expires = parseRfc3339(f.expires);
        // Stryker disable next-line ConditionalExpression: the schema refused any expiry parseRfc3339 cannot read when the contract was loaded, so it is never undefined here
        if (expires === undefined || expires <= input.now) continue;
        if (f.remainingReruns <= 0) continue;
        if (f.owner.trim() === "" || f.reason.trim() === "") continue;
        reruns.push({
          id: f.id,
          test: f.id,
          remainingReruns: f.remainingReruns,
        });
      }
      return {
        properties: enforced.properties.map((p) => ({
          id: p.id,
          module: p.module,
          name: p.name,
        })),
        reruns,
        deselect: [],
        replays: [],
        nonBlocking: [],
      };
    },
    verdictFacts(): VerdictFacts {
      return NO_VERDICT_FACTS;
    },
  };
}
