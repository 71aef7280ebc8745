/**
 * Stage 5: the verdict, from everything the stages found.
 *
 * @module
 */
import { createHash } from "node:crypto";
import type { Finding } from "../core/finding.ts";
import {
  buildVerdict,
  type ContractFileRef,
  type FreezeBodyHashRecord,
} from "../core/verdict.ts";
import { VERSION } from "../version.ts";
import { dedupeFindings } from "./dedupe_findings.ts";
import { settleRewrites } from "./settle_rewrites.ts";
import { explainProbes } from "./explain_probes.ts";
import type { Judgement, JudgeOptions } from "./judge_options.ts";
import type { Contracts } from "./load_contracts.ts";
import type { Commits } from "./read_commits.ts";
import type { StaticResult } from "./static_stage.ts";
import type { TestStageResult } from "./test_stage.ts";

/** Everything the verdict is built from. */
export interface VerdictInputs {
  /** The commits judged. */
  commits: Commits;
  /** The contracts they were judged against. */
  contracts: Contracts;
  /** The static stage's result. */
  statics: StaticResult;
  /** The test stage's result, or null when the suite did not run. */
  tests: TestStageResult | null;
}

/**
 * Build the verdict and the ledger rows. Pure: the same inputs give the
 * same verdict, byte for byte.
 */
export function verdictStage(
  inputs: VerdictInputs,
  options: Pick<
    JudgeOptions,
    "repo" | "now" | "clock" | "allowFixtureRotate" | "isolation"
  >,
): Judgement {
  const { commits, contracts, statics, tests } = inputs;
  const findings: Finding[] = [
    ...contracts.findings,
    ...explainProbes(statics.findings, tests?.exercised),
    ...settleRewrites(statics.rewrites, { keptKills: tests?.keptKills }),
    ...(tests?.findings ?? []),
  ];
  const { loaded } = contracts;
  const files: ContractFileRef[] = loaded.flatMap((l) => [...l.files]);
  const freezeBodyHashes: FreezeBodyHashRecord[] = loaded.flatMap((l) =>
    l.verdictFacts(statics.input).freezeBodyHashes
  );
  const verdict = buildVerdict(dedupeFindings(findings), {
    pawl: { version: VERSION },
    now: options.now.text,
    ...(options.clock === undefined ? {} : { clock: options.clock }),
    repo: options.repo,
    base: commits.base,
    head: commits.head,
    contract: {
      layouts: loaded.map((l) => l.id),
      files,
      digest: `sha256:${
        createHash("sha256").update(JSON.stringify(files)).digest("hex")
      }`,
      freezeBodyHashes,
    },
    options: {
      allowFixtureRotate: options.allowFixtureRotate,
      isolation: options.isolation,
    },
    isolation: tests?.isolation ?? null,
    tests: tests?.report ?? null,
    ...(statics.excuses.records.length === 0
      ? {}
      : { excuses: statics.excuses.records }),
  });
  return {
    verdict,
    ledger: tests?.ledger ?? [],
    ...(tests?.mutationRun === undefined
      ? {}
      : { mutation: tests.mutationRun }),
  };
}
