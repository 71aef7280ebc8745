/**
 * A real PostgreSQL server for the serve tests: `initdb` in a temp dir and
 * `postgres` listening on a unix socket there and on a free port of
 * 127.0.0.1, run as an unprivileged uid (PostgreSQL refuses root). Found
 * at `PAWL_TEST_PG_BIN` or Debian's `/usr/lib/postgresql/<version>/bin`.
 *
 * @module
 */

/** Options for {@linkcode startTestPostgres}. */
export interface TestPostgresOptions {
  /** Demand this password of the user `pawl` over TCP (default: trust). */
  password?: string;
}

/** A running test server; dispose of it to stop it and delete its files. */
export interface TestPostgres extends AsyncDisposable {
  /** `postgres://…` URL over 127.0.0.1, without the password. */
  url: string;
  /** Stop the server (fast shutdown), keeping its data. */
  stop(): Promise<void>;
  /** Start it again on the same port and data. */
  start(): Promise<void>;
}

const UID = 65534;

/** Start a fresh PostgreSQL server. */
export async function startTestPostgres(
  options: TestPostgresOptions = {},
): Promise<TestPostgres> {
  const bin = await findBin();
  const root = await Deno.makeTempDir({ prefix: "pawl-pg-" });
  await Deno.chmod(root, 0o755);
  await Deno.chown(root, UID, UID);
  const data = `${root}/data`;
  const auth = ["--auth=trust"];
  if (options.password !== undefined) {
    const pwfile = `${root}/pwfile`;
    await Deno.writeTextFile(pwfile, options.password + "\n");
    await Deno.chown(pwfile, UID, UID);
    auth.splice(
      0,
      1,
      "--auth-local=trust",
      "--auth-host=scram-sha-256",
      `--pwfile=${pwfile}`,
    );
  }
  await asUser(`${bin}/initdb`, [
    "-D",
    data,
    "-U",
    "pawl",
    ...auth,
    "--no-sync",
    "-E",
    "UTF8",
  ]);
  const port = freePort();
  let child: Deno.ChildProcess | undefined;
  const start = async () => {
    child = new Deno.Command("setpriv", {
      args: [
        `--reuid=${UID}`,
        `--regid=${UID}`,
        "--clear-groups",
        `${bin}/postgres`,
        "-D",
        data,
        "-p",
        String(port),
        "-k",
        root,
        "-c",
        "listen_addresses=127.0.0.1",
        "-c",
        "fsync=off",
        "-c",
        "max_connections=50",
      ],
      stdout: "null",
      stderr: "null",
      env: { LC_ALL: "C" },
    }).spawn();
    const deadline = Date.now() + 20_000;
    while (true) {
      try {
        const conn = await Deno.connect({ hostname: "127.0.0.1", port });
        conn.close();
        // Accepting TCP comes a little before accepting logins.
        const ready = await new Deno.Command(`${bin}/pg_isready`, {
          args: ["-h", "127.0.0.1", "-p", String(port), "-U", "pawl"],
          stdout: "null",
          stderr: "null",
        }).output();
        if (ready.success) return;
      } catch {
        // not yet
      }
      if (Date.now() > deadline) {
        throw new Error("PostgreSQL did not start within 20 s");
      }
      await new Promise((r) => setTimeout(r, 100));
    }
  };
  const stop = async () => {
    if (child === undefined) return;
    const running = child;
    child = undefined;
    try {
      running.kill("SIGINT");
    } catch {
      // already gone
    }
    await running.status;
  };
  await start();
  return {
    url: `postgres://pawl@127.0.0.1:${port}/postgres`,
    stop,
    start,
    async [Symbol.asyncDispose]() {
      await stop();
      await Deno.remove(root, { recursive: true }).catch(() => {});
    },
  };
}

async function findBin(): Promise<string> {
  const given = Deno.env.get("PAWL_TEST_PG_BIN");
  if (given) return given;
  const versions: number[] = [];
  for await (const entry of Deno.readDir("/usr/lib/postgresql")) {
    if (/^\d+$/.test(entry.name)) versions.push(Number(entry.name));
  }
  const newest = versions.sort((a, b) => b - a)[0];
  if (newest === undefined) {
    throw new Error(
      "PostgreSQL is not installed: run tools/test_prereqs.sh (Debian package postgresql)",
    );
  }
  return `/usr/lib/postgresql/${newest}/bin`;
}

async function asUser(command: string, args: string[]): Promise<void> {
  const out = await new Deno.Command("setpriv", {
    args: [
      `--reuid=${UID}`,
      `--regid=${UID}`,
      "--clear-groups",
      command,
      ...args,
    ],
    stdout: "piped",
    stderr: "piped",
    env: { LC_ALL: "C" },
  }).output();
  if (!out.success) {
    throw new Error(
      `${command} failed: ${new TextDecoder().decode(out.stderr)}`,
    );
  }
}

function freePort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  listener.close();
  return port;
}
