import assert from "node:assert/strict";
import { commitAll, fixedGit } from "../demo/fixed_git.ts";
import { SILENT_PROGRESS } from "../core/progress.ts";
import { GitCli } from "../git/git_cli.ts";
import { leaseSandboxUid } from "../sandbox/lease_uid.ts";
import { ProcessSandbox } from "../sandbox/process_sandbox.ts";
import type { IsolationRequest } from "../sandbox/probe_isolation.ts";
import type { SandboxResult } from "../sandbox/sandbox.ts";
import type { SetupSettings } from "../settings/setup_settings.ts";
import {
  prepareSetupEnvironment,
  type PrepareSetupOptions,
} from "./prepare_setup_environment.ts";
import { SetupCache } from "./setup_cache.ts";
import { SetupFailedError } from "./setup_failed_error.ts";
import { withSetupEnvironment } from "./with_setup_environment.ts";

/** This file's own uids (held until the test process exits). */
const RANGE = { first: 64420, last: 64439 };
const UID_A = (await leaseSandboxUid({ range: RANGE })).uid;
const UID_B = (await leaseSandboxUid({ range: RANGE })).uid;
const PATH = "/usr/local/bin:/usr/bin:/bin";

/** Writes a module from a base file, a random stamp and its uid into the env dir. */
const WRITE_MODULE = [
  "sh",
  "-c",
  'mkdir -p "$PAWL_ENV_DIR/python" && cp helper_src.py "$PAWL_ENV_DIR/python/helperlib.py" && od -An -N8 -tx8 /dev/urandom > "$PAWL_ENV_DIR/stamp" && id -u > "$PAWL_ENV_DIR/uid" && ls -A > "$PAWL_ENV_DIR/seen" && stat -c %a:%u:%g "$PAWL_ENV_DIR/.." > "$PAWL_ENV_DIR/entry"',
];

interface Fixture {
  root: string;
  git: GitCli;
  base: string;
  cache: string;
  options(
    setup: Partial<SetupSettings>,
  ): Omit<PrepareSetupOptions, "baseTree"> & {
    baseTree: PrepareSetupOptions["baseTree"];
  };
}

async function withFixture(fn: (fx: Fixture) => Promise<void>): Promise<void> {
  const root = await Deno.makeTempDir({ prefix: "pawl-setup-test-" });
  await Deno.chmod(root, 0o755);
  const repo = `${root}/repo`;
  await Deno.mkdir(repo);
  await fixedGit(repo, ["init", "-q", "-b", "main"]);
  await Deno.writeTextFile(`${repo}/helper_src.py`, "VALUE = 41 + 1\n");
  await Deno.writeTextFile(`${repo}/requirements-dev.txt`, "helperlib==1\n");
  await Deno.writeTextFile(`${repo}/app.py`, "import helperlib\n");
  await commitAll(repo, "base");
  const git = new GitCli(`${repo}/.git`);
  try {
    const base = await git.resolveCommit("main");
    const baseTree = await git.listTree(base);
    let scratches = 0;
    const fx: Fixture = {
      root,
      git,
      base,
      cache: `${root}/cache`,
      options: (setup) => ({
        git,
        base,
        baseTree,
        setup: {
          command: WRITE_MODULE,
          inputs: ["helper_src.py", "requirements-dev.txt"],
          network: false,
          timeout_seconds: 120,
          ...setup,
        },
        cacheRoot: `${root}/cache`,
        sandboxPath: PATH,
        scratch: async (name) => {
          const dir = `${root}/scratch-${++scratches}-${name}`;
          await Deno.mkdir(dir);
          return dir;
        },
        progress: SILENT_PROGRESS,
      }),
    };
    await fn(fx);
  } finally {
    await git.close();
    await new Deno.Command("chmod", { args: ["-R", "u+rwX", root] }).output();
    await Deno.remove(root, { recursive: true });
  }
}

function sandboxAs(
  uid: number,
  requested: IsolationRequest = "auto",
): Promise<ProcessSandbox> {
  return ProcessSandbox.create({ uid, gid: uid, requested });
}

function text(result: SandboxResult): string {
  return `${result.outputHead}${
    result.outputBytes > result.outputHead.length ? result.outputTail : ""
  }`;
}

Deno.test("prepareSetupEnvironment() runs the base's step once, sandboxed, and a second judgement uses the cache", async (t) => {
  // bubblewrap binds the result read-only; at the uid tier only its
  // sealed ownership and modes keep the tests from changing it.
  for (const tier of ["auto", "uid"] as const) {
    await t.step(tier, () => cachesOnce(tier));
  }
});

async function cachesOnce(tier: IsolationRequest): Promise<void> {
  await withFixture(async (fx) => {
    const sandbox = await sandboxAs(UID_A, tier);
    const first = await prepareSetupEnvironment(sandbox, fx.options({}));
    assert.equal(first.cached, false);
    const stamp = await Deno.readTextFile(`${first.dir}/stamp`);
    assert.equal(
      (await Deno.readTextFile(`${first.dir}/uid`)).trim(),
      String(UID_A),
      "the step runs as the sandbox uid",
    );
    assert.deepEqual(
      (await Deno.readTextFile(`${first.dir}/seen`)).trim().split("\n"),
      ["helper_src.py", "requirements-dev.txt"],
      "the step sees the base's input files and nothing else of the repository",
    );
    if (sandbox.isolation.tier === "uid") {
      // (Under bubblewrap the step sees a directory of the sandbox's own
      // there, and other runs see the entry only through a read-only root.)
      assert.equal(
        (await Deno.readTextFile(`${first.dir}/entry`)).trim(),
        `750:0:${UID_A}`,
        "while it is made, the entry is closed to every uid but the step's",
      );
    }
    const entry = await Deno.stat(`${first.dir}/..`);
    assert.deepEqual([entry.uid, entry.gid, (entry.mode ?? 0) & 0o7777], [
      0,
      0,
      0o755,
    ]);
    const module = await Deno.lstat(`${first.dir}/python/helperlib.py`);
    assert.equal(module.uid, 0, "sealed: root-owned");
    assert.equal((module.mode ?? 0) & 0o7777, 0o644);

    const second = await prepareSetupEnvironment(
      await sandboxAs(UID_B, tier),
      fx.options({}),
    );
    assert.equal(second.cached, true);
    assert.equal(second.key, first.key);
    assert.equal(second.dir, first.dir);
    assert.equal(
      await Deno.readTextFile(`${second.dir}/stamp`),
      stamp,
      "the step did not run again",
    );

    // The tests import what the step wrote, and cannot change it.
    const tests = withSetupEnvironment(sandbox, first.dir);
    const work = `${fx.root}/work`;
    await Deno.mkdir(work);
    await sandbox.prepareDir(work);
    const imported = await tests.run({
      argv: ["python3", "-c", "import helperlib; print(helperlib.VALUE)"],
      cwd: work,
      env: { PATH, HOME: work },
      writable: [],
    });
    assert.equal(imported.code, 0, text(imported));
    assert.equal(imported.outputHead.trim(), "42");
    const tamper = await tests.run({
      argv: [
        "sh",
        "-c",
        'echo "VALUE = 0" > "$PAWL_ENV_DIR/python/helperlib.py" || exit 9; rm -f "$PAWL_ENV_DIR/stamp" || exit 9; exit 0',
      ],
      cwd: work,
      env: { PATH, HOME: work },
      writable: [],
    });
    assert.equal(tamper.code, 9, text(tamper));
    assert.equal(
      await Deno.readTextFile(`${first.dir}/python/helperlib.py`),
      "VALUE = 41 + 1\n",
    );
  });
}

Deno.test("prepareSetupEnvironment() runs the step once when judgements of one key race", async () => {
  await withFixture(async (fx) => {
    const [a, b] = await Promise.all([
      sandboxAs(UID_A).then((s) => prepareSetupEnvironment(s, fx.options({}))),
      sandboxAs(UID_B).then((s) => prepareSetupEnvironment(s, fx.options({}))),
    ]);
    assert.deepEqual([a!.cached, b!.cached].sort(), [false, true]);
    assert.equal(a!.dir, b!.dir);
    const cache = await SetupCache.open(fx.cache);
    assert.ok(await cache.lookup(a!.key) !== undefined);
    const entries = [];
    for await (const e of Deno.readDir(fx.cache)) entries.push(e.name);
    assert.deepEqual(entries.sort(), [a!.key, `${a!.key}.lock`]);
  });
});

Deno.test("prepareSetupEnvironment() keys the cache by the command and the base's input files", async () => {
  await withFixture(async (fx) => {
    const sandbox = await sandboxAs(UID_A);
    const first = await prepareSetupEnvironment(sandbox, fx.options({}));
    const other = await prepareSetupEnvironment(
      sandbox,
      fx.options({
        command: [...WRITE_MODULE.slice(0, 2), `${WRITE_MODULE[2]} `],
      }),
    );
    assert.notEqual(other.key, first.key);
    assert.equal(other.cached, false);
    // A later base whose input file changed; and one where only code did.
    const repo = `${fx.root}/repo`;
    await Deno.writeTextFile(`${repo}/requirements-dev.txt`, "helperlib==2\n");
    await commitAll(repo, "new requirements");
    const changed = await fx.git.resolveCommit("main");
    await Deno.writeTextFile(`${repo}/app.py`, "import helperlib  # v2\n");
    await commitAll(repo, "code only");
    const codeOnly = await fx.git.resolveCommit("main");
    const at = async (commit: string) =>
      await prepareSetupEnvironment(sandbox, {
        ...fx.options({}),
        base: commit,
        baseTree: await fx.git.listTree(commit),
      });
    const afterInputs = await at(changed);
    assert.notEqual(afterInputs.key, first.key);
    assert.equal(afterInputs.cached, false);
    const afterCode = await at(codeOnly);
    assert.equal(afterCode.key, afterInputs.key);
    assert.equal(afterCode.cached, true);
  });
});

Deno.test("prepareSetupEnvironment() fails as could-not-decide, naming the command and its output, and caches nothing", async () => {
  await withFixture(async (fx) => {
    const sandbox = await sandboxAs(UID_A);
    const command = [
      "sh",
      "-c",
      'echo resolving; mkdir "$PAWL_ENV_DIR/half"; echo "no such package: frobnicate" >&2; exit 3',
    ];
    await assert.rejects(
      prepareSetupEnvironment(sandbox, fx.options({ command })),
      (error: unknown) => {
        assert.ok(error instanceof SetupFailedError);
        assert.match(error.message, /"sh","-c"/);
        assert.match(error.message, /exited with code 3/);
        assert.match(error.message, /no such package: frobnicate/);
        assert.match(error.message, /the pull request is not at fault/);
        assert.ok(error.message.includes(fx.base.slice(0, 12)));
        return true;
      },
    );
    const entries = [];
    for await (const e of Deno.readDir(fx.cache)) entries.push(e.name);
    assert.ok(
      entries.every((name) => name.endsWith(".lock")),
      `nothing but the lock is left: ${entries}`,
    );
    await assert.rejects(
      prepareSetupEnvironment(
        sandbox,
        fx.options({ inputs: ["requirements-missing.txt"] }),
      ),
      /input "requirements-missing.txt" of \[environment.setup\] in pawl.toml is not in the base commit/,
    );
  });
});

Deno.test("prepareSetupEnvironment() gives the step the network only when the base allows it", async (t) => {
  for (const tier of ["auto", "unshare", "uid"] as const) {
    await t.step(tier, () => networkOnlyWhenAllowed(tier));
  }
});

async function networkOnlyWhenAllowed(tier: IsolationRequest): Promise<void> {
  await withFixture(async (fx) => {
    const server = Deno.listen({ hostname: "127.0.0.1", port: 0 });
    const port = (server.addr as Deno.NetAddr).port;
    const serving = (async () => {
      for await (const conn of server) conn.close();
    })();
    try {
      const sandbox = await sandboxAs(UID_A, tier);
      const probe = [
        "python3",
        "-c",
        `import os, socket\ntry:\n    socket.create_connection(("127.0.0.1", ${port}), timeout=5).close(); r = "reached"\nexcept OSError:\n    r = "unreachable"\nopen(os.environ["PAWL_ENV_DIR"] + "/net", "w").write(r)\n`,
      ];
      const cut = await prepareSetupEnvironment(
        sandbox,
        fx.options({ command: probe }),
      );
      const shared = await prepareSetupEnvironment(
        sandbox,
        fx.options({ command: probe, network: true }),
      );
      assert.notEqual(cut.key, shared.key);
      assert.equal(await Deno.readTextFile(`${shared.dir}/net`), "reached");
      assert.equal(
        await Deno.readTextFile(`${cut.dir}/net`),
        sandbox.isolation.network === "isolated" ? "unreachable" : "reached",
        `tier ${sandbox.isolation.tier}`,
      );
    } finally {
      server.close();
      await serving.catch(() => {});
    }
  });
}
