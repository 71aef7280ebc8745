import assert from "node:assert/strict";
import { signalAs, withLeftover } from "./_testing.ts";
import { IN_PROCESS_CHOWN_MAX, ProcessSandbox } from "./process_sandbox.ts";
import type { IsolationRequest } from "./probe_isolation.ts";
import type { SandboxCommand, SandboxResult } from "./sandbox.ts";
import {
  delay,
  findExecutable,
  liveProcessesOf,
  scanUid,
  SYSTEM_DIRS,
} from "./_exec.ts";
import { leaseSandboxUid } from "./lease_uid.ts";
import {
  SandboxCommandError,
  SandboxInterruptedError,
  SandboxUnavailableError,
} from "./sandbox_errors.ts";

/**
 * The uid these tests sandbox as, leased as pawl leases one (held until the
 * test process exits): every run kills all processes of its uid, and the
 * same tests may be running from another checkout at the same time. Clear
 * of pawl's default range and of the end-to-end tests' uids.
 */
const UID = (await leaseSandboxUid({ range: { first: 64310, last: 64339 } }))
  .uid;
const KEY = "-----BEGIN PRIVATE KEY----- pawl-test-key-material";
const PATH = "/usr/local/bin:/usr/bin:/bin";

/** Whether unshare(1) can make namespaces here, asked without pawl's code. */
async function unshareWorks(): Promise<boolean> {
  try {
    const out = await new Deno.Command("unshare", {
      args: ["--net", "--pid", "--fork", "--mount-proc", "true"],
      stdout: "null",
      stderr: "null",
    }).output();
    return out.success;
  } catch {
    return false;
  }
}

/** `auto` (bwrap here), explicit `unshare` where it works, and `uid`, which works anywhere root does. */
const TIERS: IsolationRequest[] = (await unshareWorks())
  ? ["auto", "unshare", "uid"]
  : ["auto", "uid"];

interface Fixture {
  /** Under /tmp, like pawl's own run dirs (private /tmp under bwrap). */
  root: string;
  work: string;
  out: string;
  /** Under /var/tmp, which bwrap shows read-only rather than replacing. */
  host: string;
  secretDir: string;
  key: string;
  notice: string;
  outside: string;
  ownedOutside: string;
}

async function withFixture(fn: (fx: Fixture) => Promise<void>): Promise<void> {
  const root = await Deno.makeTempDir({ prefix: "pawl-sandbox-test-" });
  const host = await Deno.makeTempDir({
    dir: "/var/tmp",
    prefix: "pawl-sandbox-test-",
  });
  try {
    // The sandbox uid may traverse these, nothing more.
    await Deno.chmod(root, 0o755);
    await Deno.chmod(host, 0o755);
    const fx: Fixture = {
      root,
      work: `${root}/work`,
      out: `${root}/out`,
      host,
      secretDir: `${host}/secret`,
      key: `${host}/secret/signing.key`,
      notice: `${host}/secret/README`,
      outside: `${host}/outside.txt`,
      ownedOutside: `${host}/owned-outside.txt`,
    };
    await Deno.mkdir(fx.work);
    await Deno.mkdir(fx.out);
    await Deno.mkdir(fx.secretDir);
    await Deno.chmod(fx.secretDir, 0o755);
    await Deno.writeTextFile(fx.key, KEY, { mode: 0o600 });
    await Deno.chmod(fx.key, 0o600);
    await Deno.writeTextFile(fx.notice, "world-readable", { mode: 0o644 });
    await Deno.writeTextFile(fx.outside, "original", { mode: 0o644 });
    await Deno.writeTextFile(fx.ownedOutside, "original", { mode: 0o644 });
    await Deno.chown(fx.ownedOutside, UID, UID);
    await fn(fx);
  } finally {
    await Deno.remove(root, { recursive: true });
    await Deno.remove(host, { recursive: true });
  }
}

async function sandboxFor(
  requested: IsolationRequest,
  fx: Fixture,
): Promise<ProcessSandbox> {
  const sandbox = await ProcessSandbox.create({
    requested,
    uid: UID,
    gid: UID,
    hiddenPaths: [fx.secretDir],
  });
  await sandbox.prepareDir(fx.work);
  await sandbox.prepareDir(fx.out);
  return sandbox;
}

function sh(
  fx: Fixture,
  script: string,
  extra: Partial<SandboxCommand> = {},
): SandboxCommand {
  return {
    argv: ["sh", "-c", script],
    cwd: fx.work,
    env: { PATH, HOME: fx.out },
    writable: [fx.out],
    ...extra,
  };
}

/** Live (not zombie) processes of `uid`, as ps(1) sees them. */
async function survivors(uid: number): Promise<string[]> {
  const out = await new Deno.Command("ps", {
    args: ["-u", String(uid), "-o", "pid=,stat=,args="],
  }).output();
  return new TextDecoder().decode(out.stdout).split("\n")
    .filter((line) => line.trim() !== "" && !/^\s*\d+\s+Z/.test(line));
}

function output(result: SandboxResult): string {
  return result.outputHead;
}

for (const requested of TIERS) {
  Deno.test(`ProcessSandbox (${requested}) confines a hostile test run`, async (t) => {
    await withFixture(async (fx) => {
      const sandbox = await sandboxFor(requested, fx);
      const isolated = sandbox.isolation.network === "isolated";
      const namespaced = sandbox.isolation.tier === "bwrap" ||
        sandbox.isolation.tier === "unshare";
      if (requested !== "auto") assert.equal(sandbox.isolation.tier, requested);
      assert.equal(sandbox.isolation.uid, UID);

      await t.step(
        "runs as the sandbox uid with no supplementary groups and no privileges",
        async () => {
          const result = await sandbox.run(sh(
            fx,
            'id -u; id -g; id -G; grep -E "^(Groups|NoNewPrivs|CapEff|CapBnd):" /proc/self/status',
          ));
          assert.equal(result.code, 0, output(result));
          assert.equal(
            output(result),
            `${UID}\n${UID}\n${UID}\nGroups:\t \nCapEff:\t0000000000000000\nCapBnd:\t0000000000000000\nNoNewPrivs:\t1\n`,
          );
        },
      );

      await t.step(
        "sees exactly the environment it was given, not pawl's",
        async () => {
          Deno.env.set("PAWL_SIGNING_KEY", KEY);
          try {
            const result = await sandbox.run({
              argv: ["env"],
              cwd: fx.work,
              env: { PATH, HOME: fx.out, CONTRACT_SEED: "42" },
              writable: [],
            });
            assert.equal(result.code, 0);
            assert.deepEqual(
              output(result).split("\n").filter(Boolean).sort(),
              [
                "CONTRACT_SEED=42",
                `HOME=${fx.out}`,
                `PATH=${PATH}`,
              ],
            );
            const noPath = await sandbox.run({
              argv: ["env"],
              cwd: fx.work,
              env: {},
              writable: [],
            });
            assert.equal(output(noPath), `PATH=${PATH}\n`);
          } finally {
            Deno.env.delete("PAWL_SIGNING_KEY");
          }
        },
      );

      await t.step("cannot read pawl's /proc environ", async () => {
        const result = await sandbox.run(
          sh(fx, `cat /proc/${Deno.pid}/environ`),
        );
        assert.notEqual(result.code, 0);
        assert.ok(!output(result).includes("PATH="), output(result));
      });

      await t.step("cannot read the signing key", async () => {
        const result = await sandbox.run(sh(fx, `cat '${fx.key}'`));
        assert.notEqual(result.code, 0);
        assert.ok(!output(result).includes("BEGIN PRIVATE KEY"));
        // With a mount namespace the key's directory is empty; with only a
        // uid, the file mode is what protects it.
        const listing = await sandbox.run(
          sh(fx, `cat '${fx.notice}' 2>/dev/null; ls -A '${fx.secretDir}'`),
        );
        assert.equal(
          output(listing),
          namespaced ? "" : "world-readableREADME\nsigning.key\n",
        );
      });

      await t.step(
        "cannot see what is hidden after the sandbox was made, where it has a mount namespace",
        async () => {
          const later = `${fx.host}/later.txt`;
          await Deno.writeTextFile(later, "visible until hidden", {
            mode: 0o644,
          });
          const before = await sandbox.run(sh(fx, `cat '${later}'`));
          assert.equal(output(before), "visible until hidden");
          sandbox.hide([later]);
          const after = await sandbox.run(sh(fx, `cat '${later}'`));
          assert.equal(
            output(after).includes("visible until hidden"),
            !namespaced,
          );
        },
      );

      await t.step(
        "cannot reach a server on 127.0.0.1 (network isolated) or can (uid tier)",
        async () => {
          const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
          const accepting = (async () => {
            for await (const conn of listener) conn.close();
          })();
          try {
            const result = await sandbox.run({
              argv: [
                "python3",
                "-c",
                "import socket, sys\nsocket.create_connection(('127.0.0.1', int(sys.argv[1])), timeout=1)\nprint('connected')",
                String(listener.addr.port),
              ],
              cwd: fx.work,
              env: { PATH },
              writable: [],
              limits: { timeoutMs: 3000 },
            });
            assert.equal(result.timedOut, false);
            if (isolated) {
              assert.notEqual(result.code, 0);
              assert.ok(!output(result).includes("connected"));
            } else {
              assert.equal(output(result), "connected\n");
            }
          } finally {
            listener.close();
            await accepting.catch(() => {});
          }
        },
      );

      await t.step(
        "cannot change files outside cwd and the writable dirs",
        async () => {
          const result = await sandbox.run(sh(
            fx,
            `echo changed > '${fx.outside}'; touch '${fx.root}/planted' '${fx.host}/planted'; echo changed > '${fx.ownedOutside}'; ` +
              `touch '${fx.out}/junit.xml' && touch '${fx.work}/cache' && echo wrote`,
          ));
          assert.match(output(result), /wrote\n$/);
          assert.equal(await Deno.readTextFile(fx.outside), "original");
          for (const dir of [fx.root, fx.host]) {
            await assert.rejects(
              Deno.stat(`${dir}/planted`),
              Deno.errors.NotFound,
            );
          }
          assert.equal((await Deno.stat(`${fx.out}/junit.xml`)).uid, UID);
          // Only bubblewrap's read-only root protects a file the uid owns.
          assert.equal(
            await Deno.readTextFile(fx.ownedOutside),
            sandbox.isolation.tier === "bwrap" ? "original" : "changed\n",
          );
        },
      );

      await t.step(
        "kills a hang at the timeout, with children that escaped its process group",
        async () => {
          const result = await sandbox.run(sh(
            fx,
            "setsid sleep 1000 & nohup sleep 1000 >/dev/null 2>&1 & (trap '' HUP TERM; exec sleep 1000) & echo started; sleep 1000",
            { limits: { timeoutMs: 1000 } },
          ));
          assert.equal(result.timedOut, true);
          assert.equal(result.code, null);
          assert.equal(result.signal, "SIGKILL");
          assert.equal(output(result), "started\n");
          assert.deepEqual(await survivors(UID), []);
        },
      );

      await t.step(
        "leaves no daemon behind after a normal exit, even one holding stdout",
        async () => {
          const result = await sandbox.run(sh(
            fx,
            "setsid sleep 1000 & setsid sh -c 'sleep 1000 >/dev/null 2>&1' & echo done",
            { limits: { timeoutMs: 3000 } },
          ));
          assert.equal(result.timedOut, false);
          assert.equal(result.code, 0);
          assert.equal(output(result), "done\n");
          assert.deepEqual(await survivors(UID), []);
        },
      );

      await t.step(
        "limits a fork bomb with RLIMIT_NPROC and cleans it up",
        async () => {
          const bomb = [
            "import os, time",
            "n = 0",
            "try:",
            "    for _ in range(500):",
            "        if os.fork() == 0:",
            "            time.sleep(1000)",
            "            os._exit(0)",
            "        n += 1",
            "except OSError as error:",
            "    print('fork failed', error.errno, flush=True)",
            "print('forked', n, flush=True)",
          ].join("\n");
          // The bomb's children outlive it, asleep; the run's end takes them.
          // The time limit is only a backstop: a busy machine may take seconds.
          const result = await sandbox.run({
            argv: ["python3", "-c", bomb],
            cwd: fx.work,
            env: { PATH },
            writable: [],
            limits: { maxProcesses: 20, timeoutMs: 60_000 },
          });
          assert.equal(result.timedOut, false);
          assert.equal(result.code, 0, output(result));
          const match = /^fork failed 11\nforked (\d+)\n$/.exec(output(result));
          assert.ok(match, output(result));
          const forked = Number(match[1]);
          assert.ok(forked > 0 && forked < 20, `forked ${forked}`);
          assert.deepEqual(await survivors(UID), []);
        },
      );

      await t.step(
        "stops a flood of output at the cap, keeping only both ends",
        async () => {
          const cap = 1024 * 1024;
          let delivered = 0;
          let empty = 0;
          const result = await sandbox.run({
            argv: ["yes", "flood"],
            cwd: fx.work,
            env: { PATH },
            writable: [],
            limits: { maxOutputBytes: cap, timeoutMs: 3000 },
            onOutput: (chunk) => {
              delivered += chunk.length;
              if (chunk.length === 0) empty++;
            },
          });
          assert.equal(empty, 0, "told of output past the cap");
          assert.equal(result.outputExceeded, true);
          assert.equal(result.timedOut, false);
          assert.equal(result.signal, "SIGKILL");
          assert.equal(delivered, cap);
          assert.ok(result.outputBytes > cap);
          assert.equal(result.outputHead.length, 64 * 1024);
          assert.equal(result.outputTail.length, 64 * 1024);
          assert.ok(result.outputHead.startsWith("flood\nflood\n"));
          assert.deepEqual(await survivors(UID), []);
        },
      );

      await t.step("tells onOutput of output a byte at a time", async () => {
        const told: string[] = [];
        const decoder = new TextDecoder();
        const result = await sandbox.run({
          argv: ["sh", "-c", "printf a; sleep 0.3; printf b"],
          cwd: fx.work,
          env: { PATH },
          writable: [],
          onOutput: (chunk) => told.push(decoder.decode(chunk)),
        });
        assert.equal(result.code, 0);
        assert.equal(told.join(""), "ab");
      });

      await t.step("reads a gigabyte of output in bounded memory", async () => {
        const total = 1024 * 1024 * 1024;
        const before = Deno.memoryUsage().rss;
        const result = await sandbox.run({
          argv: ["head", "-c", String(total), "/dev/zero"],
          cwd: fx.work,
          env: { PATH },
          writable: [],
          // Generous: with the suite's sandboxed cases running side by
          // side, a loaded machine may take seconds to move a gigabyte.
          limits: { maxOutputBytes: 2 * total, timeoutMs: 60_000 },
        });
        const grown = Deno.memoryUsage().rss - before;
        assert.equal(result.code, 0);
        assert.equal(result.outputExceeded, false);
        assert.equal(result.outputBytes, total);
        // Keeping it would take a GiB; other test modules share this process.
        assert.ok(grown < 256 * 1024 * 1024, `rss grew by ${grown} bytes`);
      });

      await t.step("stops a huge file at RLIMIT_FSIZE", async () => {
        const result = await sandbox.run(sh(
          fx,
          "head -c 10485760 /dev/zero > big",
          { limits: { maxFileBytes: 1024 * 1024 } },
        ));
        assert.ok(result.code !== 0, JSON.stringify(result));
        assert.equal((await Deno.stat(`${fx.work}/big`)).size, 1024 * 1024);
      });

      await t.step("keeps the head and tail of long output", async () => {
        const result = await sandbox.run(sh(fx, "seq 1 100000"));
        let expected = "";
        for (let i = 1; i <= 100000; i++) expected += `${i}\n`;
        assert.equal(result.code, 0);
        assert.equal(result.outputBytes, expected.length);
        assert.equal(result.outputHead, expected.slice(0, 64 * 1024));
        assert.equal(result.outputTail, expected.slice(-64 * 1024));
      });
    });
  });
}

Deno.test("ProcessSandbox.create() takes the strongest tier that works when none is asked for", async () => {
  const given = await ProcessSandbox.create({ uid: UID, gid: UID });
  const auto = await ProcessSandbox.create({
    requested: "auto",
    uid: UID,
    gid: UID,
  });
  assert.equal(given.isolation.tier, auto.isolation.tier);
});

Deno.test("ProcessSandbox (none) runs as pawl itself, still under the limits", async () => {
  await withFixture(async (fx) => {
    const sandbox = await ProcessSandbox.create({ requested: "none" });
    assert.equal(sandbox.isolation.tier, "none");
    await sandbox.prepareDir(fx.work);
    assert.equal((await Deno.stat(fx.work)).uid, 0, "prepareDir is a no-op");
    const result = await sandbox.run(sh(fx, "id -u; sleep 1000", {
      limits: { timeoutMs: 500 },
    }));
    assert.equal(result.timedOut, true);
    assert.equal(output(result), "0\n");
    const big = await sandbox.run(sh(fx, "head -c 100000 /dev/zero > big", {
      limits: { maxFileBytes: 4096 },
    }));
    assert.notEqual(big.code, 0);
    assert.equal((await Deno.stat(`${fx.work}/big`)).size, 4096);
  });
});

Deno.test("ProcessSandbox (none) leaves any tree as it is, however large, and keeps a command's own PATH", async () => {
  await withFixture(async (fx) => {
    const sandbox = await ProcessSandbox.create({ requested: "none" });
    for (let i = 0; i <= IN_PROCESS_CHOWN_MAX; i++) {
      await Deno.writeTextFile(`${fx.work}/f${i}`, "");
    }
    await sandbox.prepareDir(fx.work);
    assert.equal((await Deno.stat(`${fx.work}/f0`)).uid, 0);
    const result = await sandbox.run({
      argv: ["env"],
      cwd: fx.work,
      env: { PATH: `/opt/venv/bin:${PATH}` },
      writable: [],
    });
    assert.equal(output(result), `PATH=/opt/venv/bin:${PATH}\n`);
  });
});

Deno.test("ProcessSandbox (none) ends what the command left running in its process group", async () => {
  await withFixture(async (fx) => {
    const sandbox = await ProcessSandbox.create({ requested: "none" });
    const result = await sandbox.run(
      sh(fx, "sleep 60 >/dev/null 2>&1 & echo $!"),
    );
    assert.equal(result.code, 0);
    const pid = Number(output(result).trim());
    assert.ok(pid > 0, output(result));
    // SIGKILL takes effect a moment after it is sent; the sleep would
    // outlive this wait by far.
    const dead = async () => {
      const stat = await Deno.readTextFile(`/proc/${pid}/stat`)
        .catch(() => "");
      return stat === "" || /^\d+ \([^)]*\) Z /.test(stat);
    };
    const deadline = Date.now() + 20_000;
    while (!await dead() && Date.now() < deadline) await delay(20);
    assert.ok(await dead(), `process ${pid} still runs`);
  });
});

Deno.test("ProcessSandbox (none) stops reading a process that escaped the group once the drain grace ends, so its next write fails", async () => {
  await withFixture(async (fx) => {
    const sandbox = await ProcessSandbox.create({
      requested: "none",
      drainGraceMs: 300,
    });
    // The shell waits for the writer to leave its group, so the pipe is
    // still held open when the shell exits.
    let told = "";
    const decoder = new TextDecoder();
    const run = sandbox.run(
      sh(
        fx,
        'setsid sh -c "touch \\"$HOME/left\\"; while echo x; do sleep 0.05; done" & ' +
          'until [ -e "$HOME/left" ]; do sleep 0.01; done; echo pid=$!',
        { onOutput: (chunk) => told += decoder.decode(chunk) },
      ),
    );
    const watchdog = new AbortController();
    const result = await Promise.race([run, delay(20_000, watchdog.signal)]);
    watchdog.abort();
    const pid = Number(/pid=(\d+)/.exec(told)?.[1]);
    assert.ok(pid > 1, told);
    if (result === undefined) {
      Deno.kill(pid, "SIGKILL");
      await run;
      assert.fail("the run waited for the escaped writer past the grace");
    }
    assert.equal(result.code, 0);
    const dead = async () => {
      const stat = await Deno.readTextFile(`/proc/${pid}/stat`)
        .catch(() => "");
      return stat === "" || /^\d+ \([^)]*\) Z /.test(stat);
    };
    const deadline = Date.now() + 20_000;
    while (!await dead() && Date.now() < deadline) await delay(20);
    if (!await dead()) {
      Deno.kill(pid, "SIGKILL");
      assert.fail(`process ${pid} still writes`);
    }
  });
});

Deno.test("ProcessSandbox.run() fails with the first error its output callback threw", async () => {
  await withFixture(async (fx) => {
    const sandbox = await ProcessSandbox.create({ requested: "none" });
    let calls = 0;
    await assert.rejects(
      sandbox.run(sh(fx, "echo one; sleep 0.5; echo two", {
        onOutput: () => {
          throw new Error(`call ${++calls}`);
        },
      })),
      /^Error: call 1$/,
    );
    assert.equal(calls, 2);
  });
});

for (const requested of TIERS) {
  Deno.test(`ProcessSandbox (${requested}) cannot decide when the tests are killed from outside`, async (t) => {
    await withFixture(async (fx) => {
      const sandbox = await sandboxFor(requested, fx);
      for (const signal of ["SIGKILL", "SIGTERM"] as const) {
        await t.step(signal, async () => {
          let killed = false;
          const run = sandbox.run(sh(fx, "echo started; exec sleep 1000", {
            limits: { timeoutMs: 20_000 },
            onOutput: () => {
              if (killed) return;
              killed = true;
              // Stands in for an administrator or the out-of-memory killer.
              void liveProcessesOf(UID).then((pids) =>
                signalAs(UID, pids, signal)
              );
            },
          }));
          await assert.rejects(
            run,
            (error: unknown) =>
              error instanceof SandboxInterruptedError &&
              error.signal === signal &&
              /"sh" was killed by SIG[A-Z]+, which pawl did not send/.test(
                error.message,
              ),
          );
          assert.deepEqual(await survivors(UID), []);
        });
      }
      await t.step(
        "a signal the tests sent themselves stays a result",
        async () => {
          const result = await sandbox.run(sh(fx, "kill -SEGV $$"));
          assert.ok(
            result.signal === "SIGSEGV" || result.code === 128 + 11,
            JSON.stringify(result),
          );
          assert.equal(result.timedOut, false);
        },
      );
      await t.step(
        "the control: pawl's own timeout stays a result",
        async () => {
          const result = await sandbox.run(sh(fx, "exec sleep 1000", {
            limits: { timeoutMs: 300 },
          }));
          assert.equal(result.timedOut, true);
        },
      );
    });
  });
}

Deno.test("ProcessSandbox.create() kills what already runs as the uid, so its first run starts without a sweep of its own", async () => {
  await withFixture(async (fx) => {
    // What a crashed holder of the uid could have left running.
    await withLeftover(UID, async (leftover) => {
      for (;;) {
        if ((await liveProcessesOf(UID)).includes(leftover.pid)) break;
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      const sandbox = await sandboxFor("uid", fx);
      assert.deepEqual(await survivors(UID), []);
      assert.equal((await leftover.status).signal, "SIGKILL");
      // A run that leaves a daemon: its own final sweep kills it, and the
      // next run starts clean.
      const first = await sandbox.run(
        sh(fx, "setsid sleep 1000 >/dev/null 2>&1 & echo first"),
      );
      assert.equal(output(first), "first\n");
      assert.deepEqual(await survivors(UID), []);
      const second = await sandbox.run(sh(fx, `exec ps -o args= -u ${UID}`));
      assert.equal(second.code, 0, output(second));
      assert.ok(output(second).includes("ps -o args="), output(second));
      // (a killed daemon may linger as a zombie until its reaper gets to it)
      assert.doesNotMatch(output(second), /^sleep 1000$/m);
    });
  });
});

Deno.test("ProcessSandbox.create() with its uid's lease kills a process left beside the lease's mark, and spares the mark", async () => {
  // A uid of its own: the other tests' sandboxes are made without a lease.
  await using lease = await leaseSandboxUid({
    range: { first: 64725, last: 64726 },
  });
  const [mark] = await liveProcessesOf(lease.uid);
  assert.ok(mark !== undefined);
  // One process of the uid other than the mark: a crashed run's leftover.
  await withLeftover(lease.uid, async (leftover) => {
    while (!(await liveProcessesOf(lease.uid)).includes(leftover.pid)) {
      await delay(5);
    }
    await ProcessSandbox.create({ requested: "uid", lease });
    // (the killed leftover is a zombie until withLeftover reaps it)
    const left = (await survivors(lease.uid))
      .map((line) => Number(line.trim().split(/\s+/)[0]));
    assert.deepEqual(left, [mark]);
  });
});

Deno.test("ProcessSandbox with its uid's lease spares the lease's mark in every sweep, and marks the uid again when the tests kill it", async () => {
  // A uid of its own: the other tests' sandboxes are made without a lease.
  await using lease = await leaseSandboxUid({
    range: { first: 64725, last: 64726 },
  });
  await withFixture(async (fx) => {
    const sandbox = await ProcessSandbox.create({
      requested: "uid",
      lease,
      hiddenPaths: [fx.secretDir],
    });
    await sandbox.prepareDir(fx.work);
    await sandbox.prepareDir(fx.out);
    const [mark] = await liveProcessesOf(lease.uid);
    assert.ok(mark !== undefined);
    // The mark does not count against the run's process limit (once a
    // killed process another run of this test left is reaped).
    for (let i = 0; i < 500 && (await scanUid(lease.uid)).tasks > 1; i++) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    const three = await sandbox.run(
      sh(fx, "sleep 0.2 & sleep 0.2 & wait; echo three", {
        limits: { maxProcesses: 3 },
      }),
    );
    assert.equal(output(three), "three\n");
    // A daemon the run leaves is killed; the mark is not.
    const daemon = await sandbox.run(
      sh(fx, "setsid sleep 1000 >/dev/null 2>&1 & echo daemon"),
    );
    assert.equal(output(daemon), "daemon\n");
    assert.deepEqual(await liveProcessesOf(lease.uid), [mark]);
    // At the uid tier the tests share the mark's pid namespace and can kill
    // it: the run's own sweep marks the uid again.
    const killer = await sandbox.run(sh(fx, "kill -9 -1; echo killed"));
    assert.equal(output(killer), "killed\n");
    assert.equal(lease.marked, true);
    const marks = await liveProcessesOf(lease.uid);
    assert.equal(marks.length, 1);
    assert.notEqual(marks[0], mark);
  });
});

Deno.test("ProcessSandbox with its uid's lease marks the uid again when it is made and before a run or a held interpreter starts, when the mark died since the last sweep", async () => {
  // A uid of its own: the other tests' sandboxes are made without a lease.
  await using lease = await leaseSandboxUid({
    range: { first: 64760, last: 64761 },
  });
  await withFixture(async (fx) => {
    const killMark = async () => {
      const [mark] = await liveProcessesOf(lease.uid);
      assert.ok(mark !== undefined);
      await signalAs(lease.uid, [mark], "SIGKILL");
      for (let i = 0; i < 3000 && lease.marked; i++) {
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      assert.equal(lease.marked, false);
    };
    // A sandbox made for a uid whose mark died marks it again at once.
    await killMark();
    const sandbox = await ProcessSandbox.create({
      requested: "uid",
      lease,
      hiddenPaths: [fx.secretDir],
    });
    assert.equal(lease.marked, true);
    await sandbox.prepareDir(fx.work);
    await sandbox.prepareDir(fx.out);
    await killMark();
    const markedWhileRunning: boolean[] = [];
    const run = await sandbox.run(
      sh(fx, "echo marked", {
        onOutput: () => markedWhileRunning.push(lease.marked),
      }),
    );
    assert.equal(output(run), "marked\n");
    assert.ok(markedWhileRunning.length > 0);
    assert.ok(markedWhileRunning.every((marked) => marked));
    await killMark();
    await sandbox.prestart(
      { ...sh(fx, ""), argv: ["python3", "-m", "json"] },
      { accept: () => true },
    );
    assert.equal(lease.marked, true);
    await sandbox.discardHeld();
  });
});

Deno.test("ProcessSandbox runs one command at a time, so a run's cleanup cannot kill another", async () => {
  await withFixture(async (fx) => {
    const sandbox = await sandboxFor("uid", fx);
    const [first, second] = await Promise.all([
      sandbox.run(
        sh(fx, "sleep 0.3; echo first", { limits: { timeoutMs: 3000 } }),
      ),
      sandbox.run(sh(fx, "echo second")),
    ]);
    assert.deepEqual([first.code, first.outputHead], [0, "first\n"]);
    assert.deepEqual([second.code, second.outputHead], [0, "second\n"]);
  });
});

Deno.test("ProcessSandbox.prepareDir() hands a tree to the uid without following symlinks", async () => {
  await withFixture(async (fx) => {
    const sandbox = await sandboxFor("uid", fx);
    await Deno.mkdir(`${fx.work}/pkg`);
    await Deno.writeTextFile(`${fx.work}/pkg/a.py`, "");
    await Deno.symlink(fx.outside, `${fx.work}/pkg/link`);
    await sandbox.prepareDir(fx.work);
    assert.equal((await Deno.stat(`${fx.work}/pkg`)).uid, UID);
    assert.equal((await Deno.stat(`${fx.work}/pkg/a.py`)).gid, UID);
    assert.equal((await Deno.stat(fx.outside)).uid, 0);
  });
});

Deno.test("ProcessSandbox.run() takes each limit at its least value", async (t) => {
  await withFixture(async (fx) => {
    const sandbox = await sandboxFor("auto", fx);
    await t.step("no output allowed: any output exceeds it", async () => {
      const result = await sandbox.run(
        sh(fx, "echo hi", { limits: { maxOutputBytes: 0 } }),
      );
      assert.equal(result.outputExceeded, true);
    });
    await t.step("a time limit of 1 ms is a limit, not a refusal", async () => {
      const result = await sandbox.run(
        sh(fx, "sleep 5", { limits: { timeoutMs: 1 } }),
      );
      assert.equal(result.timedOut, true);
    });
  });
});

Deno.test("ProcessSandbox.run() refuses commands it cannot confine", async (t) => {
  await withFixture(async (fx) => {
    const sandbox = await sandboxFor("auto", fx);
    const cases: [string, SandboxCommand, string][] = [
      [
        "a relative cwd",
        sh(fx, "true", { cwd: "work" }),
        'Cannot run "sh" in the sandbox: working directory "work" is not absolute',
      ],
      [
        "a relative cwd that names a real directory",
        sh(fx, "true", { cwd: "./" }),
        'Cannot run "sh" in the sandbox: working directory "./" is not absolute',
      ],
      [
        "a relative writable dir",
        sh(fx, "true", { writable: ["./"] }),
        'Cannot run "sh" in the sandbox: writable directory "./" is not absolute',
      ],
      [
        "a missing writable dir",
        sh(fx, "true", { writable: [`${fx.root}/missing`] }),
        `Cannot run "sh" in the sandbox: writable directory "${fx.root}/missing" is not a directory`,
      ],
      [
        "a writable path that is a file",
        sh(fx, "true", { writable: [fx.outside] }),
        `Cannot run "sh" in the sandbox: writable directory "${fx.outside}" is not a directory`,
      ],
      [
        "a zero timeout",
        sh(fx, "true", { limits: { timeoutMs: 0 } }),
        'Cannot run "sh" in the sandbox: limit "timeoutMs" must be an integer of at least 1, got "0"',
      ],
      [
        "an output cap beyond the integers a double holds exactly",
        sh(fx, "true", { limits: { maxOutputBytes: 2 ** 53 } }),
        'Cannot run "sh" in the sandbox: limit "maxOutputBytes" must be an integer of at least 0, got "9007199254740992"',
      ],
      [
        "a fractional process limit",
        sh(fx, "true", { limits: { maxProcesses: 1.5 } }),
        'Cannot run "sh" in the sandbox: limit "maxProcesses" must be an integer of at least 1, got "1.5"',
      ],
    ];
    if (sandbox.isolation.tier === "bwrap") {
      cases.push([
        "a writable dir inside a hidden one",
        sh(fx, "true", { writable: [fx.secretDir] }),
        `Cannot run "sh" in the sandbox: writable path "${fx.secretDir}" is inside hidden path "${fx.secretDir}"`,
      ]);
    }
    for (const [name, command, message] of cases) {
      await t.step(name, async () => {
        await assert.rejects(
          sandbox.run(command),
          (error: unknown) =>
            error instanceof SandboxCommandError && error.message === message,
        );
      });
    }
  });
});

Deno.test("ProcessSandbox.prepareDir() hands a small tree's entries over before the directories above them", async () => {
  // A uid of this test's own; nothing runs as it.
  const uid = 64403;
  const root = await Deno.realPath(
    await Deno.makeTempDir({ prefix: "pawl-sandbox-test-" }),
  );
  try {
    await Deno.chmod(root, 0o755);
    const dir = `${root}/copy`;
    await Deno.mkdir(`${dir}/pkg/deep`, { recursive: true });
    await Deno.writeTextFile(`${dir}/pkg/deep/a.py`, "");
    await Deno.writeTextFile(`${dir}/top.py`, "");
    const sandbox = await ProcessSandbox.create({
      requested: "uid",
      uid,
      gid: uid,
    });
    // Each change of owner is an event, in the order it was made.
    const watcher = Deno.watchFs(dir, { recursive: true });
    const prepared = sandbox.prepareDir(dir);
    const before: string[] = [];
    for await (const event of watcher) {
      if (event.paths.includes(dir)) break;
      before.push(...event.paths);
    }
    watcher.close();
    await prepared;
    assert.deepEqual(
      [...new Set(before)].sort(),
      [
        `${dir}/pkg`,
        `${dir}/pkg/deep`,
        `${dir}/pkg/deep/a.py`,
        `${dir}/top.py`,
      ],
    );
    const first = (path: string) => before.indexOf(`${dir}/${path}`);
    assert.ok(first("pkg/deep/a.py") < first("pkg/deep"), before.join(" "));
    assert.ok(first("pkg/deep") < first("pkg"), before.join(" "));
    assert.equal((await Deno.lstat(dir)).uid, uid);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("ProcessSandbox.prepareDir() hands a small root-owned tree over itself, deepest first, and any other tree to chown(1)", async (t) => {
  // A uid of this test's own; nothing runs as it.
  const uid = 64403;
  const tools = await Deno.makeTempDir({ prefix: "pawl-prepare-tools-" });
  const root = await Deno.makeTempDir({ prefix: "pawl-prepare-test-" });
  try {
    // Every tool the uid tier needs, but no chown(1): a tree that needs it
    // cannot be prepared, which shows which way each tree went.
    for (const name of ["prlimit", "env", "setpriv", "kill", "id"]) {
      const real = await findExecutable(name, SYSTEM_DIRS);
      assert.ok(real !== undefined, `${name} is installed`);
      await Deno.symlink(real, `${tools}/${name}`);
    }
    const sandbox = await ProcessSandbox.create({
      requested: "uid",
      uid,
      gid: uid,
      toolDirs: [tools],
    });
    const outside = `${root}/outside.txt`;
    await Deno.writeTextFile(outside, "root's");
    const tree = async (name: string) => {
      const dir = `${root}/${name}`;
      await Deno.mkdir(`${dir}/pkg/deep`, { recursive: true });
      await Deno.writeTextFile(`${dir}/pkg/deep/a.py`, "");
      await Deno.symlink(outside, `${dir}/pkg/link`);
      return dir;
    };
    await t.step(
      "a small tree: every entry, symlinks not followed",
      async () => {
        const dir = await tree("small");
        await sandbox.prepareDir(dir);
        for (
          const path of ["", "/pkg", "/pkg/deep", "/pkg/deep/a.py", "/pkg/link"]
        ) {
          const info = await Deno.lstat(`${dir}${path}`);
          assert.deepEqual([info.uid, info.gid], [uid, uid], path);
        }
        assert.equal((await Deno.stat(outside)).uid, 0);
      },
    );
    const refused = /"chown" was not found/;
    await t.step("a tree too large goes to chown(1)", async () => {
      const dir = await tree("large");
      for (let i = 0; i < IN_PROCESS_CHOWN_MAX; i++) {
        await Deno.writeTextFile(`${dir}/pkg/f${i}`, "");
      }
      await assert.rejects(sandbox.prepareDir(dir), refused);
    });
    await t.step(
      "a tree of exactly the limit is handed over in-process, one entry more goes to chown(1)",
      async () => {
        // A tree holds five entries, its own directory included.
        const sized = async (name: string, entries: number) => {
          const dir = await tree(name);
          for (let i = 0; i < entries - 5; i++) {
            await Deno.writeTextFile(`${dir}/pkg/f${i}`, "");
          }
          return dir;
        };
        const edge = await sized("edge", IN_PROCESS_CHOWN_MAX);
        await sandbox.prepareDir(edge);
        assert.equal((await Deno.lstat(`${edge}/pkg/f0`)).uid, uid);
        const over = await sized("over", IN_PROCESS_CHOWN_MAX + 1);
        await assert.rejects(sandbox.prepareDir(over), refused);
      },
    );
    await t.step(
      "a directory only root's group may write is handed over in-process, one others may write goes to chown(1)",
      async () => {
        const group = await tree("group");
        await Deno.chmod(`${group}/pkg`, 0o775);
        await sandbox.prepareDir(group);
        assert.equal((await Deno.lstat(`${group}/pkg/deep/a.py`)).uid, uid);
        const others = await tree("others");
        await Deno.chmod(`${others}/pkg`, 0o757);
        await assert.rejects(sandbox.prepareDir(others), refused);
      },
    );
    await t.step(
      "a tree whose own directory others may write goes to chown(1)",
      async () => {
        const top = await tree("top");
        await Deno.chmod(top, 0o757);
        await assert.rejects(sandbox.prepareDir(top), refused);
        assert.equal((await Deno.lstat(`${top}/pkg/deep/a.py`)).uid, 0);
      },
    );
    await t.step(
      "a directory the uid could write goes to chown(1)",
      async () => {
        const owned = await tree("owned");
        await Deno.chown(`${owned}/pkg/deep`, uid, uid);
        await assert.rejects(sandbox.prepareDir(owned), refused);
        const open = await tree("open");
        await Deno.chmod(`${open}/pkg`, 0o777);
        await assert.rejects(sandbox.prepareDir(open), refused);
        assert.equal((await Deno.lstat(`${open}/pkg/deep/a.py`)).uid, 0);
      },
    );
    await t.step(
      "shared files: only the real directories, whatever the tree's size",
      async () => {
        const dir = await tree("shared");
        for (let i = 0; i < IN_PROCESS_CHOWN_MAX; i++) {
          await Deno.writeTextFile(`${dir}/pkg/f${i}`, "");
        }
        await sandbox.prepareDir(dir, { sharedFiles: true });
        for (const path of ["", "/pkg", "/pkg/deep"]) {
          assert.equal((await Deno.lstat(`${dir}${path}`)).uid, uid, path);
        }
        for (const path of ["/pkg/deep/a.py", "/pkg/link", "/pkg/f0"]) {
          assert.equal((await Deno.lstat(`${dir}${path}`)).uid, 0, path);
        }
      },
    );
    await t.step("a tree chown(1) fails on cannot be prepared", async () => {
      await Deno.writeTextFile(
        `${tools}/chown`,
        "#!/bin/sh\necho 'chown: refused' >&2\nexit 1\n",
        { mode: 0o755 },
      );
      const failing = await ProcessSandbox.create({
        requested: "uid",
        uid,
        gid: uid,
        toolDirs: [tools],
      });
      const dir = await tree("failing");
      await Deno.chmod(`${dir}/pkg`, 0o777);
      await assert.rejects(
        failing.prepareDir(dir),
        (error: unknown) =>
          error instanceof SandboxUnavailableError &&
          error.message ===
            `Cannot prepare "${dir}" for uid ${uid}: chown exited with code 1: chown: refused`,
      );
    });
  } finally {
    await Deno.remove(tools, { recursive: true });
    await Deno.remove(root, { recursive: true });
  }
});

for (const requested of TIERS) {
  Deno.test(`ProcessSandbox (${requested}) runs a background command below pawl's priority, and the command cannot climb above it`, async () => {
    // Whether this kernel shares the cores by session (autogroups).
    const grouped = await Deno.stat("/proc/self/autogroup").then(
      () => true,
      () => false,
    );
    await withFixture(async (fx) => {
      const sandbox = await sandboxFor(requested, fx);
      const script = [
        "cut -d' ' -f19 /proc/self/stat",
        "cat /proc/self/autogroup 2>/dev/null | sed 's/.* nice //'",
        // Above the default is refused, for the group as for the processes.
        "if echo -5 >/proc/self/autogroup 2>/dev/null; then echo raised; fi",
        "nice -n -5 cut -d' ' -f19 /proc/self/stat 2>/dev/null",
      ].join("\n");
      const background = await sandbox.run(
        sh(fx, script, { priority: "background" }),
      );
      const normal = await sandbox.run(sh(fx, script));
      assert.equal(background.code, 0, output(background));
      assert.equal(normal.code, 0, output(normal));
      // Relative to pawl's own nice value, which a runner may have raised;
      // the session's group starts from the default in a new session.
      const own = Number(
        (await Deno.readTextFile("/proc/self/stat")).split(") ")[1]!
          .split(" ")[16],
      );
      const lowered = String(Math.min(own + 10, 19));
      assert.deepEqual(
        output(background).trim().split("\n"),
        grouped ? [lowered, "10", lowered] : [lowered, lowered],
      );
      assert.deepEqual(
        output(normal).trim().split("\n"),
        grouped ? [String(own), "0", String(own)] : [String(own), String(own)],
      );
    });
  });
}

Deno.test("ProcessSandbox.create() takes a uid and gid given over its lease's", async () => {
  // A uid of its own: the other tests' sandboxes are made without a lease.
  await using lease = await leaseSandboxUid({
    range: { first: 64762, last: 64763 },
  });
  const given = await ProcessSandbox.create({
    requested: "uid",
    lease,
    uid: UID,
    gid: UID + 1,
  });
  assert.deepEqual([given.isolation.uid, given.isolation.gid], [UID, UID + 1]);
  const leased = await ProcessSandbox.create({ requested: "uid", lease });
  assert.deepEqual(
    [leased.isolation.uid, leased.isolation.gid],
    [lease.uid, lease.gid],
  );
});

/**
 * A directory of the uid tier's tools whose kill(1) writes each call to
 * `calls` and does nothing while the file `broken` exists.
 */
async function countingTools(): Promise<string> {
  const tools = await Deno.makeTempDir({ prefix: "pawl-sweep-tools-" });
  // kill(1) runs as the sandbox uid: it may write here.
  await Deno.chmod(tools, 0o777);
  for (const name of ["prlimit", "env", "setpriv", "id", "chown"]) {
    const real = await findExecutable(name, SYSTEM_DIRS);
    assert.ok(real !== undefined, `${name} is installed`);
    await Deno.symlink(real, `${tools}/${name}`);
  }
  const kill = await findExecutable("kill", SYSTEM_DIRS);
  await Deno.writeTextFile(
    `${tools}/kill`,
    `#!/bin/sh\necho x >> '${tools}/calls'\n` +
      `[ -e '${tools}/broken' ] && exit 0\nexec '${kill}' "$@"\n`,
    { mode: 0o755 },
  );
  return tools;
}

async function killCalls(tools: string): Promise<number> {
  const calls = await Deno.readTextFile(`${tools}/calls`).catch(() => "");
  return calls.split("\n").filter((line) => line !== "").length;
}

Deno.test("ProcessSandbox sweeps the uid once after each run, and not again before the next", async () => {
  const tools = await countingTools();
  try {
    await withFixture(async (fx) => {
      const sandbox = await ProcessSandbox.create({
        requested: "uid",
        uid: UID,
        gid: UID,
        toolDirs: [tools],
      });
      await Deno.remove(`${tools}/calls`).catch(() => {});
      for (const word of ["one", "two"]) {
        const result = await sandbox.run(sh(fx, `echo ${word}`));
        assert.equal(output(result), `${word}\n`);
      }
      assert.equal(await killCalls(tools), 2);
    });
  } finally {
    await Deno.remove(tools, { recursive: true });
  }
});

/**
 * Runs `fn` with a uid sandbox whose last run's sweep failed: that run left a
 * `sleep 1000` behind, and the stand-in kill(1) refused to stop it.
 */
async function afterFailedSweep(
  fn: (sandbox: ProcessSandbox, fx: Fixture) => Promise<void>,
): Promise<void> {
  const tools = await countingTools();
  try {
    await withFixture(async (fx) => {
      const sandbox = await ProcessSandbox.create({
        requested: "uid",
        uid: UID,
        gid: UID,
        toolDirs: [tools],
      });
      await sandbox.prepareDir(fx.work);
      await sandbox.prepareDir(fx.out);
      await Deno.writeTextFile(`${tools}/broken`, "");
      await assert.rejects(
        sandbox.run(sh(fx, "setsid sleep 1000 >/dev/null 2>&1 & echo left")),
        /Cannot stop the processes of uid/,
      );
      await Deno.remove(`${tools}/broken`);
      await fn(sandbox, fx);
    });
  } finally {
    await Deno.remove(tools, { recursive: true });
  }
}

Deno.test("ProcessSandbox sweeps the uid before a run when the last run's sweep failed", async () => {
  await afterFailedSweep(async (sandbox, fx) => {
    const next = await sandbox.run(sh(fx, `exec ps -o args= -u ${UID}`));
    assert.equal(next.code, 0, output(next));
    assert.doesNotMatch(output(next), /^sleep 1000$/m);
  });
});

Deno.test("ProcessSandbox hides /root from the tests wherever it can mount over it", async (t) => {
  const host = [];
  for await (const entry of Deno.readDir("/root")) host.push(entry.name);
  assert.ok(host.length > 0, "/root holds something to hide");
  for (const requested of TIERS.filter((tier) => tier !== "uid")) {
    await t.step(requested, async () => {
      await withFixture(async (fx) => {
        const sandbox = await sandboxFor(requested, fx);
        const result = await sandbox.run(sh(fx, "ls -A /root; echo end"));
        assert.equal(output(result), "end\n");
      });
    });
  }
});

Deno.test("ProcessSandbox sweeps the uid before it holds an interpreter when the last run's sweep failed", async () => {
  await afterFailedSweep(async (sandbox, fx) => {
    await sandbox.prestart(
      { ...sh(fx, ""), argv: ["python3", "-m", "json"] },
      { accept: () => true },
    );
    const left = (await survivors(UID)).filter((line) =>
      line.endsWith("sleep 1000")
    );
    await sandbox.discardHeld();
    assert.deepEqual(left, []);
  });
});
