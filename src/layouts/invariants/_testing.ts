/**
 * Test builders for this folder: contract values built in code, trees and
 * hand-made Python analyses.
 *
 * @module
 */
import type { Finding } from "../../core/finding.ts";
import type { EntryKind, Tree, TreeEntry } from "../../git/git.ts";
import type {
  PythonFunction,
  PythonModule,
} from "../../python/python_module.ts";
import type { FixtureLock } from "./read_fixture_lock.ts";
import type { FreezeEntry, FreezeList } from "./read_freeze_list.ts";
import type {
  PropertyRegistry,
  RegisteredProperty,
} from "./read_property_registry.ts";

/** A digest of 64 lowercase hex digits made of one repeated digit. */
export function sha(digit: string): string {
  return digit.repeat(64);
}

/** A tree holding `files` (path → kind) and their parent directories. */
export function treeOf(files: Record<string, EntryKind>): Tree {
  const tree = new Map<string, TreeEntry>();
  for (const [path, kind] of Object.entries(files)) {
    const segments = path.split("/");
    for (let n = 1; n < segments.length; n++) {
      const dir = segments.slice(0, n).join("/");
      tree.set(dir, { path: dir, kind: "tree", oid: `t:${dir}`, size: 0 });
    }
    tree.set(path, { path, kind, oid: `o:${path}`, size: 10 });
  }
  return tree;
}

/** A hand-made analysis of one function with `source`. */
export function pyFunction(
  qualname: string,
  source: string,
  extra: Partial<PythonFunction> = {},
): PythonFunction {
  return {
    name: qualname.split(".").at(-1) ?? qualname,
    qualname,
    line: 10,
    endLine: 12,
    source,
    decorators: [],
    usesHypothesis: true,
    skips: [],
    exampleAssertions: 0,
    ...extra,
  };
}

/** A hand-made analysis of one module. */
export function pyModule(...functions: PythonFunction[]): PythonModule {
  return { functions: new Map(functions.map((fn) => [fn.qualname, fn])) };
}

/** A registry built in code (lines are the entry index + 1, policy lines 2 and 3). */
export function registry(
  properties: Omit<RegisteredProperty, "index">[],
  policy: Partial<PropertyRegistry["policy"]> = {},
): PropertyRegistry {
  return {
    policy: { minProperties: 0, allowAgentAdditions: false, ...policy },
    properties: properties.map((p, index) => ({ ...p, index })),
    lineOf: (path) =>
      path[0] === "policy"
        ? path[1] === "min_properties" ? 2 : 3
        : typeof path[1] === "number"
        ? 100 + path[1]
        : undefined,
  };
}

/** A lock built in code, without lines. */
export function lock(
  files: Record<string, string>,
  allowRotateOnAgentPr = false,
): FixtureLock {
  return {
    policy: { allowRotateOnAgentPr },
    files: new Map(Object.entries(files)),
    lineOf: () => undefined,
  };
}

/** A complete freeze on `file::qualname` (a `Class.test` qualname is written `Class::test`). */
export function freeze(
  id: string,
  file: string,
  qualname: string,
  extra: Partial<FreezeEntry> = {},
): FreezeEntry {
  return {
    index: 0,
    id,
    test: { nodeId: `${file}::${qualname.replace(".", "::")}`, file, qualname },
    bodySha256: sha("b"),
    expiresOn: "2026-09-26",
    owner: "human",
    reason: "tzdata on the host",
    missing: [],
    ...extra,
  };
}

/** A freeze list built in code, indexes set by position, without lines. */
export function freezeList(
  freezes: FreezeEntry[],
  policy: Partial<FreezeList["policy"]> = {},
): FreezeList {
  return {
    policy: { maxFrozen: 3, failOnExpired: true, ...policy },
    freezes: freezes.map((f, index) => ({ ...f, index })),
    lineOf: () => undefined,
  };
}

/** `rule` ids of `findings`, blocking ones first, each group sorted. */
export function ruleIds(findings: readonly Finding[]): string[] {
  const blocking = findings.filter((f) => f.blocking).map((f) => f.rule);
  const other = findings.filter((f) => !f.blocking).map((f) => `~${f.rule}`);
  return [...blocking.sort(), ...other.sort()];
}
