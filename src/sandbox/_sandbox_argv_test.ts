import assert from "node:assert/strict";
import { DEFAULT_LIMITS } from "./_defaults.ts";
import {
  BACKGROUND_NICE,
  BACKGROUND_SCRIPT,
  buildSandboxArgv,
  type SandboxPlan,
  UNSHARE_HIDE_SCRIPT,
} from "./_sandbox_argv.ts";
import {
  SandboxCommandError,
  SandboxUnavailableError,
} from "./sandbox_errors.ts";

const TOOLS = {
  prlimit: "/usr/bin/prlimit",
  env: "/usr/bin/env",
  setpriv: "/usr/bin/setpriv",
  bwrap: "/usr/bin/bwrap",
  unshare: "/usr/bin/unshare",
  sh: "/bin/sh",
  mount: "/usr/bin/mount",
};

function plan(overrides: Partial<SandboxPlan> = {}): SandboxPlan {
  return {
    tier: "bwrap",
    uid: 64123,
    gid: 64124,
    tools: TOOLS,
    cwd: "/tmp/pawl-1/run-1/work",
    writable: ["/tmp/pawl-1/run-1/report"],
    hidden: [{ path: "/root", kind: "dir" }],
    env: { PATH: "/usr/bin:/bin", HOME: "/tmp/pawl-1/run-1/report" },
    argv: ["python3", "-m", "pytest"],
    limits: DEFAULT_LIMITS,
    tmpBytes: 1024,
    dropBoundingSet: true,
    ...overrides,
  };
}

/** The value after each occurrence of `flag`, in order. */
function after(argv: readonly string[], flag: string): string[] {
  return argv.flatMap((a, i) => a === flag ? [argv[i + 1] ?? ""] : []);
}

Deno.test("buildSandboxArgv() wraps the command in prlimit, setpriv and env -i", async (t) => {
  await t.step(
    "uid tier: prlimit as root, then the uid drop, then the exact environment",
    () => {
      const argv = buildSandboxArgv(plan({ tier: "uid" }));
      assert.deepEqual(argv, [
        "/usr/bin/prlimit",
        "--nproc=512",
        "--fsize=1073741824",
        "--cpu=900:901",
        "--nofile=1024",
        "--core=0",
        "--",
        "/usr/bin/setpriv",
        "--reuid=64123",
        "--regid=64124",
        "--clear-groups",
        "--inh-caps=-all",
        "--bounding-set=-all",
        "--no-new-privs",
        "--",
        "/usr/bin/env",
        "-i",
        "--",
        "HOME=/tmp/pawl-1/run-1/report",
        "PATH=/usr/bin:/bin",
        "python3",
        "-m",
        "pytest",
      ]);
    },
  );

  await t.step("without CAP_SETPCAP the bounding set is left alone", () => {
    const argv = buildSandboxArgv(
      plan({ tier: "uid", dropBoundingSet: false }),
    );
    assert.ok(argv.includes("--inh-caps=-all"));
    assert.ok(!argv.some((a) => a.startsWith("--bounding-set")));
    assert.deepEqual(
      argv,
      buildSandboxArgv(plan({ tier: "uid" })).filter((a) =>
        a !== "--bounding-set=-all"
      ),
    );
  });

  await t.step("none tier: no uid drop", () => {
    const argv = buildSandboxArgv(plan({ tier: "none" }));
    assert.equal(argv[0], "/usr/bin/prlimit");
    assert.ok(!argv.includes("/usr/bin/setpriv"));
    assert.deepEqual(argv.slice(-3), ["python3", "-m", "pytest"]);
  });

  await t.step("limits are passed to prlimit", () => {
    const argv = buildSandboxArgv(plan({
      tier: "uid",
      limits: {
        ...DEFAULT_LIMITS,
        maxProcesses: 7,
        maxFileBytes: 100,
        cpuSeconds: 3,
        maxOpenFiles: 64,
      },
    }));
    assert.deepEqual(argv.slice(1, 6), [
      "--nproc=7",
      "--fsize=100",
      "--cpu=3:4",
      "--nofile=64",
      "--core=0",
    ]);
  });
  await t.step("the uid's resident processes are added to its limit", () => {
    const argv = buildSandboxArgv(plan({
      tier: "uid",
      limits: { ...DEFAULT_LIMITS, maxProcesses: 7 },
      residentProcesses: 1,
    }));
    assert.equal(argv[1], "--nproc=8");
  });
});

Deno.test("buildSandboxArgv() lays bwrap mounts shallowest first", async (t) => {
  await t.step(
    "namespaces, read-only root, private /tmp, binds, hidden paths",
    () => {
      const argv = buildSandboxArgv(plan());
      assert.equal(argv[0], "/usr/bin/bwrap");
      for (
        const flag of [
          "--unshare-net",
          "--unshare-pid",
          "--unshare-ipc",
          "--unshare-uts",
          "--die-with-parent",
          "--new-session",
        ]
      ) {
        assert.ok(argv.includes(flag), flag);
      }
      assert.ok(
        !argv.includes("--unshare-all"),
        "a user namespace breaks setpriv",
      );
      const at = (flag: string, value: string) =>
        argv.findIndex((a, i) => a === flag && argv[i + 1] === value);
      assert.equal(at("--ro-bind", "/"), 1 + argv.indexOf("--new-session"));
      assert.ok(at("--tmpfs", "/tmp") < at("--dir", "/tmp/pawl-1"));
      assert.ok(at("--dir", "/tmp/pawl-1") < at("--dir", "/tmp/pawl-1/run-1"));
      assert.ok(
        at("--dir", "/tmp/pawl-1/run-1") <
          at("--bind", "/tmp/pawl-1/run-1/work"),
      );
      assert.deepEqual(after(argv, "--bind"), [
        "/tmp/pawl-1/run-1/work",
        "/tmp/pawl-1/run-1/report",
      ]);
      assert.deepEqual(after(argv, "--tmpfs"), ["/tmp", "/root", "/dev/shm"]);
      assert.deepEqual(after(argv, "--chdir"), ["/tmp/pawl-1/run-1/work"]);
      const dash = argv.indexOf("--");
      assert.equal(argv[dash + 1], "/usr/bin/prlimit");
    },
  );

  await t.step(
    "a hidden path inside a bind is laid over it; one under the private /tmp is skipped",
    () => {
      const argv = buildSandboxArgv(plan({
        cwd: "/work/clone",
        writable: [],
        hidden: [
          { path: "/root", kind: "dir" },
          { path: "/work/clone/.git", kind: "dir" },
          { path: "/work/clone/key.pem", kind: "file" },
          { path: "/tmp/pawl-1/repo.git", kind: "dir" },
        ],
      }));
      const bind = argv.indexOf("/work/clone");
      const hideDir = argv.lastIndexOf("/work/clone/.git");
      const hideFile = argv.lastIndexOf("/work/clone/key.pem");
      assert.ok(bind < hideDir && bind < hideFile);
      assert.equal(argv[hideFile - 2], "--ro-bind");
      assert.equal(argv[hideFile - 1], "/dev/null");
      assert.ok(!argv.includes("/tmp/pawl-1/repo.git"));
    },
  );

  await t.step(
    "a read-only directory under the private /tmp is bound read-only, after its parents",
    () => {
      const argv = buildSandboxArgv(plan({
        readOnly: ["/tmp/pawl-1/observer-x"],
      }));
      const at = (flag: string, value: string) =>
        argv.findIndex((a, i) => a === flag && argv[i + 1] === value);
      assert.ok(at("--ro-bind", "/tmp/pawl-1/observer-x") > 0);
      assert.ok(
        at("--dir", "/tmp/pawl-1") < at("--ro-bind", "/tmp/pawl-1/observer-x"),
      );
      assert.ok(!after(argv, "--bind").includes("/tmp/pawl-1/observer-x"));
    },
  );

  await t.step("a writable path inside a hidden one is refused", () => {
    for (const cwd of ["/root", "/root/work"]) {
      assert.throws(
        () => buildSandboxArgv(plan({ cwd, writable: [] })),
        (error: unknown) =>
          error instanceof SandboxCommandError &&
          error.message ===
            `Cannot run "python3" in the sandbox: writable path "${cwd}" is inside hidden path "/root"`,
      );
    }
  });
});

Deno.test("buildSandboxArgv() mounts over hidden paths inside unshare's namespace", () => {
  const argv = buildSandboxArgv(plan({
    tier: "unshare",
    hidden: [
      { path: "/root", kind: "dir" },
      { path: "/etc/pawl/key.pem", kind: "file" },
      { path: "/srv/keys", kind: "dir" },
    ],
  }));
  const script = argv.indexOf(UNSHARE_HIDE_SCRIPT);
  assert.deepEqual(argv.slice(0, script + 1), [
    "/usr/bin/unshare",
    "--net",
    "--pid",
    "--ipc",
    "--uts",
    "--fork",
    "--mount-proc",
    "--kill-child",
    "--",
    "/bin/sh",
    "-c",
    UNSHARE_HIDE_SCRIPT,
  ]);
  assert.deepEqual(argv.slice(script + 1, script + 8), [
    "pawl-sandbox",
    "/usr/bin/mount",
    "2",
    "/root",
    "/srv/keys",
    "1",
    "/etc/pawl/key.pem",
  ]);
  assert.equal(argv[script + 8], "/usr/bin/prlimit");
});

Deno.test("buildSandboxArgv() refuses commands env(1) would misread", async (t) => {
  const cases: [string, Partial<SandboxPlan>, string][] = [
    ["an empty argv", { argv: [] }, "argv is empty"],
    ["an empty program name", { argv: ["", "-c"] }, "argv is empty"],
    [
      "a program name with =",
      { argv: ["A=b"] },
      'the program name contains "="',
    ],
    [
      "a variable name with =",
      { env: { "A=B": "c" } },
      'invalid environment variable "A=B"',
    ],
    [
      "an empty variable name",
      { env: { "": "c" } },
      'invalid environment variable ""',
    ],
    [
      "a NUL in a value",
      { env: { A: "x\0y" } },
      'invalid environment variable "A"',
    ],
    [
      "a relative cwd",
      { cwd: "work" },
      'path "work" is not absolute and canonical',
    ],
    [
      "a cwd with ..",
      { cwd: "/tmp/../root" },
      'path "/tmp/../root" is not absolute',
    ],
  ];
  for (const [name, overrides, detail] of cases) {
    await t.step(name, () => {
      assert.throws(
        () => buildSandboxArgv(plan(overrides)),
        (error: unknown) =>
          error instanceof SandboxCommandError &&
          error.message.includes(detail),
      );
    });
  }
});

Deno.test("buildSandboxArgv() keeps the host's network only for a command that asks for it", async (t) => {
  for (
    const [tier, flag] of [["bwrap", "--unshare-net"], [
      "unshare",
      "--net",
    ]] as const
  ) {
    await t.step(tier, () => {
      const cut = buildSandboxArgv(plan({ tier }));
      const shared = buildSandboxArgv(plan({ tier, shareNetwork: true }));
      assert.ok(cut.includes(flag));
      assert.ok(!shared.includes(flag));
      assert.deepEqual(shared, cut.filter((a) => a !== flag));
    });
  }
});

Deno.test("buildSandboxArgv() lowers a background command's priority before anything of it runs", async (t) => {
  const tools = { ...TOOLS, nice: "/usr/bin/nice" };
  for (const tier of ["bwrap", "unshare", "uid", "none"] as const) {
    await t.step(
      `${tier}: the session's group, then nice(1), then prlimit`,
      () => {
        const normal = buildSandboxArgv(plan({ tier, tools }));
        const background = buildSandboxArgv(
          plan({ tier, tools, background: true }),
        );
        const step = [
          "/bin/sh",
          "-c",
          BACKGROUND_SCRIPT,
          "pawl-background",
          "/usr/bin/nice",
          "-n",
          String(BACKGROUND_NICE),
        ];
        const at = normal.indexOf("/usr/bin/prlimit");
        assert.deepEqual(background, [
          ...normal.slice(0, at),
          ...step,
          ...normal.slice(at),
        ]);
        // Run as root, inside the namespaces: before the uid drop.
        assert.ok(
          background.indexOf("pawl-background") <
            background.indexOf("/usr/bin/prlimit"),
        );
      },
    );
  }

  await t.step("the same command otherwise, and a normal one untouched", () => {
    assert.deepEqual(
      buildSandboxArgv(plan({ tools, background: false })),
      buildSandboxArgv(plan({ tools })),
    );
    assert.ok(!buildSandboxArgv(plan({ tools })).includes("pawl-background"));
  });

  await t.step(
    "without nice(1) only the group is lowered; without sh(1) only the nice value",
    () => {
      const noNice = buildSandboxArgv(plan({ tier: "uid", background: true }));
      assert.deepEqual(noNice.slice(0, 5), [
        "/bin/sh",
        "-c",
        BACKGROUND_SCRIPT,
        "pawl-background",
        "/usr/bin/prlimit",
      ]);
      const { sh: _sh, ...noSh } = tools;
      const onlyNice = buildSandboxArgv(
        plan({ tier: "uid", tools: noSh, background: true }),
      );
      assert.deepEqual(onlyNice.slice(0, 4), [
        "/usr/bin/nice",
        "-n",
        String(BACKGROUND_NICE),
        "/usr/bin/prlimit",
      ]);
    },
  );
});

Deno.test("buildSandboxArgv() refuses an argument with a NUL and any path that is not absolute and canonical", async (t) => {
  const cases: [string, Partial<SandboxPlan>, string][] = [
    [
      "a NUL in an argument",
      { argv: ["python3", "-c", "x\0y"] },
      'Cannot run "python3" in the sandbox: an argument contains a NUL byte',
    ],
    [
      "a NUL in a variable name",
      { env: { "A\0B": "c" } },
      'Cannot run "python3" in the sandbox: invalid environment variable "A\0B"',
    ],
    [
      "a writable path ending in /",
      { writable: ["/tmp/pawl-1/report/"] },
      'Cannot run "python3" in the sandbox: path "/tmp/pawl-1/report/" is not absolute and canonical',
    ],
    [
      "a read-only path with an empty part",
      { readOnly: ["/srv//data"] },
      'path "/srv//data" is not absolute and canonical',
    ],
    [
      "a hidden path with a . part",
      { hidden: [{ path: "/srv/./keys", kind: "dir" }] },
      'path "/srv/./keys" is not absolute and canonical',
    ],
    [
      "a relative hidden path",
      { hidden: [{ path: "srv/keys", kind: "file" }] },
      'path "srv/keys" is not absolute and canonical',
    ],
  ];
  for (const [name, overrides, detail] of cases) {
    await t.step(name, () => {
      assert.throws(
        () => buildSandboxArgv(plan(overrides)),
        (error: unknown) =>
          error instanceof SandboxCommandError &&
          error.message.includes(detail),
      );
    });
  }
  await t.step("/ itself is canonical", () => {
    const argv = buildSandboxArgv(plan({ tier: "uid", cwd: "/" }));
    assert.deepEqual(argv.slice(-3), ["python3", "-m", "pytest"]);
  });
});

Deno.test("buildSandboxArgv() is unavailable when a tool its tier needs is missing", async (t) => {
  const cases: [string, SandboxPlan["tier"], keyof typeof TOOLS][] = [
    ["setpriv for the uid tier", "uid", "setpriv"],
    ["setpriv for the bwrap tier", "bwrap", "setpriv"],
    ["bwrap for the bwrap tier", "bwrap", "bwrap"],
    ["unshare for the unshare tier", "unshare", "unshare"],
    ["sh for the unshare tier", "unshare", "sh"],
    ["mount for the unshare tier", "unshare", "mount"],
  ];
  for (const [name, tier, missing] of cases) {
    await t.step(name, () => {
      const tools: Record<string, string> = { ...TOOLS };
      delete tools[missing];
      assert.throws(
        () =>
          buildSandboxArgv(
            plan({ tier, tools: tools as unknown as SandboxPlan["tools"] }),
          ),
        (error: unknown) =>
          error instanceof SandboxUnavailableError &&
          error.message ===
            `Cannot build the sandbox command: "${missing}" was not found`,
      );
    });
  }
  await t.step("the none tier needs no setpriv", () => {
    const { setpriv: _setpriv, ...tools } = TOOLS;
    assert.equal(
      buildSandboxArgv(plan({ tier: "none", tools }))[0],
      TOOLS.prlimit,
    );
  });
});

Deno.test("buildSandboxArgv() binds each path once and hides only what a bind would show", async (t) => {
  const at = (argv: string[], flag: string, value: string) =>
    argv.findIndex((a, i) => a === flag && argv[i + 1] === value);
  await t.step(
    "each directory under the private /tmp is made once, before its binds",
    () => {
      const argv = buildSandboxArgv(plan());
      assert.deepEqual(after(argv, "--dir"), [
        "/tmp/pawl-1",
        "/tmp/pawl-1/run-1",
      ]);
    },
  );
  await t.step("no directory is made on the host's read-only root", () => {
    const argv = buildSandboxArgv(plan({ cwd: "/work/clone", writable: [] }));
    assert.deepEqual(after(argv, "--dir"), []);
  });
  await t.step(
    "a path given twice, or both read-only and writable, is bound once, writable",
    () => {
      const argv = buildSandboxArgv(plan({
        writable: ["/tmp/pawl-1/run-1/report", "/tmp/pawl-1/run-1/work"],
        readOnly: ["/srv/data", "/srv/data", "/tmp/pawl-1/run-1/report"],
      }));
      assert.deepEqual(after(argv, "--bind"), [
        "/tmp/pawl-1/run-1/work",
        "/tmp/pawl-1/run-1/report",
      ]);
      assert.deepEqual(
        after(argv, "--ro-bind").filter((p) => p !== "/" && p !== "/dev/null"),
        ["/srv/data"],
      );
    },
  );
  await t.step("a path inside a hidden directory is not mounted again", () => {
    const argv = buildSandboxArgv(plan({
      hidden: [
        { path: "/srv/keys", kind: "dir" },
        { path: "/srv", kind: "dir" },
        { path: "/srv/keys/key.pem", kind: "file" },
      ],
    }));
    assert.deepEqual(after(argv, "--tmpfs"), ["/tmp", "/srv", "/dev/shm"]);
    assert.ok(!argv.includes("/srv/keys"));
    assert.ok(!argv.includes("/srv/keys/key.pem"));
  });
  await t.step("only a hidden directory hides what lies under it", () => {
    const argv = buildSandboxArgv(plan({
      hidden: [
        { path: "/srv/keys", kind: "file" },
        { path: "/srv/keys/key.pem", kind: "file" },
      ],
    }));
    const at = (value: string) =>
      argv.findIndex((a, i) => a === "/dev/null" && argv[i + 1] === value);
    assert.ok(at("/srv/keys") > 0);
    assert.ok(at("/srv/keys/key.pem") > at("/srv/keys"));
  });
  await t.step(
    "a hidden file in a writable /tmp is covered, since the bind shows the host's",
    () => {
      const argv = buildSandboxArgv(plan({
        cwd: "/tmp",
        writable: [],
        hidden: [{ path: "/tmp/key.pem", kind: "file" }],
      }));
      const hide = at(argv, "/dev/null", "/tmp/key.pem");
      assert.ok(hide > at(argv, "--bind", "/tmp"));
      assert.equal(argv[hide - 1], "--ro-bind");
    },
  );
  await t.step("a read-only path inside a hidden one is refused", () => {
    assert.throws(
      () => buildSandboxArgv(plan({ readOnly: ["/root/data"] })),
      (error: unknown) =>
        error instanceof SandboxCommandError &&
        error.message ===
          'Cannot run "python3" in the sandbox: writable path "/root/data" is inside hidden path "/root"',
    );
  });
  await t.step(
    "the unshare tier refuses a working directory inside a hidden one",
    () => {
      assert.throws(
        () => buildSandboxArgv(plan({ tier: "unshare", cwd: "/root/work" })),
        SandboxCommandError,
      );
    },
  );
});

Deno.test("buildSandboxArgv() gives bwrap every mount with its exact options, shallowest first", () => {
  const argv = buildSandboxArgv(plan({
    cwd: "/tmp/pawl-1/work",
    writable: [],
    readOnly: ["/srv/data"],
    hidden: [
      { path: "/root", kind: "dir" },
      { path: "/etc/key.pem", kind: "file" },
    ],
    tools: {
      prlimit: TOOLS.prlimit,
      env: TOOLS.env,
      setpriv: TOOLS.setpriv,
      bwrap: TOOLS.bwrap,
    },
  }));
  assert.deepEqual(argv.slice(0, argv.indexOf(TOOLS.prlimit)), [
    "/usr/bin/bwrap",
    "--unshare-net",
    "--unshare-pid",
    "--unshare-ipc",
    "--unshare-uts",
    "--die-with-parent",
    "--new-session",
    // depth 0 and 1: the read-only root, /proc, /dev, the private /tmp,
    // the hidden /root
    ...["--ro-bind", "/", "/"],
    ...["--proc", "/proc"],
    ...["--dev", "/dev"],
    ...["--perms", "1777", "--size", "1024", "--tmpfs", "/tmp"],
    ...["--perms", "0755", "--size", "65536", "--tmpfs", "/root"],
    // depth 2: /dev/shm, the directory the bind needs inside /tmp, the
    // hidden file, the read-only bind
    ...["--perms", "1777", "--size", "1024", "--tmpfs", "/dev/shm"],
    ...["--perms", "0755", "--dir", "/tmp/pawl-1"],
    ...["--ro-bind", "/dev/null", "/etc/key.pem"],
    ...["--ro-bind", "/srv/data", "/srv/data"],
    // depth 3: the working directory
    ...["--bind", "/tmp/pawl-1/work", "/tmp/pawl-1/work"],
    ...["--chdir", "/tmp/pawl-1/work"],
    "--",
  ]);
});

Deno.test("the unshare tier's script mounts over each hidden path, then runs the command, and stops at a failed mount", async (t) => {
  const dir = await Deno.makeTempDir({ prefix: "pawl-hide-" });
  try {
    /** Run the script with a mount(8) that logs its arguments and exits `code`. */
    const run = async (code: number) => {
      const mount = `${dir}/mount-${code}`;
      await Deno.writeTextFile(
        mount,
        `#!/bin/sh\necho "$*" >> ${dir}/log-${code}\nexit ${code}\n`,
      );
      await Deno.chmod(mount, 0o755);
      const out = await new Deno.Command("/bin/sh", {
        args: [
          "-c",
          UNSHARE_HIDE_SCRIPT,
          "pawl-sandbox",
          mount,
          "2",
          "/root",
          "/srv/keys",
          "1",
          "/etc/pawl/key.pem",
          "echo",
          "ran",
          "as asked",
        ],
        stdout: "piped",
        stderr: "piped",
      }).output();
      const log = await Deno.readTextFile(`${dir}/log-${code}`);
      return {
        code: out.code,
        stdout: new TextDecoder().decode(out.stdout),
        log,
      };
    };
    await t.step(
      "every mount, in order, then the command with its arguments",
      async () => {
        assert.deepEqual(await run(0), {
          code: 0,
          stdout: "ran as asked\n",
          log: [
            "-t tmpfs -o mode=0755,size=65536 pawl-hidden /root",
            "-t tmpfs -o mode=0755,size=65536 pawl-hidden /srv/keys",
            "--bind /dev/null /etc/pawl/key.pem",
            "",
          ].join("\n"),
        });
      },
    );
    await t.step(
      "a failed mount: exit 125, nothing more mounted, the command not run",
      async () => {
        assert.deepEqual(await run(1), {
          code: 125,
          stdout: "",
          log: "-t tmpfs -o mode=0755,size=65536 pawl-hidden /root\n",
        });
      },
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("the background script lowers its session's group to the background nice value, then runs the command", async () => {
  // A session of its own, so only its own group is lowered.
  const out = await new Deno.Command("setsid", {
    args: [
      "/bin/sh",
      "-c",
      BACKGROUND_SCRIPT,
      "pawl-background",
      "/bin/sh",
      "-c",
      'echo "$0"; cat /proc/self/autogroup 2>/dev/null || true',
      "ran",
    ],
    stdout: "piped",
  }).output();
  const [said, group] = new TextDecoder().decode(out.stdout).split("\n");
  assert.equal(out.code, 0);
  assert.equal(said, "ran");
  // A kernel without autogroups has no file to write: the command runs all the same.
  const autogroups = await Deno.stat("/proc/self/autogroup").then(
    () => true,
    () => false,
  );
  if (autogroups) {
    assert.match(group ?? "", new RegExp(` nice ${BACKGROUND_NICE}$`));
  }
});

Deno.test("buildSandboxArgv() lays a bind of / before every other mount, and makes no directory a bind already gives", async (t) => {
  const pairs = (argv: string[]) => {
    const mounts = argv.slice(
      1 + argv.indexOf("--new-session"),
      argv.indexOf("--chdir"),
    );
    const out: string[] = [];
    for (let i = 0; i < mounts.length; i++) {
      if (
        mounts[i]!.startsWith("--") &&
        !["--perms", "--size"].includes(mounts[i]!)
      ) {
        out.push(`${mounts[i]} ${mounts[i + 1]}`);
      }
    }
    return out;
  };
  await t.step(
    "a working directory of / is bound right after the read-only root",
    () => {
      const argv = buildSandboxArgv(
        plan({ cwd: "/", writable: [], hidden: [] }),
      );
      assert.deepEqual(pairs(argv).slice(0, 3), [
        "--ro-bind /",
        "--bind /",
        "--proc /proc",
      ]);
    },
  );
  await t.step(
    "a bound directory is not made again for what is bound inside it",
    () => {
      const argv = buildSandboxArgv(plan({
        cwd: "/tmp/pawl-1/run-1/work",
        writable: ["/tmp/pawl-1"],
      }));
      assert.deepEqual(after(argv, "--dir"), []);
    },
  );
  await t.step(
    "a hidden path under the private /tmp is skipped though / is bound",
    () => {
      const argv = buildSandboxArgv(plan({
        cwd: "/",
        writable: [],
        hidden: [{ path: "/tmp/key.pem", kind: "file" }],
      }));
      assert.ok(!argv.includes("/tmp/key.pem"));
    },
  );
  await t.step("a hidden path under the private /dev/shm is skipped", () => {
    const argv = buildSandboxArgv(plan({
      hidden: [{ path: "/dev/shm/key.pem", kind: "file" }],
    }));
    assert.ok(!argv.includes("/dev/shm/key.pem"));
  });
});
