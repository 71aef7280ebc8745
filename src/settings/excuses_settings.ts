/**
 * The `[[excuses]]` tables of `pawl.toml`: tests a human excuses on this
 * runner because they fail only here (a different Python, a missing
 * locale), each with an owner, a reason and an expiry, like a freeze.
 * Read from the base commit only, like every setting: the pull request
 * being judged can neither add nor extend one.
 *
 * @module
 */
import { z } from "zod";
import { identityKey, isAgentName } from "../contract/identity_key.ts";
import { parseRfc3339 } from "../core/parse_rfc3339.ts";

/**
 * Why `test` cannot name a pytest test to deselect, or `undefined`: a
 * node id (`tests/test_io.py::test_locale`, `...::Class::test_x[param]`)
 * or a test file, relative to the repository root, with no `..`, `.` or
 * empty path segment and nothing that reads as a command-line option.
 *
 * @example
 * ```ts
 * import { excuseTestProblem } from "./excuses_settings.ts";
 * if (excuseTestProblem("tests/test_io.py::test_locale") !== undefined) throw new Error();
 * if (excuseTestProblem("-p evil") === undefined) throw new Error();
 * ```
 */
export function excuseTestProblem(test: string): string | undefined {
  if (test.trim() === "") return "is empty";
  if (test !== test.trim()) return "has surrounding white space";
  // deno-lint-ignore no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(test)) return "contains a control character";
  if (test.startsWith("-")) {
    return "starts with '-' (it would read as an option)";
  }
  const file = test.split("::")[0] ?? "";
  if (file.startsWith("/") || /^[A-Za-z]:/.test(file)) {
    return "is absolute: name the test relative to the repository root";
  }
  if (file.includes("\\")) return "contains a backslash: separate with /";
  const segments = file.split("/");
  if (segments.some((s) => s === "" || s === "." || s === "..")) {
    return `has an empty, "." or ".." path segment`;
  }
  return undefined;
}

/** One excuse. */
export const ExcuseSchema = z.strictObject({
  /** pytest node id (or test file) not to run on this runner. */
  test: z.string().superRefine((test, ctx) => {
    const problem = excuseTestProblem(test);
    if (problem === undefined) return;
    ctx.addIssue({
      code: "custom",
      message: `${JSON.stringify(test)} ${problem}`,
      params: { detail: true },
    });
  }),
  /** The human who owns the excuse; never the agent. */
  owner: z.string().superRefine((owner, ctx) => {
    const why = identityKey(owner) === ""
      ? "must name the human who owns the excuse"
      : isAgentName(owner)
      ? `is ${
        JSON.stringify(owner)
      }, which reads as "agent": an excuse is a human's decision`
      : undefined;
    if (why === undefined) return;
    ctx.addIssue({ code: "custom", message: why, params: { detail: true } });
  }),
  /** RFC 3339 instant after which the test runs again. */
  expires: z.string().refine((text) => parseRfc3339(text) !== undefined, {
    message:
      'must be an RFC 3339 instant in quotes, such as "2026-12-31T00:00:00Z"',
    params: { detail: true },
  }),
  /** Why the test cannot pass on this runner (a ticket, the failure). */
  reason: z.string().refine((text) => text.trim() !== "", {
    message: "must say why the test cannot pass on this runner",
    params: { detail: true },
  }),
});

/** Typed excuse. */
export type Excuse = z.infer<typeof ExcuseSchema>;

/** The `[[excuses]]` array: test ids unique. */
export const ExcusesSettingsSchema = z.array(ExcuseSchema).superRefine(
  (excuses, ctx) => {
    const seen = new Map<string, number>();
    excuses.forEach((excuse, i) => {
      const first = seen.get(excuse.test);
      if (first === undefined) {
        seen.set(excuse.test, i);
        return;
      }
      ctx.addIssue({
        code: "custom",
        path: [i, "test"],
        message: `repeats ${JSON.stringify(excuse.test)} of excuse ${
          first + 1
        }: one excuse per test`,
        params: { detail: true },
      });
    });
  },
);
