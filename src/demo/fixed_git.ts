/**
 * Git for building sample repositories: a fixed identity and fixed dates (so
 * the same files always give the same commit ids), and no system or user
 * configuration.
 *
 * @module
 */

/** The environment every sample-building git command runs with. */
export const FIXED_GIT_ENV: Readonly<Record<string, string>> = {
  GIT_AUTHOR_NAME: "Sample Author",
  GIT_AUTHOR_EMAIL: "author@example.invalid",
  GIT_COMMITTER_NAME: "Sample Author",
  GIT_COMMITTER_EMAIL: "author@example.invalid",
  GIT_AUTHOR_DATE: "2026-11-01T09:00:00Z",
  GIT_COMMITTER_DATE: "2026-11-01T09:00:00Z",
  GIT_CONFIG_NOSYSTEM: "1",
  GIT_CONFIG_GLOBAL: "/dev/null",
};

/** Run git in `dir` with {@linkcode FIXED_GIT_ENV}; returns stdout. */
export async function fixedGit(
  dir: string,
  args: readonly string[],
): Promise<string> {
  const out = await new Deno.Command("git", {
    args: ["-C", dir, "-c", "commit.gpgsign=false", ...args],
    env: FIXED_GIT_ENV,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  const decoder = new TextDecoder();
  if (!out.success) {
    throw new Error(
      `Cannot build the repository: git ${args.join(" ")} failed: ${
        decoder.decode(out.stderr).trim()
      }`,
    );
  }
  return decoder.decode(out.stdout);
}

/** Stage everything in `dir` and commit it (an empty commit is allowed). */
export async function commitAll(dir: string, message: string): Promise<void> {
  await fixedGit(dir, ["add", "-A"]);
  await fixedGit(dir, [
    "commit",
    "-q",
    "--no-verify",
    "--allow-empty",
    "-m",
    message,
  ]);
}
