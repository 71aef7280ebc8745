import assert from "node:assert/strict";
import { liveProcessesOf, scanUid, SYSTEM_DIRS } from "./_exec.ts";
import { findTools } from "./_setup.ts";
import {
  ANCHOR_GID,
  type ClaimTools,
  claimUid,
  type UidClaim,
} from "./_uid_claim.ts";
import { signalAs, withLeftover } from "./_testing.ts";
import {
  SandboxUidLostError,
  SandboxUnavailableError,
} from "./sandbox_errors.ts";

/**
 * uids of these tests: clear of pawl's default range and of every other
 * test's, because a claim kills whatever else runs as its uid.
 */
const FIRST = 64720;
const SECOND = 64721;
/** The uid of the tests of a claim's failures and of its release. */
const THIRD = 64722;
/**
 * The uid of the test of a mark that dies: the orphan it leaves may stay a
 * zombie no one reaps, which would count among another test's tasks.
 */
const DYING = 64723;

const CLAIM_MODULE = new URL("./_uid_claim.ts", import.meta.url).href;

async function claimTools(): Promise<ClaimTools> {
  const { setpriv, prlimit, sh, env } = await findTools(SYSTEM_DIRS);
  assert.ok(setpriv && prlimit && sh && env);
  return { setpriv, prlimit, sh, env };
}

function claim(uid: number): Promise<UidClaim | undefined> {
  return claimTools().then((tools) => claimUid(uid, { gid: uid, tools }));
}

/** Resolve once `check` holds, polling for up to 5 s. */
async function until(check: () => boolean | Promise<boolean>): Promise<void> {
  for (let i = 0; i < 500 && !(await check()); i++) {
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  assert.ok(await check());
}

/**
 * A pawl in a pid namespace of its own (a container beside this one on the
 * same kernel), claiming `uid` and holding the claim until stopped.
 */
async function claimElsewhere(uid: number) {
  const script = `
    import { claimUid } from ${JSON.stringify(CLAIM_MODULE)};
    const claim = await claimUid(${uid}, {
      gid: ${uid},
      tools: ${JSON.stringify(await claimTools())},
    });
    console.log(claim === undefined ? "taken" : "claimed");
    for await (const _ of Deno.stdin.readable) { /* hold until stdin closes */ }
    await claim?.release();
  `;
  const child = new Deno.Command("unshare", {
    args: [
      "--pid",
      "--fork",
      "--mount-proc",
      "--kill-child",
      "--",
      Deno.execPath(),
      "eval",
      script,
    ],
    stdin: "piped",
    stdout: "piped",
    stderr: "inherit",
  }).spawn();
  const reader = child.stdout.getReader();
  const first = await reader.read();
  reader.releaseLock();
  const writer = child.stdin.getWriter();
  return {
    said: new TextDecoder().decode(first.value).trim(),
    async stop(): Promise<void> {
      await writer.close();
      await child.status;
      await child.stdout.cancel();
    },
  };
}

Deno.test("claimUid() marks a free uid with a process that outlives the sweeps it does", async () => {
  const held = await claim(FIRST);
  assert.ok(held !== undefined);
  try {
    assert.equal(held.anchored, true);
    const [mark] = await liveProcessesOf(FIRST);
    await withLeftover(FIRST, async (leftover) => {
      await until(async () =>
        (await held.others()).join() === String(leftover.pid)
      );
      await held.sweep();
      assert.equal((await leftover.status).signal, "SIGKILL");
    });
    assert.deepEqual(await held.others(), []);
    assert.deepEqual(await liveProcessesOf(FIRST), [mark]);
    assert.equal(held.anchored, true);
  } finally {
    await held.release();
  }
  assert.deepEqual(await liveProcessesOf(FIRST), []);
});

Deno.test("claimUid() never claims a uid another pawl on the kernel holds, seen or unseen, and leaves that one's processes alone", async (t) => {
  await t.step("held in a sibling pid namespace: unseen", async () => {
    const other = await claimElsewhere(FIRST);
    try {
      assert.equal(other.said, "claimed");
      const beside = await claimElsewhere(FIRST);
      await beside.stop();
      assert.equal(beside.said, "taken");
      // The holder's mark still runs.
      assert.equal((await liveProcessesOf(FIRST)).length, 1);
    } finally {
      await other.stop();
    }
  });
  await t.step("held in the pid namespace above: unseen", async () => {
    const held = await claim(FIRST);
    assert.ok(held !== undefined);
    try {
      const below = await claimElsewhere(FIRST);
      await below.stop();
      assert.equal(below.said, "taken");
      assert.equal(held.anchored, true);
    } finally {
      await held.release();
    }
  });
  await t.step("held in a pid namespace below: seen", async () => {
    const other = await claimElsewhere(FIRST);
    try {
      assert.equal(other.said, "claimed");
      const [mark] = await liveProcessesOf(FIRST);
      assert.equal(await claim(FIRST), undefined);
      assert.deepEqual(await liveProcessesOf(FIRST), [mark]);
    } finally {
      await other.stop();
    }
  });
  await t.step("a process of the uid it cannot see", async () => {
    // Not a pawl's: any process of the uid in another container.
    const hidden = new Deno.Command("unshare", {
      args: [
        "--pid",
        "--fork",
        "--kill-child",
        "--",
        "setpriv",
        `--reuid=${SECOND}`,
        `--regid=${SECOND}`,
        "--clear-groups",
        "--",
        "sleep",
        "1000",
      ],
      stdin: "null",
      stdout: "null",
      stderr: "null",
    }).spawn();
    try {
      await until(async () => (await liveProcessesOf(SECOND)).length === 1);
      const beside = await claimElsewhere(SECOND);
      await beside.stop();
      assert.equal(beside.said, "taken");
      assert.equal((await liveProcessesOf(SECOND)).length, 1);
    } finally {
      // Its uid change cleared the death signal unshare gave it: it is
      // killed here, where it can be seen.
      await signalAs(SECOND, await liveProcessesOf(SECOND), "SIGKILL");
      await hidden.status;
    }
  });
  assert.deepEqual(await liveProcessesOf(FIRST), []);
});

Deno.test("a claim's sweep marks the uid again when its mark was killed", async () => {
  const held = await claim(FIRST);
  assert.ok(held !== undefined);
  try {
    const [mark] = await liveProcessesOf(FIRST);
    await signalAs(FIRST, [mark!], "SIGKILL");
    await until(() => !held.anchored);
    await held.sweep();
    assert.equal(held.anchored, true);
    const [again] = await liveProcessesOf(FIRST);
    assert.ok(again !== undefined && again !== mark);
  } finally {
    await held.release();
  }
});

Deno.test("a claim's sweep marks the uid again when its mark died just before, unnoticed yet", async () => {
  const held = await claim(FIRST);
  assert.ok(held !== undefined);
  try {
    const [mark] = await liveProcessesOf(FIRST);
    // Killed from here and swept at once: nothing has told the claim yet, so
    // the sweep finds out only when the mark does not answer.
    Deno.kill(mark!, "SIGKILL");
    assert.equal(held.anchored, true);
    await held.sweep();
    assert.equal(held.anchored, true);
    const [again] = await liveProcessesOf(FIRST);
    assert.ok(again !== undefined && again !== mark);
    assert.equal((await liveProcessesOf(FIRST)).length, 1);
  } finally {
    await held.release();
  }
});

Deno.test("a claim's sweep fails when another pawl took the uid while it was unmarked", async () => {
  const held = await claim(FIRST);
  assert.ok(held !== undefined);
  try {
    const [mark] = await liveProcessesOf(FIRST);
    await signalAs(FIRST, [mark!], "SIGKILL");
    await until(() => !held.anchored);
    const other = await claimElsewhere(FIRST);
    try {
      assert.equal(other.said, "claimed");
      const [theirs] = await liveProcessesOf(FIRST);
      await assert.rejects(held.sweep(), SandboxUidLostError);
      // Neither its mark nor anything else of the other pawl's was killed.
      assert.deepEqual(await liveProcessesOf(FIRST), [theirs]);
    } finally {
      await other.stop();
    }
  } finally {
    await held.release();
  }
  assert.deepEqual(await liveProcessesOf(FIRST), []);
});

Deno.test("claimUid() refuses to lease a uid whose tests would run in the anchors' group, before starting anything", async () => {
  await assert.rejects(
    claimUid(FIRST, { gid: ANCHOR_GID, tools: await claimTools() }),
    (error: Error) => {
      assert.ok(error instanceof SandboxUnavailableError);
      assert.match(error.message, /uid 64720/);
      assert.match(error.message, /group 65534/);
      return true;
    },
  );
  assert.deepEqual(await liveProcessesOf(FIRST), []);
});

Deno.test("claimUid() reads a process count the kernel refuses as another pawl's claim, and any other failure of the count as unavailable", async (t) => {
  const dir = await Deno.makeTempDir({ prefix: "pawl-claim-" });
  /** The claim tools, with a prlimit that says `stderr` and exits `code`. */
  const countFails = async (code: number, stderr: string) => {
    const prlimit = `${dir}/prlimit-${code}`;
    await Deno.writeTextFile(
      prlimit,
      `#!/bin/sh\necho ${JSON.stringify(stderr)} >&2\nexit ${code}\n`,
    );
    await Deno.chmod(prlimit, 0o755);
    return { ...(await claimTools()), prlimit };
  };
  try {
    await t.step("refused: taken", async () => {
      const tools = await countFails(
        1,
        "prlimit: failed to execute env: Resource temporarily unavailable",
      );
      assert.equal(await claimUid(FIRST, { gid: FIRST, tools }), undefined);
      assert.deepEqual(await liveProcessesOf(FIRST), []);
    });
    await t.step("failed otherwise: unavailable", async () => {
      const tools = await countFails(3, "prlimit: unknown option");
      await assert.rejects(
        claimUid(FIRST, { gid: FIRST, tools }),
        (error: Error) => {
          assert.ok(error instanceof SandboxUnavailableError);
          assert.match(error.message, /uid 64720/);
          assert.match(
            error.message,
            /prlimit exited with code 3: prlimit: unknown option/,
          );
          return true;
        },
      );
      assert.deepEqual(await liveProcessesOf(FIRST), []);
    });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

/** Claim tools in which `name` is a script of `body` (in `dir`). */
async function toolsWith(
  dir: string,
  name: "setpriv" | "prlimit",
  body: string,
): Promise<ClaimTools> {
  const path = `${dir}/${name}`;
  await Deno.writeTextFile(path, `#!/bin/sh\n${body}\n`);
  await Deno.chmod(path, 0o755);
  return { ...(await claimTools()), [name]: path };
}

Deno.test("a claim is unmarked as soon as its release starts, and leaves nothing of the uid running, however often it is released", async () => {
  const held = await claim(THIRD);
  assert.ok(held !== undefined);
  assert.equal(held.anchored, true);
  // Unmarked from the moment its release starts, before its mark is reaped.
  const releasing = held.release();
  assert.equal(held.anchored, false);
  await releasing;
  assert.equal(held.anchored, false);
  await held.release();
  assert.equal(held.anchored, false);
  assert.deepEqual(await liveProcessesOf(THIRD), []);
});

Deno.test("claimUid() is unavailable when no process starts as the uid, saying what stopped it", async (t) => {
  const dir = await Deno.makeTempDir({ prefix: "pawl-claim-" });
  try {
    for (
      const [name, body, said] of [
        [
          "setpriv fails, saying why",
          "echo 'setpriv: setresuid failed: Operation not permitted' >&2; exit 1",
          /: cannot start a process as the uid: setpriv: setresuid failed: Operation not permitted$/,
        ],
        [
          "setpriv fails silently",
          "exit 1",
          /: cannot start a process as the uid: it did not start within 10 s$/,
        ],
        [
          "what starts is not the mark",
          "echo 'not the mark' >&2; echo started",
          /: cannot start a process as the uid: not the mark$/,
        ],
      ] as const
    ) {
      await t.step(name, async () => {
        const tools = await toolsWith(dir, "setpriv", body);
        await assert.rejects(
          claimUid(THIRD, { gid: THIRD, tools }),
          (error: Error) => {
            assert.ok(error instanceof SandboxUnavailableError);
            assert.match(error.message, /^Cannot lease sandbox uid 64722: /);
            assert.match(error.message, said);
            return true;
          },
        );
      });
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("claimUid() reads a process count killed by a signal as another pawl sweeping the uid", async () => {
  const dir = await Deno.makeTempDir({ prefix: "pawl-claim-" });
  try {
    const tools = await toolsWith(dir, "prlimit", "kill -9 $$");
    assert.equal(await claimUid(THIRD, { gid: THIRD, tools }), undefined);
    assert.deepEqual(await liveProcessesOf(THIRD), []);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("claimUid() claims a uid whose only other task is a zombie no one reaps", async () => {
  // A zombie of the uid counts against its process limit until reaped:
  // its parent here is a root `sleep` that never reaps it.
  const holder = new Deno.Command("unshare", {
    args: [
      "--pid",
      "--fork",
      "--kill-child",
      "--",
      "sh",
      "-c",
      `setpriv --reuid=${THIRD} --regid=${THIRD} --clear-groups -- true & exec sleep 1000`,
    ],
    stdin: "null",
    stdout: "null",
    stderr: "null",
  }).spawn();
  try {
    await until(async () => {
      const scan = await scanUid(THIRD);
      return scan.tasks === 1 && scan.live.length === 0;
    });
    const held = await claim(THIRD);
    assert.ok(held !== undefined);
    try {
      assert.equal(held.anchored, true);
      assert.deepEqual(await held.others(), []);
      assert.equal((await scanUid(THIRD)).tasks, 2);
    } finally {
      await held.release();
    }
  } finally {
    holder.kill("SIGKILL");
    await holder.status;
  }
  await until(async () => (await scanUid(THIRD)).tasks === 0);
});

Deno.test("claimUid() kills what a crashed holder left running as the uid, then claims it", async () => {
  await withLeftover(THIRD, async (leftover) => {
    await until(async () => (await liveProcessesOf(THIRD)).length === 1);
    const held = await claim(THIRD);
    assert.ok(held !== undefined);
    try {
      assert.equal((await leftover.status).signal, "SIGKILL");
      assert.deepEqual(await held.others(), []);
      assert.equal((await liveProcessesOf(THIRD)).length, 1);
      assert.equal(held.anchored, true);
    } finally {
      await held.release();
    }
  });
  assert.deepEqual(await liveProcessesOf(THIRD), []);
});

Deno.test("claimUid() does not claim a uid whose mark died before the claim settled", async () => {
  const dir = await Deno.makeTempDir({ prefix: "pawl-claim-" });
  try {
    // The mark's shell must be one the uid can run.
    await Deno.chmod(dir, 0o755);
    const sh = `${dir}/sh`;
    // A mark that says it is ready only once it has died.
    await Deno.writeTextFile(
      sh,
      "#!/bin/sh\np=$$\n(until ! grep -qE '^State:[[:space:]]*[RSDT]' /proc/$p/status 2>/dev/null; do :; done; echo ready) &\nexit 0\n",
    );
    await Deno.chmod(sh, 0o755);
    const tools = { ...(await claimTools()), sh };
    assert.equal(await claimUid(DYING, { gid: DYING, tools }), undefined);
    await until(async () => (await liveProcessesOf(DYING)).length === 0);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
