/**
 * Seed 003's fixture layer: every locked file's bytes at head must hash to
 * the base lock's digest. Rotation is a human's review event: it needs the
 * run's `--allow-fixture-rotate` (or a base policy that allows it) and a
 * head lock that names exactly the new digest.
 *
 * @module
 */
import { type Finding, finding } from "../../core/finding.ts";
import type { Tree } from "../../git/git.ts";
import {
  checkFixturePath,
  describeFixtureRoots,
  REPOSITORY_ROOT,
} from "../../contract/check_fixture_path.ts";
import type { ContractSides } from "./invariants_contract.ts";
import { type FixtureLock, FIXTURES_LOCK } from "./read_fixture_lock.ts";

/** Options for {@linkcode checkFixtureLock}. */
export interface CheckFixtureLockOptions {
  /** The head commit's tree. */
  headTree: Tree;
  /** SHA-256 hex of the head bytes of every locked path that is a regular file. */
  digests: ReadonlyMap<string, string>;
  /** A human started this run with `--allow-fixture-rotate`. */
  allowFixtureRotate: boolean;
  /** Repository-relative path of the lock, for findings (default `fixtures.lock`). */
  path?: string;
  /**
   * Directories locked files must lie inside (the base `pawl.toml`'s
   * `[fixtures] roots`); default: anywhere in the repository.
   */
  roots?: readonly string[] | undefined;
}

/**
 * Judge the fixture lock of a pull request, over every path of the base
 * lock and every path the head lock adds:
 *
 * | Observation | Rule |
 * |---|---|
 * | a base path is gone from the head lock | `fixture.removed` |
 * | the path is absolute, has `..`, ... | `fixture.path_unsafe` |
 * | no file at the path | `fixture.missing` |
 * | a symlink, directory or submodule on the way | `fixture.symlink` |
 * | bytes moved, lock unchanged (or the path removed from it) | `fixture.digest_mismatch` |
 * | bytes moved and the lock re-hashed without a rotation allowance, or the lock names a digest that is not the bytes' | `fixture.digest_changed` |
 * | the lock re-hashed while the bytes stayed | `fixture.digest_changed` |
 * | bytes moved, rotation allowed, head lock names the new digest | `fixture.rotated` (not blocking) |
 * | a path the head adds does not hash to its digest | `fixture.digest_mismatch` |
 * | `allow_rotate_on_agent_pr` turned on | `fixture.policy_loosened` |
 *
 * Rotation is allowed by the run's flag or by the BASE policy; a head that
 * turns the policy on does not allow its own rotation. Fixtures may live
 * anywhere in the repository (seed 003 names `testdata/` as well as
 * `tests/fixtures/`) unless the base's `pawl.toml` names `[fixtures] roots`. Throws `Error` when a digest the shell was asked to
 * compute is absent: a bug in the caller.
 *
 * @example
 * ```ts
 * import { checkFixtureLock } from "./check_fixture_lock.ts";
 * const path = "testdata/a.json";
 * const lock = { policy: { allowRotateOnAgentPr: false }, files: new Map([[path, "0".repeat(64)]]), lineOf: () => undefined };
 * const findings = checkFixtureLock({ base: lock, head: lock }, {
 *   headTree: new Map([[path, { path, kind: "file" as const, oid: "1", size: 2 }]]),
 *   digests: new Map([[path, "1".repeat(64)]]),
 *   allowFixtureRotate: false,
 * });
 * if (findings[0]?.rule !== "fixture.digest_mismatch") throw new Error();
 * ```
 */
export function checkFixtureLock(
  sides: ContractSides<FixtureLock>,
  options: CheckFixtureLockOptions,
): Finding[] {
  const { base, head } = sides;
  const path = options.path ?? FIXTURES_LOCK;
  const findings: Finding[] = [];
  // Lines describe the file a person reads: the head copy when there is
  // one (a path it dropped has no line there), else the base copy.
  const lineOf = (file: string): number | undefined =>
    // Stryker disable next-line OptionalChaining: with neither copy there are no paths to judge, so lineOf is never called
    (head ?? base)?.lineOf(["files", file]);
  if (
    base !== undefined && head !== null &&
    !base.policy.allowRotateOnAgentPr && head.policy.allowRotateOnAgentPr
  ) {
    findings.push(finding(
      "fixture.policy_loosened",
      "The pull request turns allow_rotate_on_agent_pr on: fixture rotation stays a human flag",
      { path, line: head.lineOf(["policy", "allow_rotate_on_agent_pr"]) },
    ));
  }
  const rotation = options.allowFixtureRotate
    ? "--allow-fixture-rotate"
    : base?.policy.allowRotateOnAgentPr === true
    ? "the base policy allow_rotate_on_agent_pr"
    : undefined;
  for (const file of fixtureLockEntries(sides)) {
    const name = JSON.stringify(file);
    const baseDigest = base?.files.get(file);
    const headDigest = head === null ? baseDigest : head.files.get(file);
    // Stryker disable next-line ConditionalExpression: every path comes from the base lock or the head lock, so a path with no head digest has a base digest
    if (baseDigest !== undefined && headDigest === undefined) {
      findings.push(finding(
        "fixture.removed",
        `Fixture ${name} was removed from the lock: its bytes are still checked against the base digest`,
        { path },
      ));
    }
    const status = checkFixturePath(file, options.headTree, {
      root: options.roots ?? REPOSITORY_ROOT,
    });
    if (status.status === "unsafe") {
      findings.push(finding(
        "fixture.path_unsafe",
        `Fixture path ${name} ${status.reason}: lock repository-relative, canonical paths${
          options.roots === undefined
            ? ""
            : ` inside ${
              describeFixtureRoots(options.roots)
            } (the base's pawl.toml [fixtures] roots)`
        }`,
        { path, line: lineOf(file) },
      ));
      continue;
    }
    if (status.status === "missing") {
      findings.push(finding(
        "fixture.missing",
        `Fixture ${name} ${status.reason}: restore it`,
        { path, line: lineOf(file) },
      ));
      continue;
    }
    if (status.status === "not_regular") {
      findings.push(finding(
        "fixture.symlink",
        `Fixture ${name} ${status.reason}: a fixture must be a regular file, pawl never follows symlinks`,
        { path: status.at },
      ));
      continue;
    }
    const got = options.digests.get(file)?.toLowerCase();
    if (got === undefined) {
      throw new Error(`Cannot check fixture ${name}: no digest was computed`);
    }
    if (baseDigest === undefined) {
      // Stryker disable next-line ConditionalExpression: a path missing from the base lock came from the head lock, so it has a head digest
      if (headDigest !== undefined && got !== headDigest) {
        findings.push(finding(
          "fixture.digest_mismatch",
          `Fixture ${name} added to the lock does not match its bytes: expected ${
            short(headDigest)
          } got ${short(got)}; lock the digest of the file as it is`,
          { path: file },
        ));
      }
      continue;
    }
    if (got === baseDigest) {
      if (headDigest !== undefined && headDigest !== baseDigest) {
        findings.push(finding(
          "fixture.digest_changed",
          `Fixture ${name} lock digest was rewritten from ${
            short(baseDigest)
          } to ${
            short(headDigest)
          } although its bytes did not change: restore the base digest`,
          { path, line: lineOf(file) },
        ));
      }
      continue;
    }
    if (rotation !== undefined && headDigest === got) {
      findings.push(finding(
        "fixture.rotated",
        `Fixture ${name} was rotated from ${short(baseDigest)} to ${
          short(got)
        } under ${rotation}: a human reviews the new bytes`,
        { path: file },
      ));
    } else if (headDigest === undefined || headDigest === baseDigest) {
      findings.push(finding(
        "fixture.digest_mismatch",
        `Fixture ${name} bytes changed: expected ${short(baseDigest)} got ${
          short(got)
        }; ${
          rotation === undefined
            ? "keep the old bytes, or have a human rotate the fixture with --allow-fixture-rotate and update fixtures.lock in the same commit"
            : `rotation is allowed by ${rotation}, but fixtures.lock must name the new digest in the same commit`
        }`,
        { path: file },
      ));
    } else {
      findings.push(finding(
        "fixture.digest_changed",
        rotation === undefined
          ? `Fixture ${name} bytes and lock digest changed from ${
            short(baseDigest)
          } to ${
            short(got)
          } without --allow-fixture-rotate: agent jobs do not rotate fixtures`
          : `Fixture ${name} lock names ${
            short(headDigest)
          } but the bytes hash to ${
            short(got)
          }: a rotation must lock exactly the new digest`,
        { path, line: lineOf(file) },
      ));
    }
  }
  return findings;
}

/**
 * Every path the fixture layer judges: the base lock's paths (all of them,
 * even those the head removed), then the paths the head lock adds.
 *
 * @example
 * ```ts
 * import { fixtureLockEntries } from "./check_fixture_lock.ts";
 * const lock = (...paths: string[]) => ({
 *   policy: { allowRotateOnAgentPr: false },
 *   files: new Map(paths.map((p) => [p, "0".repeat(64)])),
 *   lineOf: () => undefined,
 * });
 * if (fixtureLockEntries({ base: lock("a", "b"), head: lock("c") }).join() !== "a,b,c") throw new Error();
 * ```
 */
export function fixtureLockEntries(
  sides: ContractSides<FixtureLock>,
): string[] {
  const paths = new Set(sides.base?.files.keys());
  for (const file of sides.head?.files.keys() ?? []) paths.add(file);
  return [...paths];
}

function short(hash: string): string {
  return hash.slice(0, 12);
}
