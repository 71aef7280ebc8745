/**
 * The base's excuses against the clock and the contract: which tests
 * every run deselects, what the verdict records, and which excuse would
 * hide a registered property or a frozen seed's test.
 *
 * @module
 */
import { ContractSyntaxError } from "../contract/contract_syntax_error.ts";
import { type Finding, finding } from "../core/finding.ts";
import { parseRfc3339 } from "../core/parse_rfc3339.ts";
import type { ExcuseRecord } from "../core/verdict.ts";
import type { Excuse } from "../settings/excuses_settings.ts";

/** Where excuses are written. */
const SETTINGS_PATH = "pawl.toml";

/** A test no excuse may deselect: a registered property or a frozen seed's test. */
export interface GuardedTest {
  /** pytest node id. */
  nodeId: string;
  /** What it is, for messages: `property "roundtrip" (layout agent-contract)`. */
  what: string;
  /** Whether the base's own contract has it (else the pull request added it). */
  atBase: boolean;
}

/** Options for {@linkcode judgeExcuses}. */
export interface JudgeExcusesOptions {
  /** The orchestrator's clock, epoch milliseconds (the only clock). */
  now: number;
  /** The base's test runner: only pytest can deselect a test. */
  runner: string;
  /** Registered properties and frozen seeds' tests, of base and head. */
  guarded: readonly GuardedTest[];
}

/** What {@linkcode judgeExcuses} decided. */
export interface ExcuseJudgement {
  /** Node ids every run deselects (`--deselect`), sorted. */
  deselect: string[];
  /** Every excuse with its status, in file order, for the verdict. */
  records: ExcuseRecord[];
  /** Findings for the verdict: each active and each expired excuse, and excuses hiding a property the head added. */
  findings: Finding[];
  /** Excuses hiding the base's own properties or frozen seeds: the base is unusable (exit 2). */
  baseProblems: Finding[];
}

/**
 * Judge the base's excuses. An excuse is active while `now` is before its
 * expiry and expired from that instant on: an expired excuse deselects
 * nothing and says so. pytest deselects by node-id prefix, so an excuse
 * covers every test whose node id starts with it; one that covers a
 * registered property or a frozen seed's test is refused, because that
 * test's passing is what the contract asks for.
 *
 * @example
 * ```ts
 * import { judgeExcuses } from "./judge_excuses.ts";
 * import { parseRfc3339 } from "../core/parse_rfc3339.ts";
 * const excuse = { test: "tests/test_io.py::test_locale", owner: "platform", reason: "no de_DE locale here", expires: "2026-12-31T00:00:00Z" };
 * const j = judgeExcuses([excuse], { now: parseRfc3339("2026-12-01T00:00:00Z")!, runner: "pytest", guarded: [] });
 * if (j.deselect.join() !== excuse.test || j.records[0]?.status !== "active") throw new Error();
 * ```
 */
export function judgeExcuses(
  excuses: readonly Excuse[],
  options: JudgeExcusesOptions,
): ExcuseJudgement {
  const out: ExcuseJudgement = {
    deselect: [],
    records: [],
    findings: [],
    baseProblems: [],
  };
  if (excuses.length > 0 && options.runner !== "pytest") {
    throw new ContractSyntaxError(
      SETTINGS_PATH,
      `key "excuses" needs the pytest runner: "tests.runner" is ${
        JSON.stringify(options.runner)
      }, which has no way to deselect a test`,
      { subject: "settings" },
    );
  }
  for (const excuse of excuses) {
    const expires = parseRfc3339(excuse.expires);
    const active = expires !== undefined && options.now < expires;
    const test = JSON.stringify(excuse.test);
    const owner = JSON.stringify(excuse.owner);
    out.records.push({ ...excuse, status: active ? "active" : "expired" });
    if (!active) {
      out.findings.push(finding(
        "config.excuse_expired",
        `The excuse for ${test} (owner ${owner}) expired at ${excuse.expires}, so the test ran like any other: fix it, or have a human renew the excuse in the base's pawl.toml`,
        { path: SETTINGS_PATH },
      ));
      continue;
    }
    out.deselect.push(excuse.test);
    out.findings.push(finding(
      "tests.excused",
      `Test ${test} is excused on this runner until ${excuse.expires} by the base's pawl.toml (owner ${owner}: ${excuse.reason.trim()}); pawl leaves it out of every test run`,
      { path: SETTINGS_PATH },
    ));
    for (const guarded of options.guarded) {
      if (!covers(excuse.test, guarded.nodeId)) continue;
      const message = `The excuse for ${test} (owner ${owner}) would deselect ${
        guarded.atBase ? "" : "a test the pull request registers, "
      }${guarded.what} (${
        JSON.stringify(guarded.nodeId)
      }): a registered property or frozen seed must run; excuse a narrower test id, or fix or unregister the test in a reviewed commit`;
      (guarded.atBase ? out.baseProblems : out.findings).push(
        finding("config.excuse_covers_property", message, {
          path: SETTINGS_PATH,
        }),
      );
    }
  }
  out.deselect = [...new Set(out.deselect)].sort((a, b) =>
    a < b ? -1 : a > b ? 1 : 0
  );
  return out;
}

/**
 * Whether deselecting `excused` removes `nodeId`: pytest's own prefix
 * rule, plus an excuse naming one parametrization of the test.
 */
function covers(excused: string, nodeId: string): boolean {
  return nodeId.startsWith(excused) || excused.startsWith(`${nodeId}[`);
}
