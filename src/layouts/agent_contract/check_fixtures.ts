/**
 * Layer 2 of seed 000: fixtures are content-addressed. Presence is not
 * integrity; the bytes at head must hash to the registered digest.
 *
 * @module
 */
import { type Finding, finding } from "../../core/finding.ts";
import type { Tree } from "../../git/git.ts";
import {
  checkFixturePath,
  DEFAULT_FIXTURE_ROOT,
  describeFixtureRoots,
} from "../../contract/check_fixture_path.ts";
import type { AgentContract } from "./read_agent_contract.ts";

/** Options for {@linkcode checkFixtures}. */
export interface CheckFixturesOptions {
  /** The head commit's tree. */
  tree: Tree;
  /**
   * Lowercase hex SHA-256 of each path {@linkcode fixturePathsToHash}
   * returned, keyed by path.
   */
  digests: ReadonlyMap<string, string>;
  /** Repository-relative path of the contract file, for findings. */
  path: string;
  /**
   * Directories fixtures must lie inside (the base `pawl.toml`'s
   * `[fixtures] roots`; default `tests/fixtures`).
   */
  roots?: readonly string[] | undefined;
}

/**
 * Judge every registered fixture against the head tree: unsafe paths
 * (`fixture.path_unsafe`), absent files (`fixture.missing`), symlinks,
 * symlinked parent directories, directories and submodules
 * (`fixture.symlink`), and bytes that do not hash to the registered digest
 * (`fixture.digest_mismatch`, pointing at the fixture file). Findings about
 * the registration point at the contract's `path` line; findings about the
 * file's bytes or kind point at the fixture file.
 *
 * Throws `Error` when a digest the shell was asked to compute is absent:
 * that is a bug in the caller, not a property of the pull request.
 *
 * @example
 * ```ts
 * import { checkFixtures } from "./check_fixtures.ts";
 * import { NO_LINES } from "./read_agent_contract.ts";
 * const path = "tests/fixtures/a.json";
 * const findings = checkFixtures({
 *   version: 1, properties: [], freezes: [], maxActiveFreezes: 0, lines: NO_LINES,
 *   fixtures: [{ id: "a", path, sha256: "0".repeat(64), unlock: null }],
 * }, {
 *   tree: new Map([[path, { path, kind: "file" as const, oid: "1", size: 2 }]]),
 *   digests: new Map([[path, "1".repeat(64)]]),
 *   path: "tests/agent_contract.yaml",
 * });
 * if (findings[0]?.rule !== "fixture.digest_mismatch") throw new Error();
 * ```
 */
export function checkFixtures(
  contract: AgentContract,
  options: CheckFixturesOptions,
): Finding[] {
  const { tree, digests, path } = options;
  const roots = options.roots ?? [DEFAULT_FIXTURE_ROOT];
  const findings: Finding[] = [];
  for (const fixture of contract.fixtures) {
    const name = JSON.stringify(fixture.id);
    const file = JSON.stringify(fixture.path);
    const line = contract.lines.entry("fixtures", fixture.id, "path") ??
      contract.lines.entry("fixtures", fixture.id);
    const status = checkFixturePath(fixture.path, tree, { root: roots });
    switch (status.status) {
      case "unsafe":
        findings.push(finding(
          "fixture.path_unsafe",
          `Fixture ${name} path ${file} ${status.reason}: fixtures live under ${
            describeFixtureRoots(roots)
          } at a canonical path${
            options.roots === undefined
              ? ` (the base's pawl.toml [fixtures] roots can name others)`
              : ""
          }`,
          { path, line },
        ));
        continue;
      case "missing":
        findings.push(finding(
          "fixture.missing",
          `Fixture ${name} file ${file} ${status.reason}: restore it`,
          { path, line },
        ));
        continue;
      case "not_regular":
        findings.push(finding(
          "fixture.symlink",
          `Fixture ${name} file ${file} ${status.reason}: a fixture must be a regular file, pawl never follows symlinks`,
          { path: status.at },
        ));
        continue;
      // Stryker disable next-line ConditionalExpression,StringLiteral: the switch has no default, so an "ok" that matches no case falls out of it just the same
      case "ok":
        break;
    }
    const digest = digests.get(fixture.path);
    if (digest === undefined) {
      throw new Error(
        `Cannot check fixture ${name}: no digest was computed for ${file}`,
      );
    }
    const expected = fixture.sha256.toLowerCase();
    const got = digest.toLowerCase();
    if (got !== expected) {
      const unlocked = fixture.unlock === null
        ? "keep the old bytes, or have a human rotate the fixture"
        : "the unlock is set, but a human must rotate the fixture in a reviewed commit";
      findings.push(finding(
        "fixture.digest_mismatch",
        `Fixture ${name} digest mismatch: expected ${
          expected.slice(0, 12)
        } got ${got.slice(0, 12)}; ${unlocked}`,
        { path: fixture.path },
      ));
    }
  }
  return findings;
}

/**
 * The fixture paths the shell must hash for {@linkcode checkFixtures}: only
 * safe paths inside the fixture roots (`options.roots`, default
 * `tests/fixtures`) that are regular files in `tree` (no symlink anywhere on the
 * way), without duplicates, sorted.
 *
 * @example
 * ```ts
 * import { fixturePathsToHash } from "./check_fixtures.ts";
 * import { NO_LINES } from "./read_agent_contract.ts";
 * const path = "tests/fixtures/a.json";
 * const paths = fixturePathsToHash({
 *   version: 1, properties: [], freezes: [], maxActiveFreezes: 0, lines: NO_LINES,
 *   fixtures: [
 *     { id: "a", path, sha256: "0".repeat(64), unlock: null },
 *     { id: "b", path: "../etc/passwd", sha256: "0".repeat(64), unlock: null },
 *   ],
 * }, new Map([[path, { path, kind: "file" as const, oid: "1", size: 2 }]]));
 * if (paths.join() !== path) throw new Error();
 * ```
 */
export function fixturePathsToHash(
  contract: AgentContract,
  tree: Tree,
  options: { roots?: readonly string[] | undefined } = {},
): string[] {
  const roots = options.roots ?? [DEFAULT_FIXTURE_ROOT];
  const paths = new Set<string>();
  for (const fixture of contract.fixtures) {
    if (checkFixturePath(fixture.path, tree, { root: roots }).status === "ok") {
      paths.add(fixture.path);
    }
  }
  return [...paths].sort();
}
