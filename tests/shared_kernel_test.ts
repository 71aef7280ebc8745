/**
 * pawl in separate containers on one kernel: each "container" has its own
 * mount namespace with a private `/run` (so its own uid locks) and `/tmp`;
 * two also have their own pid namespace, and one shares the host's (a pod
 * with `hostPID`). All three judge a pull request whose suite holds 300
 * processes at once, from the same uid range at the same time. A uid's
 * process limit counts its processes in every namespace, and a pawl in the
 * host's pid namespace can kill a container's, so sharing a uid would starve
 * one suite's forks or kill another's tests: each must lease a uid no other
 * pawl on the kernel holds, and every verdict must be the one it gets alone.
 */
import assert from "node:assert/strict";
import { check, explain, leftoversOf, type PawlResult, ROOT } from "./_cli.ts";
import { buildRepo, defaultBaseFiles, type TestRepo } from "./_repo.ts";

/** This file's own uids: room for every container's three. */
const FIRST_UID = 64700;
const LAST_UID = FIRST_UID + 11;

/**
 * A test that starts 300 processes and keeps them alive together for a few
 * seconds: two such suites on one uid exceed its limit of 512.
 */
const FORK_HEAVY = [
  "import subprocess",
  "",
  "",
  "def test_three_hundred_children_at_once():",
  "    children = []",
  "    try:",
  "        for _ in range(300):",
  '            children.append(subprocess.Popen(["sleep", "6"]))',
  "    finally:",
  "        for child in children:",
  "            child.wait()",
  "    assert len(children) == 300",
  "",
].join("\n");

/**
 * The argv prefix that runs a command in a "container": private mounts with
 * a fresh tmpfs on `/run` and `/tmp`, the repository bound at `/run/repo`
 * and `out` at `/run/out`; with `ownPids`, a pid namespace of its own too.
 * `unshare --kill-child` takes the container down with the test.
 */
function container(repo: string, out: string, ownPids: boolean): string[] {
  return [
    "unshare",
    "--mount",
    "--propagation",
    "private",
    ...(ownPids ? ["--pid", "--fork", "--mount-proc", "--kill-child"] : []),
    "--",
    "sh",
    "-c",
    [
      "repo=$1; out=$2; pawl=$3; shift 3",
      "mount -t tmpfs -o mode=0755 container-run /run",
      "mkdir /run/repo /run/out /run/pawl-src",
      'mount --bind "$repo" /run/repo',
      'mount --bind "$out" /run/out',
      // pawl's own checkout may be under /tmp, which the container hides.
      // Not at /run/pawl: the uid locks live there, private to the
      // container, and must not land in (or be shared through) the checkout.
      'mount --bind "$pawl" /run/pawl-src',
      "mount -t tmpfs -o mode=1777 container-tmp /tmp",
      '"$@"',
    ].join(" && "),
    "container",
    repo,
    out,
    ROOT,
  ];
}

/** The uids a run's tests ran as, from its "The tests ran as uids ..." line. */
function uidsOf(stderr: string): number[] {
  const list = /The tests ran as uids? ([0-9–, ]+) \(/.exec(stderr)?.[1] ?? "";
  return list.split(", ").filter((part) => part !== "").flatMap((part) => {
    const [first, last = first] = part.split("–").map(Number);
    return Array.from({ length: last! - first! + 1 }, (_, i) => first! + i);
  });
}

/** `pawl check` of `repo`'s `agent/pr` in a container. */
async function checkIn(
  repo: TestRepo,
  ownPids: boolean,
): Promise<{ result: PawlResult; verdict: string | undefined }> {
  const out = await Deno.makeTempDir({ prefix: "pawl-container-out-" });
  try {
    const result = await check("/run/repo", "agent/pr", {
      wrapper: container(repo.dir, out, ownPids),
      main: "/run/pawl-src/main.ts",
      out: false,
      quiet: false, // it says which uids the tests ran as
      extra: ["--out", "/run/out/verdict.json"],
      env: { PAWL_SANDBOX_UIDS: `${FIRST_UID}-${LAST_UID}` },
    });
    const verdict = await Deno.readTextFile(`${out}/verdict.json`).catch(() =>
      undefined
    );
    return { result, verdict };
  } finally {
    await Deno.remove(out, { recursive: true });
  }
}

Deno.test("pawl in containers on one kernel never shares a sandbox uid: fork-heavy suites judged at once all pass", async () => {
  const repos: TestRepo[] = [];
  try {
    for (let i = 0; i < 3; i++) {
      repos.push(
        await buildRepo({
          // Mutation off: each container then holds its uids for its
          // whole judgement, so no uid may appear in two of them. The
          // mutation's extra sandboxes lease and release uids midway,
          // which another container may then lease in turn.
          base: {
            ...defaultBaseFiles(),
            "pawl.toml": "[mutation]\nenabled = false\n",
          },
          heads: { "agent/pr": { "tests/test_children.py": FORK_HEAVY } },
        }),
      );
    }
    const runs = await Promise.all([
      checkIn(repos[0]!, true),
      checkIn(repos[1]!, true),
      checkIn(repos[2]!, false),
    ]);
    const outcomes = runs.map(({ result, verdict }) =>
      `exit ${result.code}, ${
        verdict === undefined ? "no verdict" : JSON.parse(verdict).decision
      }`
    );
    assert.deepEqual(
      outcomes,
      ["exit 0, accept", "exit 0, accept", "exit 0, accept"],
      runs.map(({ result, verdict }, i) =>
        `--- container ${i + 1}: ${explain({ ...result, outText: verdict })}`
      ).join("\n"),
    );
    // No uid served two of them.
    const uids = runs.flatMap(({ result }) => uidsOf(result.stderr));
    assert.ok(uids.length >= 3, uids.join(", "));
    assert.equal(new Set(uids).size, uids.length, uids.join(", "));
    assert.deepEqual(await leftoversOf(FIRST_UID, LAST_UID), []);
  } finally {
    for (const repo of repos) await repo[Symbol.asyncDispose]();
  }
});
