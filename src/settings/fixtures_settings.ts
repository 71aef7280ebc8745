/**
 * The `[fixtures]` table of `pawl.toml`: where content-addressed fixtures
 * may live. Read from the base commit only, like every setting, so a pull
 * request cannot move the root to reach a file it rewrote.
 *
 * @module
 */
import { z } from "zod";

/** The root that stands for the whole repository. */
export const WHOLE_REPOSITORY = ".";

/**
 * Why `root` is not a canonical repository-relative directory, or
 * `undefined` when it is (one trailing `/` is allowed; `.` is the whole
 * repository).
 *
 * @example
 * ```ts
 * import { fixtureRootProblem } from "./fixtures_settings.ts";
 * if (fixtureRootProblem("tests/") !== undefined) throw new Error();
 * if (fixtureRootProblem("../etc") === undefined) throw new Error();
 * ```
 */
export function fixtureRootProblem(root: string): string | undefined {
  if (root === WHOLE_REPOSITORY) return undefined;
  const bare = root.endsWith("/") ? root.slice(0, -1) : root;
  if (bare === "") return `is empty: write "." for the whole repository`;
  // deno-lint-ignore no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(bare)) return "contains a control character";
  if (bare.startsWith("/") || /^[A-Za-z]:/.test(bare)) {
    return "is absolute: write a path relative to the repository root";
  }
  if (bare.includes("\\")) return "contains a backslash: separate with /";
  const segments = bare.split("/");
  if (segments.includes("..")) return `contains a ".." segment`;
  if (segments.includes(".")) return `contains a "." segment`;
  if (segments.includes("")) return "contains an empty segment";
  return undefined;
}

/** One fixture root: a canonical relative directory, stored without its trailing `/`. */
const fixtureRootSchema = z.string().superRefine((root, ctx) => {
  const problem = fixtureRootProblem(root);
  if (problem === undefined) return;
  ctx.addIssue({
    code: "custom",
    message: `${JSON.stringify(root)} ${problem}`,
    params: { detail: true },
  });
}).transform((root) =>
  root !== WHOLE_REPOSITORY && root.endsWith("/") ? root.slice(0, -1) : root
);

/** The `[fixtures]` table. */
export const FixturesSettingsSchema = z.strictObject({
  /**
   * Directories registered fixtures must lie inside (`.` is the whole
   * repository). Unset: each layout's own default, `tests/fixtures/` for
   * seed 000 and the whole repository for seed 003's `fixtures.lock`.
   */
  roots: z.array(fixtureRootSchema).min(1).optional(),
});

/** Typed `[fixtures]` settings. */
export type FixturesSettings = z.infer<typeof FixturesSettingsSchema>;
