import assert from "node:assert/strict";
import {
  canDropBoundingSet,
  currentUid,
  findTools,
  resolveHidden,
  sandboxIdentity,
} from "./_setup.ts";
import {
  SandboxCommandError,
  SandboxUnavailableError,
} from "./sandbox_errors.ts";
import { findExecutable, SYSTEM_DIRS } from "./_exec.ts";

Deno.test("currentUid() asks id(1) once per process, and asks again after a failure", async () => {
  const dir = await Deno.makeTempDir({ prefix: "pawl-setup-test-" });
  try {
    const calls = `${dir}/calls`;
    const answer = `${dir}/answer`;
    await Deno.writeTextFile(answer, "not a uid\n");
    // An id(1) that counts its calls and prints what `answer` holds.
    await Deno.writeTextFile(
      `${dir}/id`,
      `#!/bin/sh\necho x >> '${calls}'\ncat '${answer}'\n`,
      { mode: 0o755 },
    );
    const tools = await findTools([dir]);
    assert.equal(tools.id, `${dir}/id`);
    const count = async () =>
      (await Deno.readTextFile(calls)).split("\n").filter((l) => l).length;
    await assert.rejects(currentUid(tools), /Cannot tell which uid/);
    await Deno.writeTextFile(answer, "4242\n");
    assert.equal(await currentUid(tools), 4242);
    assert.equal(await currentUid(tools), 4242);
    // The failure was not kept; the answer was.
    assert.equal(await count(), 2);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("findTools() finds each tool where a one-by-one search would", async () => {
  const tools = await findTools(SYSTEM_DIRS);
  for (const name of ["prlimit", "env", "setpriv", "kill", "id", "chown"]) {
    assert.equal(
      tools[name as keyof typeof tools],
      await findExecutable(name, SYSTEM_DIRS),
    );
  }
});

Deno.test("findTools() names only the tools it found", async () => {
  const dir = await Deno.makeTempDir({ prefix: "pawl-setup-test-" });
  try {
    await Deno.writeTextFile(`${dir}/kill`, "#!/bin/sh\n", { mode: 0o755 });
    await Deno.writeTextFile(`${dir}/env`, "#!/bin/sh\n", { mode: 0o755 });
    assert.deepEqual(await findTools([dir]), {
      env: `${dir}/env`,
      kill: `${dir}/kill`,
    });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("canDropBoundingSet() answers whether setpriv can in fact empty the bounding set", async () => {
  const setpriv = await findExecutable("setpriv", SYSTEM_DIRS);
  assert.ok(setpriv !== undefined, "setpriv is needed here");
  const { success } = await new Deno.Command(setpriv, {
    args: ["--bounding-set", "-all", "true"],
    stdout: "null",
    stderr: "null",
  }).output();
  assert.equal(await canDropBoundingSet(), success);
});

/** A passwd file in a fresh directory, for sandboxIdentity(). */
async function withPasswd(
  text: string,
  body: (path: string) => Promise<void>,
): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "pawl-setup-test-" });
  try {
    await Deno.writeTextFile(`${dir}/passwd`, text);
    await body(`${dir}/passwd`);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("sandboxIdentity() takes the ids given, else user pawl's, else 64123, and a given uid as its own gid", async (t) => {
  const passwd =
    "root:x:0:0::/root:/bin/sh\npawl:x:64000:64001::/:/bin/false\n";
  await withPasswd(passwd, async (path) => {
    const cases: [string, { uid?: number; gid?: number }, [number, number]][] =
      [
        ["nothing given: user pawl", {}, [64000, 64001]],
        ["a uid given: it is its own gid", { uid: 65000 }, [65000, 65000]],
        ["both given", { uid: 65000, gid: 100 }, [65000, 100]],
        ["a gid given: pawl's uid with it", { gid: 100 }, [64000, 100]],
      ];
    for (const [name, given, [uid, gid]] of cases) {
      await t.step(name, async () => {
        const identity = await sandboxIdentity({ ...given, passwdPath: path });
        assert.deepEqual([identity.uid, identity.gid], [uid, gid]);
        assert.deepEqual(identity.notes, []);
      });
    }
  });
  await withPasswd("", async (path) => {
    await t.step("no user pawl: 64123", async () => {
      const identity = await sandboxIdentity({ passwdPath: path });
      assert.deepEqual([identity.uid, identity.gid], [64123, 64123]);
    });
  });
});

Deno.test("sandboxIdentity() refuses root and anything that is no uid", async (t) => {
  for (
    const [given, name] of [
      [{ uid: 0 }, "uid 0"],
      [{ uid: 64000, gid: 0 }, "gid 0"],
      [{ uid: -5 }, "uid -5"],
      [{ uid: 1.5 }, "uid 1.5"],
      [{ uid: 0xffffffff }, "uid 4294967295"],
      [{ uid: 64000, gid: 0xffffffff }, "gid 4294967295"],
    ] as const
  ) {
    await t.step(name, async () => {
      await assert.rejects(
        sandboxIdentity({ ...given, passwdPath: "/nonexistent" }),
        (error: unknown) =>
          error instanceof SandboxCommandError &&
          error.message ===
            `Cannot run the tests as ${name}: it must be a positive integer other than root's`,
      );
    });
  }
  await t.step("the largest uid there is, 4294967294, is taken", async () => {
    const identity = await sandboxIdentity({
      uid: 0xfffffffe,
      passwdPath: "/nonexistent",
    });
    assert.equal(identity.uid, 0xfffffffe);
  });
});

Deno.test("sandboxIdentity() warns when a user other than pawl has the sandbox uid", async () => {
  await withPasswd(
    "pawl:x:64000:64000::/:/bin/false\nbackup:x:64000:1::/:/bin/false\n",
    async (path) => {
      const identity = await sandboxIdentity({ passwdPath: path });
      assert.deepEqual(identity.notes, [
        'uid 64000 belongs to "backup": every process of that uid is killed after each run',
      ]);
    },
  );
});

Deno.test("currentUid() refuses an id(1) answer that names no uid, rather than reading it as root", async (t) => {
  const table: [string, string][] = [
    ["it prints nothing", "exit 0"],
    ["it prints a blank line", "echo; echo ' '"],
    ["it fails after printing 0", "echo 0; exit 1"],
    ["it prints a fraction", "echo 1.5"],
  ];
  for (const [name, body] of table) {
    await t.step(name, async () => {
      // A directory of its own: answers are kept per id(1) path.
      const dir = await Deno.makeTempDir({ prefix: "pawl-setup-test-" });
      try {
        await Deno.writeTextFile(`${dir}/id`, `#!/bin/sh\n${body}\n`, {
          mode: 0o755,
        });
        await assert.rejects(
          currentUid(await findTools([dir])),
          (error: unknown) =>
            error instanceof SandboxUnavailableError &&
            error.message.startsWith("Cannot tell which uid pawl runs as"),
        );
      } finally {
        await Deno.remove(dir, { recursive: true });
      }
    });
  }
});

Deno.test("resolveHidden() hides what exists, once, as it really is", async () => {
  const dir = await Deno.realPath(
    await Deno.makeTempDir({ prefix: "pawl-setup-test-" }),
  );
  try {
    await Deno.mkdir(`${dir}/keys`);
    await Deno.writeTextFile(`${dir}/keys/signing.pem`, "key");
    await Deno.symlink(`${dir}/keys`, `${dir}/link`);
    assert.deepEqual(
      await resolveHidden([
        `${dir}/link`,
        `${dir}/keys`,
        `${dir}/keys/signing.pem`,
        `${dir}/missing`,
      ]),
      [
        { path: `${dir}/keys`, kind: "dir" },
        { path: `${dir}/keys/signing.pem`, kind: "file" },
      ],
    );
    for (const relative of ["keys", "keys/signing.pem", "./keys"]) {
      await assert.rejects(
        resolveHidden([relative]),
        (error: unknown) =>
          error instanceof SandboxCommandError &&
          error.message ===
            `Cannot hide "${relative}" from the sandbox: the path is not absolute`,
      );
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("resolveHidden() refuses a path it cannot resolve, rather than leave it visible", async () => {
  const dir = await Deno.makeTempDir({ prefix: "pawl-setup-test-" });
  try {
    await Deno.symlink(`${dir}/loop`, `${dir}/loop`);
    await assert.rejects(resolveHidden([`${dir}/loop`]));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("sandboxIdentity() looks the sandbox uid's owners up in /etc/passwd by default", async () => {
  const groups = new Set(
    (await Deno.readTextFile("/etc/group")).split("\n").map((line) =>
      line.split(":").filter((_, i) => i !== 1 && i < 3).join(":")
    ),
  );
  // A user whose name no group of the same id shares (nobody, nogroup).
  const [name, uid] = (await Deno.readTextFile("/etc/passwd")).split("\n")
    .map((line) => line.split(":"))
    .filter((f) => Number(f[2]) > 0 && !groups.has(`${f[0]}:${f[2]}`))
    .map((f) => [f[0]!, Number(f[2])] as const)[0] ?? [];
  assert.ok(name !== undefined && uid !== undefined, "a user is needed here");
  const identity = await sandboxIdentity({ uid });
  assert.equal(identity.notes.length, 1);
  assert.ok(identity.notes[0]!.includes(`"${name}"`), identity.notes[0]);
});

Deno.test("sandboxIdentity() takes a given uid over user pawl's, and the uid 1 as the least", async () => {
  await withPasswd("pawl:x:64000:64001::/:/bin/false\n", async (path) => {
    const identity = await sandboxIdentity({ uid: 1, passwdPath: path });
    assert.deepEqual([identity.uid, identity.gid], [1, 1]);
  });
});

Deno.test("currentUid() asks id(1) for the numeric uid alone", async () => {
  const dir = await Deno.makeTempDir({ prefix: "pawl-setup-test-" });
  try {
    // Without -u, id(1) prints a line that names no uid.
    await Deno.writeTextFile(
      `${dir}/id`,
      '#!/bin/sh\nif [ "$*" = -u ]; then echo 4243; else echo "uid=0(root) gid=0(root)"; fi\n',
      { mode: 0o755 },
    );
    assert.equal(await currentUid(await findTools([dir])), 4243);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("currentUid() without id(1) cannot tell the uid, rather than take root", async () => {
  await assert.rejects(
    currentUid({}),
    (error: unknown) =>
      error instanceof SandboxUnavailableError &&
      error.message ===
        'Cannot tell which uid pawl runs as: "id" was not found',
  );
});

Deno.test("sandboxIdentity() names every other user of the sandbox uid in its warning", async () => {
  await withPasswd(
    "pawl:x:64000:64000::/:/bin/false\nbackup:x:64000:1::/:/bin/false\nlp:x:64000:7::/:/bin/false\n",
    async (path) => {
      const identity = await sandboxIdentity({ passwdPath: path });
      assert.deepEqual(identity.notes, [
        'uid 64000 belongs to "backup", "lp": every process of that uid is killed after each run',
      ]);
    },
  );
});

Deno.test("resolveHidden() hides anything that is no directory as a file", async () => {
  assert.deepEqual(await resolveHidden(["/dev/null"]), [
    { path: "/dev/null", kind: "file" },
  ]);
});

Deno.test("canDropBoundingSet() says no where pawl lacks CAP_SETPCAP, though it holds the rest", async () => {
  const setpriv = await findExecutable("setpriv", SYSTEM_DIRS);
  assert.ok(setpriv !== undefined, "setpriv is needed here");
  const module = new URL("./_setup.ts", import.meta.url).href;
  const { code, stdout } = await new Deno.Command(setpriv, {
    args: [
      "--bounding-set",
      "-setpcap",
      "--",
      Deno.execPath(),
      "eval",
      `import { canDropBoundingSet } from "${module}";` +
      "console.log(await canDropBoundingSet());",
    ],
    stderr: "inherit",
  }).output();
  assert.equal(code, 0);
  assert.equal(new TextDecoder().decode(stdout), "false\n");
});
