/**
 * The repository's tests are hostile. Each scenario is a real test file in
 * a head commit, run by the real CLI in the real sandbox; the assertions
 * are about what the hostile code could not do.
 *
 * The repositories, the key and the --out directory live under /var/tmp,
 * which the sandbox can see (read-only) unlike the private /tmp it gets, so
 * their protection is the sandbox uid and the file modes, not invisibility.
 */
import assert from "node:assert/strict";
import {
  blocking,
  check,
  type CheckOptions,
  explain,
  leftoversOf,
  type PawlResult,
  rules,
} from "./_cli.ts";
import {
  buildRepo,
  defaultBaseFiles,
  edit,
  hashDir,
  sha256,
  type TestRepo,
} from "./_repo.ts";

const CONTRACT = "tests/agent_contract.yaml";
const FIXTURE = "tests/fixtures/invoice_v3.json";
const PARSER = "payments/parser.py";

/** Small limits so the hostile runs stay fast. */
const SETTINGS =
  "[tests]\ntimeout_seconds = 5\nmax_output_mib = 1\nmax_processes = 64\n";

/** Breaks the "parse_rejects_empty" property for real. */
const BREAK_PROPERTY = edit(
  'raise ParseError("empty input")',
  'return Invoice("", 0)',
);

/** A report claiming every test passed. */
const FORGED_REPORT = `<?xml version="1.0" encoding="utf-8"?>
<testsuites><testsuite name="pytest" errors="0" failures="0" skipped="0" tests="4">
<testcase classname="tests.properties.test_codec" name="test_decode_encode_identity" time="0.1"/>
<testcase classname="tests.properties.test_parse" name="test_empty_input_raises" time="0.1"/>
<testcase classname="tests.test_invoices" name="test_fixture_invoices_parse" time="0.1"/>
<testcase classname="tests.test_invoices" name="test_report_render_flaky" time="0.1"/>
</testsuite></testsuites>
`;

/** Python helpers shared by the hostile tests. */
const PRELUDE = `import glob
import os
import sys
import time

FORGED_REPORT = ${JSON.stringify(FORGED_REPORT)}


def junit_path():
    for arg in sys.argv:
        if arg.startswith("--junitxml="):
            return arg.split("=", 1)[1]
    return None


def try_write(path, text):
    try:
        with open(path, "w") as f:
            f.write(text)
        return "WROTE:" + path
    except OSError as e:
        return type(e).__name__


def daemonize(work):
    """Double fork and setsid: 'work' runs in a process that outlives the test."""
    pid = os.fork()
    if pid == 0:
        try:
            os.setsid()
            if os.fork() == 0:
                work()
        finally:
            os._exit(0)
    os.waitpid(pid, 0)
`;

interface Hostile {
  /** Where the verdict must not leak, and what the test was told. */
  secret: string;
  keyFile: string;
  keyText: string;
  outPath: string;
  port: number;
  root: string;
}

function heads(
  h: Hostile,
): Record<string, Record<string, string | ((base: string) => string)>> {
  const test = (name: string, body: string) => ({
    [`tests/test_hostile_${name}.py`]: `${PRELUDE}\n\n${body}`,
  });
  return {
    "hostile/secrets": test(
      "secrets",
      `KEY_FILE = ${JSON.stringify(h.keyFile)}


def read(path):
    try:
        with open(path, "rb") as f:
            return f.read().decode("latin-1").replace("\\0", " ").replace("\\n", " ")
    except OSError as e:
        return "<" + type(e).__name__ + ">"


def test_steal_secrets(capfd):
    found = {"env": " ".join("%s=%s" % kv for kv in sorted(os.environ.items()))}
    found["parent"] = read("/proc/%d/environ" % os.getppid())
    for path in sorted(glob.glob("/proc/[0-9]*/environ")):
        found[path] = read(path)
    found["key"] = read(KEY_FILE)
    with capfd.disabled():
        for name, value in found.items():
            print("HOSTILE-SECRETS", name, value, flush=True)
    assert False, "HOSTILE-SECRETS key=%s parent=%s env=%s" % (
        found["key"][:80], found["parent"][:80], found["env"][:250])
`,
    ),
    "hostile/secrets-in-output": test(
      "secrets_in_output",
      `KEY_FILE = ${JSON.stringify(h.keyFile)}


def read(path):
    try:
        with open(path, "rb") as f:
            return f.read().decode("latin-1").replace("\\0", " ").replace("\\n", " ")
    except OSError as e:
        return "<" + type(e).__name__ + ">"


def test_leak_through_the_output_tail(capfd):
    # No report, so pawl quotes the output's last lines in its finding.
    hits = [v for v in os.environ.values() if "sk-secret" in v or "PAWL" in v]
    procs = [p for p in glob.glob("/proc/[0-9]*/environ") if "PAWL" in read(p)]
    lines = [
        "HOSTILE-TAIL key=" + read(KEY_FILE)[:100],
        "HOSTILE-TAIL parent=" + read("/proc/%d/environ" % os.getppid())[:200],
        "HOSTILE-TAIL env-hits=" + " ".join(hits)[:200],
        "HOSTILE-TAIL proc-hits=" + " ".join(read(p) for p in procs)[:300],
    ]
    with capfd.disabled():
        os.write(1, ("\\n".join(lines) + "\\n").encode())
        os._exit(1)
`,
    ),
    "hostile/network": test(
      "network",
      `import socket

PORT = ${h.port}


def test_phone_home():
    try:
        s = socket.create_connection(("127.0.0.1", PORT), timeout=3)
        s.sendall(b"HOSTILE-HELLO")
        s.close()
        result = "connected"
    except OSError as e:
        result = type(e).__name__
    assert False, "HOSTILE-NET " + result
`,
    ),
    "hostile/escape": test(
      "escape",
      `REPOS = ${JSON.stringify(`${h.root}/pawl-e2e-*/repo`)}
OUT = ${JSON.stringify(h.outPath)}
ACCEPT = '{"decision": "accept", "findings": []}'


def attack():
    results = []
    for repo in glob.glob(REPOS):
        for rel in ["PWNED", ".git/HEAD", ".git/config", "payments/parser.py", "tests/agent_contract.yaml"]:
            results.append(try_write(os.path.join(repo, rel), "pwned\\n"))
    for clone in glob.glob("/tmp/pawl-*/repo.git"):
        for rel in ["HEAD", "config", "PWNED"]:
            results.append(try_write(os.path.join(clone, rel), "pwned\\n"))
    results.append(try_write(OUT, ACCEPT))
    results.append(try_write(os.path.join(os.path.dirname(OUT), "PWNED"), ACCEPT))
    return results


def keep_attacking():
    deadline = time.time() + 30
    while time.time() < deadline:
        attack()
        time.sleep(0.02)


def test_escape():
    first = attack()
    daemonize(keep_attacking)
    assert False, "HOSTILE-ESCAPE %d attempts: %s" % (len(first), " ".join(first))
`,
    ),
    "hostile/rewrite": {
      // Weakened for real: a property removed and the fixture rewritten ...
      [CONTRACT]: edit(/ {2}- id: roundtrip_stable\n( {4}.*\n){3}/, ""),
      [FIXTURE]: '[\n  {"raw": "INV|a100|1250", "cents": 1250}\n]\n',
      // ... and the test puts the base's contract and fixture back in its tree.
      ...test(
        "rewrite",
        `BASE_CONTRACT = ${JSON.stringify(defaultBaseFiles()[CONTRACT])}
BASE_FIXTURE = ${JSON.stringify(defaultBaseFiles()[FIXTURE])}


def test_restore_the_contract_in_the_tree():
    results = [
        try_write("tests/agent_contract.yaml", BASE_CONTRACT),
        try_write("tests/fixtures/invoice_v3.json", BASE_FIXTURE),
    ]
    assert False, "HOSTILE-REWRITE " + " ".join(r.split(":")[0] for r in results)
`,
      ),
    },
    "hostile/hang": {
      // The head asks for a day; the base's 5 s must hold.
      "pawl.toml": SETTINGS.replace(
        "timeout_seconds = 5",
        "timeout_seconds = 86400",
      ),
      ...test(
        "hang",
        `def test_hang():
    daemonize(lambda: time.sleep(10000))
    time.sleep(10000)
`,
      ),
    },
    "hostile/fork-bomb": test(
      "fork_bomb",
      `def test_fork_bomb():
    children = 0
    error = "none"
    for _ in range(10000):
        try:
            pid = os.fork()
        except OSError as e:
            error = "%s(errno %d)" % (type(e).__name__, e.errno)
            break
        if pid == 0:
            try:
                time.sleep(10000)
            finally:
                os._exit(0)
        children += 1
    assert False, "HOSTILE-FORK forked=%d error=%s" % (children, error)
`,
    ),
    "hostile/flood": test(
      "flood",
      `def test_flood(capfd):
    with capfd.disabled():
        for _ in range(5000):
            sys.stdout.write("x" * 10**6)
            sys.stdout.flush()
`,
    ),
    "hostile/forge-symlink": {
      [PARSER]: BREAK_PROPERTY,
      ...test(
        "forge_symlink",
        `def test_forge_report_by_symlink():
    report = junit_path()
    forged = os.path.join(os.path.dirname(report), "forged.xml")
    try_write(forged, FORGED_REPORT)
    os.symlink(forged, report)
`,
      ),
    },
    "hostile/forge-race": {
      [PARSER]: BREAK_PROPERTY,
      ...test(
        "forge_race",
        `def overwrite_forever():
    report = junit_path()
    deadline = time.time() + 30
    while time.time() < deadline:
        try_write(report, FORGED_REPORT)
        time.sleep(0.001)


def test_forge_report_after_pytest_writes_it():
    daemonize(overwrite_forever)
`,
      ),
    },
    "hostile/forge-and-exit": {
      [PARSER]: BREAK_PROPERTY,
      ...test(
        "forge_and_exit",
        `def test_forge_report_and_exit_cleanly():
    try_write(junit_path(), FORGED_REPORT)
    os._exit(0)
`,
      ),
    },
  };
}

/** A TCP server on 127.0.0.1 that counts connections. */
function listen(): {
  port: number;
  connections: () => number;
  close: () => void;
} {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  let count = 0;
  (async () => {
    try {
      for await (const conn of listener) {
        count++;
        conn.close();
      }
    } catch {
      // closed
    }
  })();
  return {
    port: (listener.addr as Deno.NetAddr).port,
    connections: () => count,
    close: () => listener.close(),
  };
}

/**
 * The uids these runs lease (PAWL_SANDBOX_UIDS): no other test's, so every
 * process of them after a run is a leftover (looked at under each uid's
 * lease lock, since the same tests may run from another checkout).
 */
const HOSTILE_UIDS = { first: 64264, last: 64269 };

/** Run pawl on `branch` and then list the sandbox uids' processes (after `settle` ms). */
async function judge(
  repo: TestRepo,
  branch: string,
  options: CheckOptions = {},
  settle = 0,
): Promise<PawlResult & { leftovers: string[] }> {
  const result = await check(repo.dir, branch, {
    ...options,
    env: {
      ...options.env,
      PAWL_SANDBOX_UIDS: `${HOSTILE_UIDS.first}-${HOSTILE_UIDS.last}`,
    },
  });
  await new Promise((resolve) => setTimeout(resolve, settle));
  return {
    ...result,
    leftovers: await leftoversOf(HOSTILE_UIDS.first, HOSTILE_UIDS.last),
  };
}

function assertNoLeftovers(result: { leftovers: string[] }): void {
  assert.deepEqual(
    result.leftovers,
    [],
    "processes of the sandbox uid outlived the run",
  );
}

Deno.test("pawl check holds the sandbox against hostile tests", async (t) => {
  const root = await Deno.makeTempDir({
    dir: "/var/tmp",
    prefix: "pawl-e2e-hostile-",
  });
  const server = listen();
  try {
    await Deno.chmod(root, 0o755);
    const keyDir = `${root}/keys`;
    await Deno.mkdir(keyDir, { mode: 0o700 });
    const keyFile = `${keyDir}/signing.key`;
    const keyText =
      `-----BEGIN PAWL KEY-----${crypto.randomUUID()}-----END PAWL KEY-----`;
    await Deno.writeTextFile(keyFile, keyText, { mode: 0o600 });
    await Deno.mkdir(`${root}/out`, { mode: 0o755 });
    const h: Hostile = {
      secret: `sk-secret-${crypto.randomUUID()}`,
      keyFile,
      keyText,
      outPath: `${root}/out/verdict.json`,
      port: server.port,
      root,
    };
    await using repo: TestRepo = await buildRepo({
      base: { ...defaultBaseFiles(), "pawl.toml": SETTINGS },
      heads: heads(h),
      tempRoot: root,
    });

    await t.step(
      "secrets in the environment and a root-only key file leak nowhere",
      async (t) => {
        for (const branch of ["hostile/secrets", "hostile/secrets-in-output"]) {
          await t.step(branch, async () => {
            const result = await judge(repo, branch, {
              quiet: false,
              extra: ["--json"],
              env: {
                PAWL_E2E_SECRET: h.secret,
                GITHUB_TOKEN: `ghp_${h.secret}`,
              },
            });
            const why = explain(result);
            assert.equal(result.code, 1, why);
            for (
              const text of [result.stdout, result.stderr, result.outText ?? ""]
            ) {
              assert.ok(!text.includes(h.secret), `the secret leaked\n${why}`);
              assert.ok(!text.includes(h.keyText), `the key leaked\n${why}`);
              assert.ok(
                !text.includes("BEGIN PAWL KEY"),
                `the key leaked\n${why}`,
              );
            }
            // The hostile code did run, and what it found did reach the verdict.
            const messages = result.verdict!.findings.map((f) => f.message)
              .join("\n");
            if (branch === "hostile/secrets") {
              assert.match(
                messages,
                /HOSTILE-SECRETS key=<\w+Error> parent=.*env=.*PATH=/,
                why,
              );
            } else {
              assert.match(messages, /HOSTILE-TAIL key=<\w+Error>/, why);
              assert.match(messages, /HOSTILE-TAIL env-hits=\s*$/m, why);
            }
            assertNoLeftovers(result);
          });
        }
      },
    );

    await t.step(
      "a connection to a server on 127.0.0.1 never arrives",
      async () => {
        const result = await judge(repo, "hostile/network");
        const why = explain(result);
        assert.equal(result.code, 1, why);
        assert.equal(result.verdict?.isolation?.network, "isolated", why);
        const failed = result.verdict!.findings.find((f) =>
          f.rule === "tests.failed"
        );
        assert.match(failed?.message ?? "", /HOSTILE-NET \w+/, why);
        assert.doesNotMatch(
          failed?.message ?? "",
          /HOSTILE-NET connected/,
          why,
        );
        assert.equal(server.connections(), 0, "the server saw a connection");
        assertNoLeftovers(result);
      },
    );

    await t.step(
      "writes to the original repository, the private clone and --out fail",
      async () => {
        const before = await hashDir(repo.dir);
        const result = await judge(
          repo,
          "hostile/escape",
          { out: h.outPath },
          // The daemon it left would keep trying: give it the chance.
          1500,
        );
        const why = explain(result);
        assert.equal(result.code, 1, why);
        assert.equal(result.verdict?.decision, "reject", why);
        const failed = result.verdict!.findings.find((f) =>
          f.rule === "tests.failed"
        );
        assert.match(
          failed?.message ?? "",
          /HOSTILE-ESCAPE [1-9]\d* attempts/,
          why,
        );
        assert.doesNotMatch(failed?.message ?? "", /WROTE:/, why);
        assert.equal(await Deno.readTextFile(h.outPath), result.outText);
        assert.equal(
          await hashDir(repo.dir),
          before,
          "the original repository changed",
        );
        const names = [];
        for await (const entry of Deno.readDir(`${root}/out`)) {
          names.push(entry.name);
        }
        assert.deepEqual(names, ["verdict.json"]);
        assertNoLeftovers(result);
      },
    );

    await t.step(
      "rewriting the tree's contract and fixture during the run changes nothing",
      async () => {
        const result = await judge(repo, "hostile/rewrite");
        const statics = await check(repo.dir, "hostile/rewrite", {
          command: "diff",
        });
        const why = explain(result);
        assert.equal(result.code, 1, why);
        const failed = result.verdict!.findings.find((f) =>
          f.rule === "tests.failed"
        );
        // The test really did overwrite both files in its tree ...
        assert.match(failed?.message ?? "", /HOSTILE-REWRITE WROTE WROTE/, why);
        // ... and the verdict is still the one the git objects give.
        assert.deepEqual(
          rules(blocking(result.verdict).filter((f) => f.layer !== "tests")),
          ["fixture.digest_mismatch", "property.removed"],
          why,
        );
        assert.deepEqual(
          blocking(result.verdict).filter((f) => f.layer !== "tests"),
          blocking(statics.verdict),
          why,
        );
        const contract = result.verdict!.contract.files[0];
        assert.equal(
          contract?.sha256,
          sha256(repo.baseFiles[CONTRACT]!),
        );
        assertNoLeftovers(result);
      },
    );

    await t.step(
      "a hanging test and its daemon are stopped at the base's time limit",
      async () => {
        const result = await judge(repo, "hostile/hang");
        const why = explain(result);
        assert.equal(result.code, 1, why);
        const timeout = blocking(result.verdict).find((f) =>
          f.rule === "tests.timeout"
        );
        assert.equal(timeout?.layer, "tests", why);
        assert.match(timeout?.message ?? "", /time limit of 5 s /, why);
        assert.ok(
          result.verdict!.findings.some((f) =>
            f.rule === "config.settings_ignored" && !f.blocking
          ),
          why,
        );
        assert.ok(
          result.ms < 5000 + 8000,
          `the run took ${Math.round(result.ms)} ms`,
        );
        assertNoLeftovers(result);
      },
    );

    await t.step(
      "a fork bomb runs into the process limit and leaves nothing behind",
      async () => {
        const result = await judge(repo, "hostile/fork-bomb");
        const why = explain(result);
        assert.equal(result.code, 1, why);
        const failed = result.verdict!.findings.find((f) =>
          f.rule === "tests.failed"
        );
        const forked = /HOSTILE-FORK forked=(\d+) error=(.+)$/m.exec(
          failed?.message ?? "",
        );
        assert.ok(forked !== null, why);
        assert.ok(Number(forked[1]) < 64, `forked ${forked[1]} processes`);
        assert.match(forked[2]!, /errno 11/, why);
        assert.ok(
          result.ms < 20_000,
          `the run took ${Math.round(result.ms)} ms`,
        );
        assertNoLeftovers(result);
      },
    );

    await t.step(
      "gigabytes of output stop the run at the output cap, in bounded memory",
      async () => {
        const result = await judge(repo, "hostile/flood", {
          wrapper: [
            "python3",
            "-c",
            "import resource, subprocess, sys\n" +
            "code = subprocess.run(sys.argv[1:]).returncode\n" +
            "print('PAWL-E2E-MAXRSS-KB', resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, file=sys.stderr)\n" +
            "sys.exit(code)",
          ],
        });
        const why = explain(result);
        assert.equal(result.code, 1, why);
        const exceeded = blocking(result.verdict).find((f) =>
          f.rule === "tests.output_exceeded"
        );
        assert.equal(exceeded?.layer, "tests", why);
        const rss = Number(/PAWL-E2E-MAXRSS-KB (\d+)/.exec(result.stderr)?.[1]);
        assert.ok(rss > 0 && rss < 400 * 1024, `max RSS ${rss} KiB`);
        assert.ok(
          result.ms < 20_000,
          `the run took ${Math.round(result.ms)} ms`,
        );
        assertNoLeftovers(result);
      },
    );

    await t.step(
      "a forged JUnit report never turns a failing patch into an accept",
      async (t) => {
        // Each head breaks the "parse_rejects_empty" property for real, then:
        // - forge-symlink: points the report path at a forged file, so
        //   pytest's real report goes through a symlink;
        // - forge-race: leaves a daemon that overwrites the report with a
        //   forgery as soon as pytest has written it (pytest still exits 1);
        // - forge-and-exit: writes the forgery itself and ends pytest with
        //   os._exit(0) before pytest can write the real report. pawl
        //   accepts it today (the report is written in-process by the
        //   code under test).
        for (
          const branch of [
            "hostile/forge-symlink",
            "hostile/forge-race",
            "hostile/forge-and-exit",
          ]
        ) {
          await t.step(branch, async () => {
            const result = await judge(repo, branch);
            const why = explain(result);
            assert.equal(result.code, 1, why);
            assert.equal(result.verdict?.decision, "reject", why);
            assert.ok(
              blocking(result.verdict).some((f) =>
                f.layer === "tests" || f.rule === "property.not_passed"
              ),
              why,
            );
            assertNoLeftovers(result);
          });
        }
      },
    );
  } finally {
    server.close();
    await Deno.remove(root, { recursive: true });
  }
});
