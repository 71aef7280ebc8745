import assert from "node:assert/strict";
import { findExecutable, SYSTEM_DIRS } from "./_exec.ts";
import { canDropBoundingSet } from "./_setup.ts";
import {
  type IsolationRequest,
  type IsolationTrials,
  probeIsolation,
} from "./probe_isolation.ts";
import {
  SandboxCommandError,
  SandboxUnavailableError,
} from "./sandbox_errors.ts";

const REAL_TOOLS = [
  "prlimit",
  "env",
  "setpriv",
  "unshare",
  "sh",
  "mount",
  "kill",
  "id",
  "chown",
];

/**
 * A tool directory with the real tools except bwrap, which is a script that
 * fails as bwrap does in a container without namespaces.
 */
async function toolDir(options: { bwrap: boolean; unshare: boolean }) {
  const dir = await Deno.makeTempDir({ prefix: "pawl-probe-tools-" });
  for (const name of REAL_TOOLS) {
    if (name === "unshare" && !options.unshare) continue;
    const real = await findExecutable(name, SYSTEM_DIRS);
    assert.ok(real !== undefined, `${name} is installed`);
    await Deno.symlink(real, `${dir}/${name}`);
  }
  if (options.bwrap) {
    await Deno.writeTextFile(
      `${dir}/bwrap`,
      "#!/bin/sh\necho 'bwrap: Creating new namespace failed: Operation not permitted' >&2\nexit 1\n",
      { mode: 0o755 },
    );
  }
  return dir;
}

/** Tests here use their own uid: other test files sweep theirs. */
const UID = 64182;

/** Whether bwrap can make namespaces here, asked without pawl's code. */
async function bwrapWorks(): Promise<boolean> {
  try {
    const out = await new Deno.Command("bwrap", {
      args: ["--unshare-net", "--unshare-pid", "--ro-bind", "/", "/", "true"],
      stdout: "null",
      stderr: "null",
    }).output();
    return out.success;
  } catch {
    return false;
  }
}

Deno.test("probeIsolation() picks bwrap exactly when bwrap can make namespaces", async () => {
  const report = await probeIsolation({
    requested: "auto",
    uid: UID,
    gid: UID + 1,
  });
  if (await bwrapWorks()) {
    assert.equal(report.tier, "bwrap");
    assert.equal(report.network, "isolated");
  } else {
    assert.notEqual(report.tier, "bwrap");
    assert.match(report.notes[0] ?? "", /^bwrap unavailable: /);
  }
  assert.equal(report.uid, UID);
  assert.equal(report.gid, UID + 1);
});

Deno.test("probeIsolation() falls back tier by tier and says why", async (t) => {
  await t.step(
    "bwrap fails: unshare, with bwrap's error in the notes",
    async () => {
      const dir = await toolDir({ bwrap: true, unshare: true });
      try {
        const report = await probeIsolation({
          requested: "auto",
          toolDirs: [dir],
          uid: UID,
        });
        assert.equal(report.tier, "unshare");
        assert.equal(report.network, "isolated");
        assert.equal(report.notes.length, 1);
        assert.match(
          report.notes[0]!,
          /^bwrap unavailable: bwrap exited with code 1: bwrap: Creating new namespace failed/,
        );
      } finally {
        await Deno.remove(dir, { recursive: true });
      }
    },
  );

  await t.step(
    "neither bwrap nor unshare: uid, network inherited",
    async () => {
      const dir = await toolDir({ bwrap: false, unshare: false });
      try {
        const report = await probeIsolation({
          requested: "auto",
          toolDirs: [dir],
          uid: UID,
        });
        assert.equal(report.tier, "uid");
        assert.equal(report.network, "inherited");
        assert.equal(report.uid, UID);
        assert.deepEqual(report.notes.map((n) => n.split(":")[0]), [
          "bwrap unavailable",
          "unshare unavailable",
        ]);
      } finally {
        await Deno.remove(dir, { recursive: true });
      }
    },
  );

  await t.step("an explicit tier that fails throws", async () => {
    const dir = await toolDir({ bwrap: true, unshare: true });
    try {
      await assert.rejects(
        probeIsolation({ requested: "bwrap", toolDirs: [dir], uid: UID }),
        (error: unknown) =>
          error instanceof SandboxUnavailableError &&
          error.message.startsWith(
            `Cannot run the tests as uid ${UID} with isolation "bwrap": bwrap unavailable: bwrap exited with code 1`,
          ),
      );
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  });
});

Deno.test("probeIsolation() refuses to isolate when pawl is not root", async (t) => {
  for (const requested of ["auto", "bwrap", "unshare", "uid"] as const) {
    await t.step(requested, async () => {
      await assert.rejects(
        probeIsolation({ requested, currentUid: 1000, uid: UID }),
        (error: unknown) =>
          error instanceof SandboxUnavailableError &&
          error.message ===
            `Cannot run the tests as uid ${UID}: pawl runs as uid 1000 and only root can switch to the sandbox uid; run pawl as root (for example in its container) or pass --isolation none`,
      );
    });
  }
  await t.step("none still works", async () => {
    const report = await probeIsolation({
      requested: "none",
      currentUid: 1000,
    });
    assert.equal(report.tier, "none");
    assert.equal(report.network, "inherited");
    assert.equal(report.uid, undefined);
    assert.deepEqual(report.notes, [
      "no isolation: the tests run as uid 1000 with only rlimits, the timeout and the output cap",
    ]);
  });
});

Deno.test("probeIsolation() takes the sandbox uid from user pawl, and warns about a uid someone owns", async (t) => {
  const dir = await Deno.makeTempDir({ prefix: "pawl-probe-passwd-" });
  try {
    await t.step("user pawl", async () => {
      await Deno.writeTextFile(
        `${dir}/passwd`,
        "root:x:0:0:root:/root:/bin/bash\npawl:x:64183:64184::/nonexistent:/usr/sbin/nologin\n",
      );
      const report = await probeIsolation({
        requested: "uid",
        passwdPath: `${dir}/passwd`,
      });
      assert.equal(report.uid, 64183);
      assert.equal(report.gid, 64184);
      assert.deepEqual(report.notes, []);
    });
    await t.step("a uid that belongs to another user", async () => {
      await Deno.writeTextFile(
        `${dir}/passwd`,
        "pawl:x:64185:64185::/:/bin/sh\nalice:x:64185:64185::/home/alice:/bin/sh\n",
      );
      const report = await probeIsolation({
        requested: "uid",
        passwdPath: `${dir}/passwd`,
      });
      assert.equal(report.uid, 64185);
      assert.deepEqual(report.notes, [
        'uid 64185 belongs to "alice": every process of that uid is killed after each run',
      ]);
    });
    await t.step("root is never the sandbox uid", async () => {
      await assert.rejects(
        probeIsolation({ requested: "uid", uid: 0 }),
        SandboxCommandError,
      );
    });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("probeIsolation() tries each tier once for the sandboxes sharing trials, never across tiers, hidden paths or time limits", async () => {
  // uids of this test's own.
  const [one, two] = [64404, 64405];
  const dir = await toolDir({ bwrap: true, unshare: false });
  try {
    // prlimit (the first program of every trial) and the failing bwrap
    // count their calls.
    const count = async (name: string) => {
      try {
        return (await Deno.readTextFile(`${dir}/${name}.calls`)).length;
      } catch {
        return 0;
      }
    };
    const real = await findExecutable("prlimit", SYSTEM_DIRS);
    await Deno.remove(`${dir}/prlimit`);
    await Deno.writeTextFile(
      `${dir}/prlimit`,
      `#!/bin/sh\nprintf x >> '${dir}/prlimit.calls'\nexec '${real}' "$@"\n`,
      { mode: 0o755 },
    );
    const bwrap = await Deno.readTextFile(`${dir}/bwrap`);
    await Deno.writeTextFile(
      `${dir}/bwrap`,
      bwrap.replace(
        "#!/bin/sh\n",
        `#!/bin/sh\nprintf x >> '${dir}/bwrap.calls'\n`,
      ),
      { mode: 0o755 },
    );
    const trials: IsolationTrials = new Map();
    const probe = (
      requested: "uid" | "auto",
      uid: number,
      hidden: string[] = [],
    ) =>
      probeIsolation({
        requested,
        uid,
        toolDirs: [dir],
        hiddenPaths: hidden,
        trials,
      });
    const first = await probe("uid", one);
    const second = await probe("uid", two);
    assert.deepEqual([first.tier, first.uid, second.tier, second.uid], [
      "uid",
      one,
      "uid",
      two,
    ]);
    assert.equal(await count("prlimit"), 1);
    // Another request tries the tiers it has not tried yet, once.
    const auto = await probe("auto", one);
    assert.equal(auto.tier, "uid");
    assert.match(auto.notes.join("\n"), /bwrap unavailable/);
    assert.deepEqual([await count("bwrap"), await count("prlimit")], [1, 1]);
    assert.equal((await probe("auto", two)).tier, "uid");
    assert.deepEqual([await count("bwrap"), await count("prlimit")], [1, 1]);
    // Other hidden paths are another trial.
    await probe("uid", two, [dir]);
    assert.equal(await count("prlimit"), 2);
    // So is another time limit.
    await probeIsolation({
      requested: "uid",
      uid: two,
      toolDirs: [dir],
      hiddenPaths: [dir],
      trials,
      probeTimeoutMs: 20_000,
    });
    assert.equal(await count("prlimit"), 3);
    // Without shared trials every probe tries.
    await probeIsolation({ requested: "uid", uid: one, toolDirs: [dir] });
    assert.equal(await count("prlimit"), 4);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("probeIsolation() refuses a tier when any one tool it needs is missing", async (t) => {
  const table: [string, IsolationRequest, RegExp][] = [
    ["bwrap", "auto", /^bwrap unavailable: "bwrap" not found in /],
    ["kill", "bwrap", /bwrap unavailable: "kill" not found in /],
    ["mount", "unshare", /unshare unavailable: "mount" not found in /],
    ["kill", "uid", /uid unavailable: "kill" not found in .*procps/],
    ["sh", "unshare", /unshare unavailable: "sh" not found in .*dash/],
    [
      "env",
      "none",
      /^Cannot run the tests without isolation: "env" not found in /,
    ],
  ];
  for (const [tool, requested, note] of table) {
    await t.step(`${tool} for ${requested}`, async () => {
      const dir = await toolDir({ bwrap: false, unshare: true });
      try {
        if (requested === "bwrap") {
          // The real one: only the missing tool may stop the tier.
          const real = await findExecutable("bwrap", SYSTEM_DIRS);
          assert.ok(real !== undefined, "bwrap is installed");
          await Deno.symlink(real, `${dir}/bwrap`);
        }
        await Deno.remove(`${dir}/${tool}`).catch(() => {});
        const probe = probeIsolation({ requested, toolDirs: [dir], uid: UID });
        if (requested === "auto") {
          const report = await probe;
          assert.notEqual(report.tier, "bwrap");
          assert.match(report.notes[0] ?? "", note);
        } else {
          await assert.rejects(
            probe,
            (error: unknown) =>
              error instanceof SandboxUnavailableError &&
              note.test(error.message),
          );
        }
      } finally {
        await Deno.remove(dir, { recursive: true });
      }
    });
  }
});

Deno.test("probeIsolation() refuses a tier whose trial does not run as the sandbox uid", async (t) => {
  const table: [string, string, RegExp][] = [
    [
      "it runs the command as root",
      "echo 0",
      new RegExp(
        `^bwrap unavailable: bwrap ran "id -u" as "0" instead of "${UID}"`,
      ),
    ],
    [
      "it prints the uid but fails",
      `echo ${UID}; exit 3`,
      /^bwrap unavailable: bwrap exited with code 3: no error output/,
    ],
    [
      "it runs the command as another uid",
      "echo 64999",
      new RegExp(
        `^bwrap unavailable: bwrap ran "id -u" as "64999" instead of "${UID}"`,
      ),
    ],
    [
      "it fails with a long error: the first 500 characters of it",
      "printf 'x%.0s' $(seq 600) >&2; exit 1",
      /^bwrap unavailable: bwrap exited with code 1: x{500}$/,
    ],
    [
      "it does not finish in time",
      "exec sleep 60",
      /^bwrap unavailable: bwrap did not finish within 300 ms/,
    ],
  ];
  for (const [name, body, note] of table) {
    await t.step(name, async () => {
      const dir = await toolDir({ bwrap: false, unshare: false });
      try {
        await Deno.writeTextFile(`${dir}/bwrap`, `#!/bin/sh\n${body}\n`, {
          mode: 0o755,
        });
        await assert.rejects(
          probeIsolation({
            requested: "bwrap",
            toolDirs: [dir],
            uid: UID,
            probeTimeoutMs: 300,
          }),
          (error: unknown) =>
            error instanceof SandboxUnavailableError &&
            note.test(error.notes[0] ?? ""),
        );
      } finally {
        await Deno.remove(dir, { recursive: true });
      }
    });
  }
});

Deno.test("probeIsolation() refuses to run without isolation when id -u prints no uid", async (t) => {
  for (const printed of ["root", "uid 0", "0 root"]) {
    await t.step(printed, async () => {
      const dir = await toolDir({ bwrap: false, unshare: false });
      try {
        await Deno.remove(`${dir}/prlimit`);
        await Deno.writeTextFile(
          `${dir}/prlimit`,
          `#!/bin/sh\necho '${printed}'\n`,
          { mode: 0o755 },
        );
        await assert.rejects(
          probeIsolation({ requested: "none", toolDirs: [dir], currentUid: 0 }),
          (error: unknown) =>
            error instanceof SandboxUnavailableError &&
            error.message.startsWith(
              `Cannot run the tests without isolation: prlimit ran "id -u" as "${printed}"`,
            ),
        );
      } finally {
        await Deno.remove(dir, { recursive: true });
      }
    });
  }
});

Deno.test("probeIsolation() says why every tier failed when none works", async () => {
  const dir = await Deno.makeTempDir({ prefix: "pawl-no-tools-" });
  try {
    await assert.rejects(
      probeIsolation({
        requested: "auto",
        toolDirs: [dir],
        uid: UID,
        currentUid: 0,
      }),
      (error: unknown) => {
        assert.ok(error instanceof SandboxUnavailableError);
        assert.deepEqual(
          error.notes.map((note) => note.split(":")[0]),
          ["bwrap unavailable", "unshare unavailable", "uid unavailable"],
        );
        assert.equal(
          error.message,
          `Cannot run the tests as uid ${UID} with any isolation tier: ${
            error.notes.join("; ")
          }`,
        );
        return true;
      },
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("probeIsolation() tries bwrap with a run's own wrapper, and waits ten seconds for it by default", async () => {
  const dir = await toolDir({ bwrap: false, unshare: false });
  try {
    // A bwrap that keeps its arguments and answers after a while.
    await Deno.writeTextFile(
      `${dir}/bwrap`,
      `#!/bin/sh\nfor a in "$@"; do echo "$a"; done > '${dir}/args'\nsleep 0.3\necho ${UID}\n`,
      { mode: 0o755 },
    );
    const report = await probeIsolation({
      requested: "bwrap",
      toolDirs: [dir],
      uid: UID,
      hiddenPaths: ["/etc/passwd"],
    });
    assert.equal(report.tier, "bwrap");
    const args = (await Deno.readTextFile(`${dir}/args`)).split("\n");
    assert.ok(args.includes("/root"), "/root is hidden");
    assert.ok(args.includes("/etc/passwd"), "the hidden path is");
    assert.equal(
      args.includes("--bounding-set=-all"),
      await canDropBoundingSet(),
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("probeIsolation() reports a tier whose wrapper cannot be started by the reason it gave", async () => {
  const dir = await toolDir({ bwrap: false, unshare: false });
  try {
    await Deno.writeTextFile(`${dir}/bwrap`, "#!/nonexistent/sh\n", {
      mode: 0o755,
    });
    await assert.rejects(
      probeIsolation({ requested: "bwrap", toolDirs: [dir], uid: UID }),
      (error: unknown) =>
        error instanceof SandboxUnavailableError &&
        /^bwrap unavailable: Failed to spawn /.test(error.notes[0] ?? ""),
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("probeIsolation() tries a tier again for shared trials once a tool it lacked is installed", async () => {
  const dir = await toolDir({ bwrap: false, unshare: false });
  try {
    const trials: IsolationTrials = new Map();
    const probe = () =>
      probeIsolation({ requested: "auto", toolDirs: [dir], uid: UID, trials });
    assert.equal((await probe()).tier, "uid");
    const unshare = await findExecutable("unshare", SYSTEM_DIRS);
    assert.ok(unshare !== undefined, "unshare is installed");
    await Deno.symlink(unshare, `${dir}/unshare`);
    assert.equal((await probe()).tier, "unshare");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

/**
 * probeIsolation() run by a fresh pawl started through `wrapper`, as a
 * container would start it: its report, and the pid it ran as.
 */
async function probeIn(
  wrapper: readonly string[],
  requested: IsolationRequest,
): Promise<{ tier: string; notes: string[]; pid: number }> {
  const module = new URL("./probe_isolation.ts", import.meta.url).href;
  const { code, stdout, stderr } = await new Deno.Command(wrapper[0]!, {
    args: [
      ...wrapper.slice(1),
      "--",
      Deno.execPath(),
      "eval",
      `import { probeIsolation } from "${module}";` +
      `const r = await probeIsolation({ requested: "${requested}", uid: ${UID} });` +
      "console.log(JSON.stringify({ tier: r.tier, notes: r.notes, pid: Deno.pid }));",
    ],
  }).output();
  const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
  assert.equal(code, 0, decode(stderr));
  return JSON.parse(decode(stdout));
}

Deno.test("probeIsolation() where a container starts pawl: as PID 1 only a tier without a pid namespace warns of orphans; without CAP_SETPCAP the same tier still runs", async (t) => {
  const outside = await probeIsolation({ requested: "auto", uid: UID });
  const unshare = await findExecutable("unshare", SYSTEM_DIRS);
  const setpriv = await findExecutable("setpriv", SYSTEM_DIRS);
  assert.ok(unshare !== undefined && setpriv !== undefined);
  const asPid1 = [unshare, "--pid", "--fork", "--mount-proc"];
  const warns = (notes: readonly string[]) =>
    notes.some((n) => n.startsWith("pawl runs as PID 1"));
  await t.step("the uid tier, as PID 1, warns", async () => {
    const report = await probeIn(asPid1, "uid");
    assert.equal(report.pid, 1);
    assert.deepEqual([report.tier, warns(report.notes)], ["uid", true]);
  });
  await t.step(
    "the strongest tier, as PID 1, warns only when it is the uid tier",
    async () => {
      const report = await probeIn(asPid1, "auto");
      assert.equal(report.pid, 1);
      assert.equal(report.tier, outside.tier);
      assert.equal(warns(report.notes), report.tier === "uid");
    },
  );
  await t.step("not PID 1, no tier warns", () => {
    assert.equal(warns(outside.notes), false);
  });
  await t.step(
    "without CAP_SETPCAP (a container with cap_drop) the same tier runs",
    async () => {
      const report = await probeIn(
        [setpriv, "--bounding-set", "-setpcap"],
        "auto",
      );
      assert.deepEqual(
        [report.tier, report.notes],
        [outside.tier, outside.notes],
      );
    },
  );
});
