import assert from "node:assert/strict";
import { withLeftover } from "./_testing.ts";
import { liveProcessesOf, SYSTEM_DIRS } from "./_exec.ts";
import { findTools } from "./_setup.ts";
import {
  DEFAULT_SANDBOX_UIDS,
  leaseSandboxUid,
  type LeaseSandboxUidOptions,
  parseUidRange,
  sandboxLeaseFrom,
} from "./lease_uid.ts";
import {
  SandboxUidRangeError,
  SandboxUidsBusyError,
  SandboxUnavailableError,
} from "./sandbox_errors.ts";

/**
 * uids of these tests: clear of pawl's default range, of the end-to-end
 * tests' range and of every other test's fixed uid, because a lease kills
 * whatever runs as the uid it takes.
 */
const FIRST = 64300;
const SECOND = 64301;
const THIRD = 64302;

const LEASE_MODULE = new URL("./lease_uid.ts", import.meta.url).href;

async function withLockDir(
  fn: (dir: string) => Promise<void>,
): Promise<void> {
  const root = await Deno.makeTempDir({ prefix: "pawl-lease-test-" });
  try {
    await Deno.chmod(root, 0o755);
    await fn(`${root}/uids`);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
}

function options(
  dir: string,
  first: number,
  last: number,
  extra: Partial<LeaseSandboxUidOptions> = {},
): LeaseSandboxUidOptions {
  return { range: { first, last }, lockDir: dir, waitMs: 0, ...extra };
}

/**
 * Another process (a real Deno) holding the lease on `uid` until its stdin
 * closes; with `ownPids`, in a pid namespace of its own (a container on the
 * same kernel, which cannot see this one's processes, nor this its).
 */
async function holder(dir: string, uid: number, ownPids = false) {
  const script = `
    import { leaseSandboxUid } from ${JSON.stringify(LEASE_MODULE)};
    const lease = await leaseSandboxUid({
      range: { first: ${uid}, last: ${uid} },
      lockDir: ${JSON.stringify(dir)},
      waitMs: 0,
    });
    console.log(lease.uid);
    for await (const _ of Deno.stdin.readable) { /* hold until stdin closes */ }
    await lease.release();
  `;
  const argv = [
    ...(ownPids
      ? ["unshare", "--pid", "--fork", "--mount-proc", "--kill-child", "--"]
      : []),
    Deno.execPath(),
    "eval",
    script,
  ];
  const child = new Deno.Command(argv[0]!, {
    args: argv.slice(1),
    stdin: "piped",
    stdout: "piped",
    stderr: "inherit",
  }).spawn();
  const reader = child.stdout.getReader();
  const first = await reader.read();
  reader.releaseLock();
  assert.equal(new TextDecoder().decode(first.value).trim(), String(uid));
  const writer = child.stdin.getWriter();
  return {
    child,
    /** Let it release and exit normally. */
    async stop(): Promise<void> {
      await writer.close();
      await child.status;
      await child.stdout.cancel();
    },
    /** Kill it with SIGKILL, as a crash would. */
    async crash(): Promise<void> {
      child.kill("SIGKILL");
      await child.status;
      await writer.close().catch(() => {});
      await child.stdout.cancel();
    },
  };
}

Deno.test("parseUidRange() reads FIRST-LAST and refuses anything else", async (t) => {
  const good: [string, number, number][] = [
    ["64200-64263", 64200, 64263],
    ["64200", 64200, 64200],
    [" 1-2 ", 1, 2],
    ["4294967294", 4294967294, 4294967294],
  ];
  for (const [text, first, last] of good) {
    await t.step(`reads "${text}"`, () => {
      assert.deepEqual(parseUidRange(text, "--sandbox-uids"), { first, last });
    });
  }
  for (
    const text of [
      "",
      "abc",
      "0-5",
      "0",
      "10-9",
      "1-4294967295",
      "64200-",
      "-64200",
      "64200..64263",
      "64200-64263-64300",
      "1e5",
    ]
  ) {
    await t.step(`refuses "${text}"`, () => {
      assert.throws(
        () => parseUidRange(text, "--sandbox-uids"),
        (error: unknown) =>
          error instanceof SandboxUidRangeError &&
          error.message.startsWith(
            `Cannot read --sandbox-uids "${text}": expected "FIRST-LAST"`,
          ),
      );
    });
  }
});

Deno.test("sandboxLeaseFrom() takes the flag, else PAWL_SANDBOX_UIDS, else the default", async (t) => {
  await t.step("the flag wins", () => {
    assert.deepEqual(
      sandboxLeaseFrom("10-20", { PAWL_SANDBOX_UIDS: "30-40" }),
      { range: { first: 10, last: 20 } },
    );
  });
  await t.step("then the environment", () => {
    assert.deepEqual(
      sandboxLeaseFrom(undefined, {
        PAWL_SANDBOX_UIDS: "30-40",
        PAWL_SANDBOX_LOCK_DIR: "/var/lock/pawl",
        PAWL_SANDBOX_UID_WAIT: "5",
      }),
      {
        range: { first: 30, last: 40 },
        lockDir: "/var/lock/pawl",
        waitMs: 5000,
      },
    );
  });
  await t.step("then the default range", () => {
    assert.deepEqual(sandboxLeaseFrom(undefined, { PAWL_SANDBOX_UIDS: "" }), {
      range: { ...DEFAULT_SANDBOX_UIDS },
    });
    assert.equal(DEFAULT_SANDBOX_UIDS.first, 64123);
  });
  await t.step("bad values are usage errors naming their source", () => {
    for (
      const [env, pattern] of [
        [{ PAWL_SANDBOX_UIDS: "many" }, /PAWL_SANDBOX_UIDS "many"/],
        [{ PAWL_SANDBOX_UID_WAIT: "soon" }, /PAWL_SANDBOX_UID_WAIT "soon"/],
        [{ PAWL_SANDBOX_LOCK_DIR: "run/pawl" }, /PAWL_SANDBOX_LOCK_DIR/],
      ] as const
    ) {
      assert.throws(
        () => sandboxLeaseFrom(undefined, env),
        (e: unknown) =>
          e instanceof SandboxUidRangeError && pattern.test(e.message),
      );
    }
    assert.throws(
      () => sandboxLeaseFrom("5-", {}, "--sandbox-uid"),
      /Cannot read --sandbox-uid "5-"/,
    );
  });
});

Deno.test("sandboxLeaseFrom() reads an empty variable as unset, and a wait only as whole seconds", async (t) => {
  await t.step("empty lock directory and wait: the defaults", () => {
    assert.deepEqual(
      sandboxLeaseFrom(undefined, {
        PAWL_SANDBOX_LOCK_DIR: "",
        PAWL_SANDBOX_UID_WAIT: "",
      }),
      { range: { ...DEFAULT_SANDBOX_UIDS } },
    );
  });
  await t.step("a wait of 0 s and of 999999 s are read", () => {
    assert.equal(
      sandboxLeaseFrom(undefined, { PAWL_SANDBOX_UID_WAIT: "0" }).waitMs,
      0,
    );
    assert.equal(
      sandboxLeaseFrom(undefined, { PAWL_SANDBOX_UID_WAIT: "999999" }).waitMs,
      999_999_000,
    );
  });
  for (const wait of ["5s", "x5", "-5", "1.5", "1234567", " 5"]) {
    await t.step(`a wait of "${wait}" is refused`, () => {
      assert.throws(
        () => sandboxLeaseFrom(undefined, { PAWL_SANDBOX_UID_WAIT: wait }),
        (e: unknown) =>
          e instanceof SandboxUidRangeError &&
          e.message ===
            `Cannot read PAWL_SANDBOX_UID_WAIT "${wait}": expected whole seconds (e.g. "60")`,
      );
    });
  }
  await t.step("an empty flag is refused, not read as unset", () => {
    assert.throws(
      () => sandboxLeaseFrom("", { PAWL_SANDBOX_UIDS: "30-40" }),
      (e: unknown) =>
        e instanceof SandboxUidRangeError &&
        e.message.startsWith('Cannot read --sandbox-uids ""'),
    );
  });
  await t.step(
    "a bad flag is named --sandbox-uids unless told otherwise",
    () => {
      assert.throws(
        () => sandboxLeaseFrom("5-", {}),
        (e: unknown) =>
          e instanceof SandboxUidRangeError &&
          e.message.startsWith('Cannot read --sandbox-uids "5-"'),
      );
    },
  );
});

Deno.test("leaseSandboxUid() leases each uid to one holder at a time", async () => {
  await withLockDir(async (dir) => {
    const a = await leaseSandboxUid(options(dir, FIRST, SECOND));
    assert.equal(a.uid, FIRST);
    assert.equal(a.gid, FIRST);
    assert.equal(a.lockPath, `${await Deno.realPath(dir)}/${FIRST}.lock`);
    const info = await Deno.stat(a.lockPath);
    assert.equal(info.uid, 0);
    assert.equal((info.mode ?? 0) & 0o777, 0o600);
    assert.equal(((await Deno.stat(dir)).mode ?? 0) & 0o777, 0o755);
    {
      await using b = await leaseSandboxUid(options(dir, FIRST, SECOND));
      assert.equal(b.uid, SECOND);
      await assert.rejects(
        leaseSandboxUid(options(dir, FIRST, SECOND)),
        SandboxUidsBusyError,
      );
    }
    // `await using` gave SECOND back; FIRST is still held. A lock let go
    // may take a moment to be free on a loaded machine, which a real lease
    // waits out: these leases wait too.
    const afterRelease = { waitMs: 5000 };
    const c = await leaseSandboxUid(
      options(dir, FIRST, SECOND, afterRelease),
    );
    assert.equal(c.uid, SECOND);
    await a.release();
    await a.release();
    const d = await leaseSandboxUid(
      options(dir, FIRST, SECOND, afterRelease),
    );
    assert.equal(d.uid, FIRST);
    await c.release();
    await d.release();
  });
});

Deno.test("leaseSandboxUid() with leaveFree takes a uid only while that many others stay free", async () => {
  await withLockDir(async (dir) => {
    // Three uids, two of which must stay free: the first can go.
    await using spare = await leaseSandboxUid(
      options(dir, FIRST, THIRD, { leaveFree: 2 }),
    );
    assert.equal(spare.uid, FIRST);
    // Trying the others let them go again: both can still be leased.
    await using first = await leaseSandboxUid(options(dir, FIRST, THIRD));
    assert.equal(first.uid, SECOND);
    // One uid left: a lease that must leave one free gets none ...
    await assert.rejects(
      leaseSandboxUid(options(dir, FIRST, THIRD, { leaveFree: 1 })),
      SandboxUidsBusyError,
    );
    // ... and the uid it looked at is still there for one that need not.
    await using last = await leaseSandboxUid(options(dir, FIRST, THIRD));
    assert.equal(last.uid, THIRD);
  });
});

Deno.test("leaseSandboxUid() with leaveFree locks no more of the others than it must find free", async () => {
  // Each uid it tries is locked for a moment, and a lease elsewhere that
  // meets that moment passes the uid by: it stops at the count it needs.
  await withLockDir(async (dir) => {
    await using lease = await leaseSandboxUid(
      options(dir, FIRST, THIRD, { leaveFree: 1 }),
    );
    assert.equal(lease.uid, FIRST);
    const files = [];
    for await (const entry of Deno.readDir(dir)) files.push(entry.name);
    assert.deepEqual(files.sort(), [`${FIRST}.lock`, `${SECOND}.lock`]);
  });
});

Deno.test("leaseSandboxUid() makes a lock file root-only readable, so no sandbox uid can lock it", async (t) => {
  for (const mode of [0o644, 0o640, 0o604]) {
    await t.step(`mode ${mode.toString(8)}`, async () => {
      await withLockDir(async (dir) => {
        await Deno.mkdir(dir);
        await Deno.writeTextFile(`${dir}/${FIRST}.lock`, "", { mode });
        await Deno.chmod(`${dir}/${FIRST}.lock`, mode);
        await using lease = await leaseSandboxUid(options(dir, FIRST, FIRST));
        assert.equal(
          ((await Deno.stat(lease.lockPath)).mode ?? 0) & 0o777,
          0o600,
        );
      });
    });
  }
});

Deno.test("leaseSandboxUid() never chooses a uid another live process holds", async () => {
  await withLockDir(async (dir) => {
    const other = await holder(dir, FIRST);
    try {
      const lease = await leaseSandboxUid(options(dir, FIRST, SECOND));
      assert.equal(lease.uid, SECOND);
      await lease.release();
      await assert.rejects(
        leaseSandboxUid(options(dir, FIRST, FIRST, { waitMs: 300 })),
        (error: unknown) => {
          assert.ok(error instanceof SandboxUidsBusyError);
          assert.match(
            error.message,
            new RegExp(
              `^Cannot lease a sandbox uid: all 1 of ${FIRST}-${FIRST} are held by other pawl runs \\(locks in ".*"\\) and none came free within 0 s; widen the range with "--sandbox-uids ${FIRST}-${
                FIRST + 63
              }" or PAWL_SANDBOX_UIDS=${FIRST}-${FIRST + 63}`,
            ),
          );
          return true;
        },
      );
    } finally {
      await other.stop();
    }
  });
});

Deno.test("leaseSandboxUid() keeps no lock file open for a uid another process holds", async () => {
  // This process's descriptors into the lock directory only: the suite runs
  // other test files in this process at the same time, opening their own.
  const openLocks = async (dir: string) => {
    const real = await Deno.realPath(dir);
    const open: string[] = [];
    for await (const fd of Deno.readDir("/proc/self/fd")) {
      const target = await Deno.readLink(`/proc/self/fd/${fd.name}`).catch(
        () => "",
      );
      if (target.startsWith(`${real}/`)) open.push(target);
    }
    return open;
  };
  await withLockDir(async (dir) => {
    const other = await holder(dir, FIRST);
    try {
      for (let i = 0; i < 5; i++) {
        await assert.rejects(
          leaseSandboxUid(options(dir, FIRST, FIRST)),
          SandboxUidsBusyError,
        );
      }
      assert.deepEqual(await openLocks(dir), []);
    } finally {
      await other.stop();
    }
  });
});

Deno.test("leaseSandboxUid() never chooses a uid that pawl in another container on the kernel holds", async () => {
  await withLockDir(async (dir) => {
    // Its own lock directory and pid namespace: a container of its own.
    await withLockDir(async (elsewhere) => {
      const other = await holder(elsewhere, FIRST, true);
      try {
        const lease = await leaseSandboxUid(options(dir, FIRST, SECOND));
        assert.equal(lease.uid, SECOND);
        await lease.release();
        await assert.rejects(
          leaseSandboxUid(options(dir, FIRST, FIRST)),
          (error: unknown) => {
            assert.ok(error instanceof SandboxUidsBusyError);
            assert.match(
              error.message,
              /are held by other pawl runs \(locks in "[^"]+"; 1 by pawl in another container on this kernel, or by processes of the uid this pawl cannot see\)/,
            );
            return true;
          },
        );
        // Every uid the range holds elsewhere is counted.
        const another = await holder(elsewhere, SECOND, true);
        try {
          await assert.rejects(
            leaseSandboxUid(options(dir, FIRST, SECOND)),
            (error: unknown) => {
              assert.ok(error instanceof SandboxUidsBusyError);
              assert.match(error.message, /; 2 by pawl in another container/);
              return true;
            },
          );
        } finally {
          await another.stop();
        }
      } finally {
        await other.stop();
      }
      // Given back there, it is free here.
      await using lease = await leaseSandboxUid(options(dir, FIRST, FIRST));
      assert.equal(lease.uid, FIRST);
    });
  });
});

Deno.test("leaseSandboxUid() waits with backoff for a uid that comes free", async () => {
  await withLockDir(async (dir) => {
    const other = await holder(dir, FIRST);
    const waits: string[] = [];
    const pending = leaseSandboxUid(
      options(dir, FIRST, FIRST, {
        waitMs: 20_000,
        onWait: (m) => waits.push(m),
      }),
    );
    await new Promise((resolve) => setTimeout(resolve, 300));
    await other.stop();
    const lease = await pending;
    assert.equal(lease.uid, FIRST);
    assert.deepEqual(waits, [
      `every sandbox uid of ${FIRST}-${FIRST} is in use by other pawl runs; waiting up to 20 s for one`,
    ]);
    await lease.release();
  });
});

Deno.test("leaseSandboxUid() reuses a crashed holder's uid at once, killing what it left running", async () => {
  await withLockDir(async (dir) => {
    const other = await holder(dir, FIRST);
    // A test process the crashed run left behind, still running as the uid.
    await withLeftover(FIRST, async (leftover) => {
      await other.crash();
      // Its mark ends as soon as it sees pawl gone (its stdin closed).
      for (let i = 0; i < 500; i++) {
        if ((await liveProcessesOf(FIRST)).length === 1) break;
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      assert.deepEqual(await liveProcessesOf(FIRST), [leftover.pid]);
      const started = performance.now();
      const lease = await leaseSandboxUid(options(dir, FIRST, FIRST));
      assert.ok(performance.now() - started < 5000);
      assert.equal(lease.uid, FIRST);
      assert.equal((await leftover.status).signal, "SIGKILL");
      // Only the lease's own mark runs as the uid.
      assert.deepEqual(await lease.othersRunning(), []);
      assert.equal((await liveProcessesOf(FIRST)).length, 1);
      await lease.release();
      assert.deepEqual(await liveProcessesOf(FIRST), []);
    });
  });
});

Deno.test("leaseSandboxUid() takes user pawl's group for pawl's uid", async () => {
  await withLockDir(async (dir) => {
    const passwd = await Deno.makeTempFile({ prefix: "pawl-lease-passwd-" });
    try {
      await Deno.writeTextFile(
        passwd,
        `pawl:x:${FIRST}:${SECOND + 5}::/nonexistent:/usr/sbin/nologin\n`,
      );
      const a = await leaseSandboxUid(
        options(dir, FIRST, SECOND, { passwdPath: passwd }),
      );
      const b = await leaseSandboxUid(
        options(dir, FIRST, SECOND, { passwdPath: passwd }),
      );
      assert.deepEqual([a.uid, a.gid], [FIRST, SECOND + 5]);
      assert.deepEqual([b.uid, b.gid], [SECOND, SECOND]);
      await a.release();
      await b.release();
    } finally {
      await Deno.remove(passwd);
    }
  });
});

Deno.test("leaseSandboxUid() refuses a lock directory or file others could tamper with", async (t) => {
  const cases: [string, (dir: string) => Promise<void>, RegExp][] = [
    [
      "a directory writable by others",
      async (dir) => {
        await Deno.mkdir(dir);
        await Deno.chmod(dir, 0o777);
      },
      /is not safe: ".*\/uids" must be a directory owned by root that only root can write/,
    ],
    ["a directory writable by its group", async (dir) => {
      await Deno.mkdir(dir);
      await Deno.chmod(dir, 0o775);
    }, /is not safe/],
    ["a directory owned by another uid", async (dir) => {
      await Deno.mkdir(dir);
      await Deno.chown(dir, FIRST, FIRST);
    }, /is not safe/],
    ["a parent writable by others without the sticky bit", async (dir) => {
      await Deno.chmod(dir.replace(/\/uids$/, ""), 0o777);
    }, /others cannot write/],
    ["a lock file owned by another uid", async (dir) => {
      await Deno.mkdir(dir);
      await Deno.writeTextFile(`${dir}/${FIRST}.lock`, "");
      await Deno.chown(`${dir}/${FIRST}.lock`, FIRST, FIRST);
    }, /the lock file ".*\/64300\.lock" is not a regular file owned by root/],
    ["a lock file writable by others", async (dir) => {
      await Deno.mkdir(dir);
      await Deno.writeTextFile(`${dir}/${FIRST}.lock`, "");
      await Deno.chmod(`${dir}/${FIRST}.lock`, 0o666);
    }, /the lock file/],
    [
      "a lock file writable by its group",
      async (dir) => {
        await Deno.mkdir(dir);
        await Deno.writeTextFile(`${dir}/${FIRST}.lock`, "");
        await Deno.chmod(`${dir}/${FIRST}.lock`, 0o664);
      },
      /the lock file ".*\/64300\.lock" is not a regular file owned by root and writable only by root/,
    ],
    [
      "a lock file writable by its group alone, not readable by it",
      async (dir) => {
        await Deno.mkdir(dir);
        await Deno.writeTextFile(`${dir}/${FIRST}.lock`, "");
        await Deno.chmod(`${dir}/${FIRST}.lock`, 0o620);
      },
      /the lock file/,
    ],
    ["a lock file that is a directory", async (dir) => {
      await Deno.mkdir(`${dir}/${FIRST}.lock`, { recursive: true });
      await Deno.chmod(`${dir}/${FIRST}.lock`, 0o700);
    }, /the lock file ".*\/64300\.lock" is not a regular file/],
    ["a lock file that is a symlink", async (dir) => {
      await Deno.mkdir(dir);
      await Deno.symlink("/etc/passwd", `${dir}/${FIRST}.lock`);
    }, /the lock file/],
  ];
  for (const [name, arrange, pattern] of cases) {
    await t.step(name, async () => {
      await withLockDir(async (dir) => {
        await arrange(dir);
        await assert.rejects(
          leaseSandboxUid(options(dir, FIRST, FIRST)),
          (e: unknown) =>
            e instanceof SandboxUnavailableError && pattern.test(e.message),
        );
      });
    });
  }
  await t.step("a directory that cannot be created", async () => {
    await withLockDir(async (dir) => {
      await Deno.writeTextFile(dir, "");
      await assert.rejects(
        leaseSandboxUid(options(`${dir}/uids`, FIRST, FIRST)),
        (e: unknown) =>
          e instanceof SandboxUnavailableError &&
          e.message.startsWith(
            `Cannot lease a sandbox uid: cannot create the lock directory "${dir}/uids": `,
          ),
      );
    });
  });
  await t.step("a relative directory", async () => {
    await assert.rejects(
      leaseSandboxUid(options("run/pawl", FIRST, FIRST)),
      /lock directory "run\/pawl" is not absolute/,
    );
  });
});

Deno.test("leaseSandboxUid() is unavailable without any one of setpriv, prlimit, sh and env", async (t) => {
  const system = await findTools(SYSTEM_DIRS);
  const needed = ["setpriv", "prlimit", "sh", "env"] as const;
  for (const missing of needed) {
    await t.step(`without ${missing}`, async () => {
      const tools = await Deno.makeTempDir({ prefix: "pawl-lease-tools-" });
      try {
        for (const name of needed) {
          if (name !== missing) {
            await Deno.symlink(system[name]!, `${tools}/${name}`);
          }
        }
        await withLockDir(async (dir) => {
          await assert.rejects(
            leaseSandboxUid(
              options(dir, FIRST, FIRST, { toolDirs: [tools], currentUid: 0 }),
            ),
            (e: unknown) =>
              e instanceof SandboxUnavailableError &&
              e.message ===
                'Cannot lease a sandbox uid: "setpriv", "prlimit", "sh" and "env" are needed to claim and clear it',
          );
        });
      } finally {
        await Deno.remove(tools, { recursive: true });
      }
    });
  }
});

Deno.test("leaseSandboxUid() refuses when pawl is any uid but root, the sandbox uid itself included", async () => {
  await withLockDir(async (dir) => {
    for (const uid of [1, 1000, FIRST]) {
      await assert.rejects(
        leaseSandboxUid(options(dir, FIRST, FIRST, { currentUid: uid })),
        new RegExp(
          `pawl runs as uid ${uid} and only root can switch to the sandbox uid; .*--isolation none`,
        ),
      );
    }
  });
});

/** The checkout this test runs from (its modules must stay visible). */
const CHECKOUT = new URL("../..", import.meta.url).pathname.replace(/\/$/, "");

/** Run `script` with Deno as a read-only container would: an empty read-only /run, a private /tmp. */
async function inReadOnlyRun(script: string): Promise<Deno.CommandOutput> {
  return await new Deno.Command("bwrap", {
    args: [
      "--ro-bind",
      "/",
      "/",
      "--dev",
      "/dev",
      "--proc",
      "/proc",
      "--tmpfs",
      "/tmp",
      // The checkout itself may live under /tmp (a CI clone): keep it seen.
      "--ro-bind",
      CHECKOUT,
      CHECKOUT,
      "--tmpfs",
      "/run",
      "--remount-ro",
      "/run",
      "--unshare-pid",
      "--die-with-parent",
      "--",
      Deno.execPath(),
      "eval",
      script,
    ],
    stdout: "piped",
    stderr: "piped",
  }).output();
}

Deno.test("leaseSandboxUid() keeps its locks in /tmp/pawl-uids where /run is read-only", async () => {
  const out = await inReadOnlyRun(`
    import { leaseSandboxUid } from ${JSON.stringify(LEASE_MODULE)};
    const lease = await leaseSandboxUid({
      range: { first: ${THIRD}, last: ${THIRD} },
      waitMs: 0,
    });
    console.log(lease.lockPath);
    await lease.release();
  `);
  const decoder = new TextDecoder();
  assert.equal(out.code, 0, decoder.decode(out.stderr));
  assert.equal(
    decoder.decode(out.stdout).trim(),
    `/tmp/pawl-uids/${THIRD}.lock`,
  );
});

Deno.test("leaseSandboxUid() never moves a lock directory it was given, even where /run is read-only", async () => {
  const out = await inReadOnlyRun(`
    import { leaseSandboxUid } from ${JSON.stringify(LEASE_MODULE)};
    try {
      const lease = await leaseSandboxUid({
        range: { first: ${THIRD}, last: ${THIRD} },
        lockDir: "/run/pawl/uids",
        waitMs: 0,
      });
      console.log(lease.lockPath);
      await lease.release();
    } catch (error) {
      console.log(error.name + ": " + error.message);
    }
  `);
  const decoder = new TextDecoder();
  assert.equal(out.code, 0, decoder.decode(out.stderr));
  assert.match(
    decoder.decode(out.stdout),
    /^SandboxUnavailableError: Cannot lease a sandbox uid: cannot create the lock directory "\/run\/pawl\/uids": /,
  );
});

Deno.test("leaseSandboxUid() stops waiting for a uid once its signal aborts", async () => {
  // uids of these two steps' own (see the range note above).
  const busy = 64400;
  const free = 64401;
  await withLockDir(async (dir) => {
    const other = await holder(dir, busy);
    try {
      const abort = new AbortController();
      const reason = new Error("the judgement ended");
      const waits: string[] = [];
      await assert.rejects(
        leaseSandboxUid(
          options(dir, busy, busy, {
            waitMs: 3_600_000,
            // Given up as soon as the wait starts.
            onWait: (message) => {
              waits.push(message);
              abort.abort(reason);
            },
            signal: abort.signal,
          }),
        ),
        (error: unknown) => error === reason,
      );
      // The wait is told in whole seconds.
      assert.match(waits.join("\n"), /^[^\n]*waiting up to 3600 s for one$/);
      // Already given up: no uid is taken, not even a free one.
      await assert.rejects(
        leaseSandboxUid(options(dir, free, free, { signal: abort.signal })),
        (error: unknown) => error === reason,
      );
      const lease = await leaseSandboxUid(options(dir, free, free));
      assert.equal(lease.uid, free);
      await lease.release();
    } finally {
      await other.stop();
    }
  });
});
