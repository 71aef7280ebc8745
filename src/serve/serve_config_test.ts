import assert from "node:assert/strict";
import {
  resolveServeConfig,
  type ServeConfig,
  ServeConfigError,
} from "./serve_config.ts";

const SECRET = { PAWL_SERVE_WEBHOOK_SECRET: "s3cret-value" };

Deno.test("resolveServeConfig() takes flags over variables over the file", () => {
  const config = resolveServeConfig({
    flags: { port: "9000" },
    env: { ...SECRET, PAWL_SERVE_PORT: "9100", PAWL_SERVE_WORKERS: "3" },
    file: {
      path: "serve.toml",
      text:
        'port = 9200\nworkers = 5\nhost = "0.0.0.0"\nqueue_url = "postgres://db/pawl"\n',
    },
  });
  assert.equal(config.port, 9000);
  assert.equal(config.workers, 3);
  assert.equal(config.host, "0.0.0.0");
  assert.equal(config.queueUrl, "postgres://db/pawl");
  assert.deepEqual(config.webhookSecret, {
    kind: "value",
    value: "s3cret-value",
    from: "PAWL_SERVE_WEBHOOK_SECRET",
  });
});

Deno.test("resolveServeConfig() takes each setting the file gives when no flag or variable does", async (t) => {
  const table: [string, keyof ServeConfig, unknown][] = [
    ['host = "0.0.0.0"', "host", "0.0.0.0"],
    ['data_dir = "/srv/pawl"', "dataDir", "/srv/pawl"],
    ['queue_url = "postgres://db/pawl"', "queueUrl", "postgres://db/pawl"],
    ['temp_dir = "/scratch"', "tempDir", "/scratch"],
    ['isolation = "uid"', "isolation", "uid"],
    ["port = 9200", "port", 9200],
    ["workers = 5", "workers", 5],
    ["lease_seconds = 30", "leaseSeconds", 30],
    ["git_stall_seconds = 90", "gitStallSeconds", 90],
    ["max_body_bytes = 1024", "maxBodyBytes", 1024],
    ["shutdown_grace_seconds = 0", "shutdownGraceSeconds", 0],
  ];
  for (const [line, field, value] of table) {
    await t.step(line, () => {
      const config = resolveServeConfig({
        flags: {},
        env: SECRET,
        file: { path: "serve.toml", text: `${line}\n` },
      });
      assert.deepEqual(config[field], value);
    });
  }
});

Deno.test("resolveServeConfig() has defaults for one machine", () => {
  const config = resolveServeConfig({ flags: {}, env: SECRET });
  assert.equal(config.host, "127.0.0.1");
  assert.equal(config.port, 8080);
  assert.equal(config.queueUrl, undefined);
  assert.equal(config.appId, undefined);
  assert.equal(config.apiUrl, "https://api.github.com");
  assert.equal(config.isolation, "auto");
  assert.equal(config.dataDir, "./pawl-data");
  assert.equal(config.workers, 2);
  assert.equal(config.tempDir, undefined);
  assert.equal(config.token, undefined);
  assert.equal(
    config.maxBodyBytes,
    26_214_400,
    "25 MiB, as docs/serve.md says",
  );
});

Deno.test("resolveServeConfig() reads secrets from files named by variables or keys", () => {
  const config = resolveServeConfig({
    flags: {},
    env: {
      PAWL_SERVE_WEBHOOK_SECRET_FILE: "/run/secret",
      PAWL_SERVE_APP_ID: "12",
    },
    file: { path: "serve.toml", text: 'private_key_file = "/run/key.pem"\n' },
  });
  assert.deepEqual(config.webhookSecret, {
    kind: "file",
    path: "/run/secret",
    from: "PAWL_SERVE_WEBHOOK_SECRET_FILE",
  });
  assert.equal(config.privateKey?.kind, "file");
  assert.equal(config.appId, 12);
});

Deno.test("resolveServeConfig() refuses what it cannot use, naming where it came from", async (t) => {
  const cases: [string, Parameters<typeof resolveServeConfig>[0], RegExp][] = [
    ["no webhook secret", { flags: {}, env: {} }, /webhook secret/],
    ["an App id without a key", {
      flags: {},
      env: { ...SECRET, PAWL_SERVE_APP_ID: "5" },
    }, /private key/],
    ["a key without an App id", {
      flags: {},
      env: { ...SECRET, PAWL_SERVE_PRIVATE_KEY: "pem" },
    }, /PAWL_SERVE_APP_ID/],
    [
      "a bad port",
      { flags: { port: "http" }, env: SECRET },
      /Bad value "http" for --port/,
    ],
    ["a bad worker count", {
      flags: {},
      env: { ...SECRET, PAWL_SERVE_WORKERS: "0" },
    }, /PAWL_SERVE_WORKERS/],
    [
      "an unknown key in the file",
      {
        flags: {},
        env: SECRET,
        file: { path: "serve.toml", text: "# pawl serve\n\nwrokers = 2\n" },
      },
      /^Cannot read serve config "serve\.toml": unknown key "wrokers" at line 3: /,
    ],
    [
      "a wrong type in the file",
      {
        flags: {},
        env: SECRET,
        file: { path: "serve.toml", text: 'workers = 2\nport = "x"\n' },
      },
      /^Cannot read serve config "serve\.toml": bad value for key "port" at line 2: /,
    ],
    ["a wrong type after a multi-line string, at its line", {
      flags: {},
      env: SECRET,
      file: {
        path: "serve.toml",
        text: 'host = """\nport = 1\n"""\nport = "x"\n',
      },
    }, /"serve\.toml": bad value for key "port" at line 4: /],
    ["a table where a value belongs", {
      flags: {},
      env: SECRET,
      file: { path: "serve.toml", text: 'host = "h"\n[port]\nn = 1\n' },
    }, /"serve\.toml": bad value for key "port" at line 2: /],
    ["a queue URL that is not PostgreSQL", {
      flags: { "queue-url": "mysql://x" },
      env: SECRET,
    }, /--queue-url/],
    [
      "a database password in the --queue-url flag",
      {
        flags: { "queue-url": "postgres://pawl:hunter2@db/pawl" },
        env: SECRET,
      },
      /Cannot take the database password from --queue-url: .*PAWL_SERVE_QUEUE_PASSWORD_FILE/,
    ],
    ["a database password without a queue", {
      flags: {},
      env: { ...SECRET, PAWL_SERVE_QUEUE_PASSWORD_FILE: "/run/db" },
    }, /PAWL_SERVE_QUEUE_PASSWORD_FILE is set but there is no queue URL/],
    ["a database password for a URL without a user", {
      flags: { "queue-url": "postgres://db/pawl" },
      env: { ...SECRET, PAWL_SERVE_QUEUE_PASSWORD: "x" },
    }, /names no user/],
    [
      "an unknown isolation",
      {
        flags: {},
        env: { ...SECRET, PAWL_SERVE_ISOLATION: "vm" },
      },
      /^Unknown isolation "vm" in PAWL_SERVE_ISOLATION: expected one of auto, bwrap, unshare, uid, none$/,
    ],
    [
      "two unknown keys in the file, named together",
      {
        flags: {},
        env: SECRET,
        file: { path: "serve.toml", text: "wrokers = 2\nprot = 80\n" },
      },
      /Cannot read serve config "serve\.toml": unknown key "wrokers, prot" at line 1: /,
    ],
    [
      "a file that is not TOML, at its line",
      {
        flags: {},
        env: SECRET,
        file: { path: "serve.toml", text: 'host = "0.0.0.0"\nport = \n' },
      },
      /^Cannot read serve config "serve\.toml": not valid TOML at line 2: Invalid TOML document: [^\n]*$/,
    ],
    [
      "a file nested past the TOML reader's depth, in one sentence without its full stop",
      {
        flags: {},
        env: SECRET,
        file: {
          path: "serve.toml",
          text: `\nport = ${"[".repeat(1100)}${"]".repeat(1100)}\n`,
        },
      },
      /^Cannot read serve config "serve\.toml": not valid TOML at line 2: Invalid TOML document: document contains excessively nested structures\. aborting$/,
    ],
  ];
  for (const [name, input, message] of cases) {
    await t.step(name, () => {
      assert.throws(
        () => resolveServeConfig(input),
        (e) => e instanceof ServeConfigError && message.test(e.message),
      );
    });
  }
});

Deno.test("resolveServeConfig() takes the database password from a variable, its _FILE or the file's key, never the URL flag", async (t) => {
  const url = { "queue-url": "postgres://pawl@db/pawl" };
  const cases: [string, Parameters<typeof resolveServeConfig>[0], unknown][] = [
    ["PAWL_SERVE_QUEUE_PASSWORD_FILE", {
      flags: url,
      env: { ...SECRET, PAWL_SERVE_QUEUE_PASSWORD_FILE: "/run/secrets/db" },
    }, {
      kind: "file",
      path: "/run/secrets/db",
      from: "PAWL_SERVE_QUEUE_PASSWORD_FILE",
    }],
    ["PAWL_SERVE_QUEUE_PASSWORD", {
      flags: url,
      env: { ...SECRET, PAWL_SERVE_QUEUE_PASSWORD: "pw" },
    }, { kind: "value", value: "pw", from: "PAWL_SERVE_QUEUE_PASSWORD" }],
    ["queue_password_file in the config file", {
      flags: {},
      env: SECRET,
      file: {
        path: "serve.toml",
        text:
          'queue_url = "postgres://pawl@db/pawl"\nqueue_password_file = "/run/db"\n',
      },
    }, {
      kind: "file",
      path: "/run/db",
      from: '"queue_password_file" in "serve.toml"',
    }],
  ];
  for (const [name, input, expected] of cases) {
    await t.step(name, () => {
      assert.deepEqual(resolveServeConfig(input).queuePassword, expected);
    });
  }
  await t.step(
    "a password in PAWL_SERVE_QUEUE_URL itself is still taken",
    () => {
      const config = resolveServeConfig({
        flags: {},
        env: { ...SECRET, PAWL_SERVE_QUEUE_URL: "postgres://pawl:pw@db/pawl" },
      });
      assert.equal(config.queueUrl, "postgres://pawl:pw@db/pawl");
    },
  );
});

Deno.test("resolveServeConfig() defaults each PAWL_SERVE_ setting to the value docs/serve.md's table gives it", async () => {
  const docs = await Deno.readTextFile(
    new URL("../../docs/serve.md", import.meta.url),
  );
  const config = resolveServeConfig({ flags: {}, env: SECRET });
  // A row naming one variable and a default of one plain value: a number,
  // or a word in backticks. `PAWL_SERVE_LEASE_SECONDS` is `leaseSeconds`.
  const row =
    /^\| `PAWL_SERVE_([A-Z_]+)` +\|.*\(default (?:(\d+)|`([^`]+)`)\) *\|$/gm;
  const checked: string[] = [];
  for (const [, name, number, word] of docs.matchAll(row)) {
    const key = name!.toLowerCase().replace(/_(.)/g, (_, c) => c.toUpperCase());
    assert.ok(key in config, `docs/serve.md documents PAWL_SERVE_${name}`);
    assert.equal(
      config[key as keyof ServeConfig],
      number === undefined ? word : Number(number),
      `the default of PAWL_SERVE_${name}`,
    );
    checked.push(name!);
  }
  assert.deepEqual(checked, [
    "DATA_DIR",
    "WORKERS",
    "LEASE_SECONDS",
    "BACKOFF_SECONDS",
    "BACKOFF_MAX_SECONDS",
    "DEADLINE_SECONDS",
    "GIT_STALL_SECONDS",
    "MAX_BODY_BYTES",
    "SHUTDOWN_GRACE_SECONDS",
    "ISOLATION",
  ]);
});

Deno.test("resolveServeConfig() reads how long jobs wait out outages, with defaults of hours, not seconds", async (t) => {
  await t.step("defaults", () => {
    const config = resolveServeConfig({ flags: {}, env: SECRET });
    assert.deepEqual(
      [
        config.backoffSeconds,
        config.backoffMaxSeconds,
        config.deadlineSeconds,
        config.gitStallSeconds,
      ],
      [5, 300, 7200, 60],
    );
  });
  await t.step("variables over the file", () => {
    const config = resolveServeConfig({
      flags: {},
      env: { ...SECRET, PAWL_SERVE_DEADLINE_SECONDS: "600" },
      file: {
        path: "serve.toml",
        text:
          "deadline_seconds = 900\nbackoff_max_seconds = 30\ngit_stall_seconds = 10\n",
      },
    });
    assert.equal(config.deadlineSeconds, 600);
    assert.equal(config.backoffMaxSeconds, 30);
    assert.equal(config.gitStallSeconds, 10);
  });
  await t.step("the retired max_attempts is an unknown key", () => {
    assert.throws(
      () =>
        resolveServeConfig({
          flags: {},
          env: SECRET,
          file: { path: "serve.toml", text: "max_attempts = 4\n" },
        }),
      /unknown key "max_attempts"/,
    );
  });
});

Deno.test("resolveServeConfig() takes each number up to its bound and refuses one past it", async (t) => {
  const cases: [string, Record<string, string>, boolean][] = [
    ["port 0 (any free port)", { PAWL_SERVE_PORT: "0" }, true],
    ["port 65535", { PAWL_SERVE_PORT: "65535" }, true],
    ["port 65536", { PAWL_SERVE_PORT: "65536" }, false],
    ["port -1", { PAWL_SERVE_PORT: "-1" }, false],
    ["one worker", { PAWL_SERVE_WORKERS: "1" }, true],
    ["1.5 workers", { PAWL_SERVE_WORKERS: "1.5" }, false],
    ["no shutdown grace", { PAWL_SERVE_SHUTDOWN_GRACE_SECONDS: "0" }, true],
    ["a negative shutdown grace", {
      PAWL_SERVE_SHUTDOWN_GRACE_SECONDS: "-1",
    }, false],
    ["a lease of half a second", { PAWL_SERVE_LEASE_SECONDS: "0.5" }, true],
    ["a lease of 0 seconds", { PAWL_SERVE_LEASE_SECONDS: "0" }, false],
    ["a deadline of 0 seconds", { PAWL_SERVE_DEADLINE_SECONDS: "0" }, false],
    ["a git stall of 1 second", { PAWL_SERVE_GIT_STALL_SECONDS: "1" }, true],
    ["a git stall of 1.5 seconds", {
      PAWL_SERVE_GIT_STALL_SECONDS: "1.5",
    }, false],
    ["a body limit of 0 bytes", { PAWL_SERVE_MAX_BODY_BYTES: "0" }, false],
    ["a body limit of 1 byte", { PAWL_SERVE_MAX_BODY_BYTES: "1" }, true],
    ["a backoff cap of half a second", {
      PAWL_SERVE_BACKOFF_MAX_SECONDS: "0.5",
    }, true],
    ["a backoff cap of 0 seconds", {
      PAWL_SERVE_BACKOFF_MAX_SECONDS: "0",
    }, false],
    ["a deadline of half a second", {
      PAWL_SERVE_DEADLINE_SECONDS: "0.5",
    }, true],
    ["App id 1", {
      PAWL_SERVE_APP_ID: "1",
      PAWL_SERVE_PRIVATE_KEY: "pem",
    }, true],
    ["App id 0", {
      PAWL_SERVE_APP_ID: "0",
      PAWL_SERVE_PRIVATE_KEY: "pem",
    }, false],
  ];
  for (const [name, env, taken] of cases) {
    await t.step(`${name} is ${taken ? "taken" : "refused"}`, () => {
      const input = { flags: {}, env: { ...SECRET, ...env } };
      if (taken) {
        resolveServeConfig(input);
      } else {
        const [key] = Object.keys(env);
        assert.throws(
          () => resolveServeConfig(input),
          (e) => e instanceof ServeConfigError && e.message.includes(key!),
        );
      }
    });
  }
});

Deno.test("resolveServeConfig() holds the file's numbers to the same bounds as the variables'", async (t) => {
  const cases: [string, boolean][] = [
    ["port = 0", true],
    ["port = 65535", true],
    ["port = 65536", false],
    ["workers = 1", true],
    ["workers = 0", false],
    ["workers = 256", true],
    ["workers = 257", false],
    ["lease_seconds = 0", false],
    ["backoff_seconds = 0", false],
    ["git_stall_seconds = 1.5", false],
    ["max_body_bytes = 1.5", false],
    ["shutdown_grace_seconds = 0", true],
    ["shutdown_grace_seconds = -1", false],
    ['data_dir = "d"', true],
    ['data_dir = ""', false],
    ['temp_dir = "t"', true],
    ['temp_dir = ""', false],
    ['host = "h"', true],
    ['host = ""', false],
    ['signing_key_file = ""', false],
    ['webhook_secret_file = ""', false],
    ['app_id = 0\nprivate_key_file = "/run/key.pem"', false],
    ['app_id = 1\nprivate_key_file = "/run/key.pem"', true],
  ];
  for (const [text, taken] of cases) {
    await t.step(`${text} is ${taken ? "taken" : "refused"}`, () => {
      const input = { flags: {}, env: SECRET, file: { path: "s.toml", text } };
      if (taken) {
        resolveServeConfig(input);
      } else {
        const key = text.split(" ")[0]!;
        assert.throws(
          () => resolveServeConfig(input),
          (e) =>
            e instanceof ServeConfigError &&
            e.message.includes(`"s.toml": bad value for key "${key}"`),
        );
      }
    });
  }
});

Deno.test("resolveServeConfig() refuses a number no setting can hold, naming the variable", async (t) => {
  const cases: [string, string][] = [
    ["PAWL_SERVE_LEASE_SECONDS", "Infinity"],
    ["PAWL_SERVE_BACKOFF_SECONDS", "0"],
    ["PAWL_SERVE_BACKOFF_MAX_SECONDS", "0"],
    ["PAWL_SERVE_GIT_STALL_SECONDS", "0"],
    ["PAWL_SERVE_MAX_BODY_BYTES", "1.5"],
    ["PAWL_SERVE_PORT", "80.5"],
    ["PAWL_SERVE_APP_ID", "0"],
    ["PAWL_SERVE_APP_ID", "1.5"],
    ["PAWL_SERVE_APP_ID", "1e20"],
  ];
  for (const [variable, value] of cases) {
    await t.step(`${variable}=${value}`, () => {
      assert.throws(
        () =>
          resolveServeConfig({
            flags: {},
            env: {
              ...SECRET,
              PAWL_SERVE_PRIVATE_KEY: "pem",
              [variable]: value,
            },
          }),
        (e) =>
          e instanceof ServeConfigError &&
          e.message === `Bad value "${value}" for ${variable}`,
      );
    });
  }
});

Deno.test("resolveServeConfig() treats an empty flag or variable as not set", async (t) => {
  await t.step("an empty flag gives way to the variable", () => {
    const config = resolveServeConfig({
      flags: { port: "" },
      env: { ...SECRET, PAWL_SERVE_PORT: "9100" },
    });
    assert.equal(config.port, 9100);
  });
  await t.step("an empty variable gives way to the file", () => {
    const config = resolveServeConfig({
      flags: {},
      env: { ...SECRET, PAWL_SERVE_HOST: "" },
      file: { path: "s.toml", text: 'host = "0.0.0.0"\n' },
    });
    assert.equal(config.host, "0.0.0.0");
  });
  await t.step("an empty secret gives way to its _FILE", () => {
    const config = resolveServeConfig({
      flags: {},
      env: {
        PAWL_SERVE_WEBHOOK_SECRET: "",
        PAWL_SERVE_WEBHOOK_SECRET_FILE: "/run/secret",
      },
    });
    assert.deepEqual(config.webhookSecret, {
      kind: "file",
      path: "/run/secret",
      from: "PAWL_SERVE_WEBHOOK_SECRET_FILE",
    });
  });
  await t.step("an empty _FILE gives way to the file's key", () => {
    const config = resolveServeConfig({
      flags: {},
      env: { PAWL_SERVE_WEBHOOK_SECRET_FILE: "" },
      file: { path: "s.toml", text: 'webhook_secret_file = "/run/hook"\n' },
    });
    assert.deepEqual(config.webhookSecret, {
      kind: "file",
      path: "/run/hook",
      from: '"webhook_secret_file" in "s.toml"',
    });
  });
});

Deno.test("resolveServeConfig() reads the isolation and API root from the file, without a trailing slash", () => {
  const config = resolveServeConfig({
    flags: {},
    env: SECRET,
    file: {
      path: "s.toml",
      text: 'isolation = "bwrap"\napi_url = "https://ghe.example/api/v3//"\n',
    },
  });
  assert.equal(config.isolation, "bwrap");
  assert.equal(config.apiUrl, "https://ghe.example/api/v3");
});

Deno.test("resolveServeConfig() takes only PostgreSQL queue URLs, with a user when a password is set apart", async (t) => {
  const cases: [
    string,
    Parameters<typeof resolveServeConfig>[0],
    RegExp | undefined,
  ][] = [
    ["postgresql://", {
      flags: { "queue-url": "postgresql://pawl@db/pawl" },
      env: SECRET,
    }, undefined],
    ["a scheme that only ends in postgres://", {
      flags: { "queue-url": "jdbc:postgres://db/pawl" },
      env: SECRET,
    }, /^Unknown queue URL scheme in --queue-url: expected postgres:\/\/…$/],
    ["a file's queue_url of another scheme", {
      flags: {},
      env: SECRET,
      file: { path: "s.toml", text: 'queue_url = "mysql://db/pawl"\n' },
    }, /^Unknown queue URL scheme in queue_url: /],
    ["an empty user with a password set apart", {
      flags: { "queue-url": "postgres://@db/pawl" },
      env: { ...SECRET, PAWL_SERVE_QUEUE_PASSWORD: "pw" },
    }, /names no user/],
    ["a user only in the query, with a password set apart", {
      flags: { "queue-url": "postgres://db/pawl?options=x://y@z" },
      env: { ...SECRET, PAWL_SERVE_QUEUE_PASSWORD: "pw" },
    }, /names no user/],
    ["a user and no password in a flag URL could not parse", {
      flags: { "queue-url": "postgres://pawl@db:x/pawl" },
      env: SECRET,
    }, undefined],
    ["a variable's queue URL of another scheme", {
      flags: {},
      env: { ...SECRET, PAWL_SERVE_QUEUE_URL: "mysql://db/pawl" },
    }, /^Unknown queue URL scheme in PAWL_SERVE_QUEUE_URL: /],
    ["a user and password only in the query of a flag URL could not parse", {
      flags: { "queue-url": "postgres://db:x/pawl?application_name=a://b:c@d" },
      env: SECRET,
    }, undefined],
    ["a password in a flag URL could not parse", {
      flags: { "queue-url": "postgres://pawl:pw@db:x/pawl" },
      env: SECRET,
    }, /^Cannot take the database password from --queue-url/],
  ];
  for (const [name, input, refused] of cases) {
    await t.step(`${name} is ${refused ? "refused" : "taken"}`, () => {
      if (refused === undefined) {
        resolveServeConfig(input);
      } else {
        assert.throws(
          () => resolveServeConfig(input),
          (e) => e instanceof ServeConfigError && refused.test(e.message),
        );
      }
    });
  }
});

Deno.test("resolveServeConfig() takes each flag and variable for its setting", async (t) => {
  const cases: [
    string,
    Parameters<typeof resolveServeConfig>[0]["flags"],
    Record<string, string>,
    keyof ServeConfig,
    unknown,
  ][] = [
    [
      "--host over PAWL_SERVE_HOST",
      { host: "10.0.0.1" },
      {
        PAWL_SERVE_HOST: "10.0.0.2",
      },
      "host",
      "10.0.0.1",
    ],
    [
      "PAWL_SERVE_HOST",
      {},
      { PAWL_SERVE_HOST: "10.0.0.2" },
      "host",
      "10.0.0.2",
    ],
    [
      "--data-dir over PAWL_SERVE_DATA_DIR",
      { "data-dir": "/srv/flag" },
      {
        PAWL_SERVE_DATA_DIR: "/srv/env",
      },
      "dataDir",
      "/srv/flag",
    ],
    [
      "PAWL_SERVE_DATA_DIR",
      {},
      { PAWL_SERVE_DATA_DIR: "/srv/env" },
      "dataDir",
      "/srv/env",
    ],
    [
      "--queue-url over PAWL_SERVE_QUEUE_URL",
      {
        "queue-url": "postgres://flag/pawl",
      },
      { PAWL_SERVE_QUEUE_URL: "postgres://env/pawl" },
      "queueUrl",
      "postgres://flag/pawl",
    ],
    [
      "--workers over PAWL_SERVE_WORKERS",
      { workers: "4" },
      {
        PAWL_SERVE_WORKERS: "6",
      },
      "workers",
      4,
    ],
    [
      "PAWL_SERVE_LEASE_SECONDS",
      {},
      { PAWL_SERVE_LEASE_SECONDS: "45" },
      "leaseSeconds",
      45,
    ],
    [
      "PAWL_SERVE_BACKOFF_SECONDS",
      {},
      { PAWL_SERVE_BACKOFF_SECONDS: "0.5" },
      "backoffSeconds",
      0.5,
    ],
    [
      "PAWL_SERVE_BACKOFF_MAX_SECONDS",
      {},
      {
        PAWL_SERVE_BACKOFF_MAX_SECONDS: "600",
      },
      "backoffMaxSeconds",
      600,
    ],
    [
      "PAWL_SERVE_GIT_STALL_SECONDS",
      {},
      {
        PAWL_SERVE_GIT_STALL_SECONDS: "30",
      },
      "gitStallSeconds",
      30,
    ],
    [
      "PAWL_SERVE_MAX_BODY_BYTES",
      {},
      {
        PAWL_SERVE_MAX_BODY_BYTES: "1048576",
      },
      "maxBodyBytes",
      1048576,
    ],
    [
      "PAWL_SERVE_SHUTDOWN_GRACE_SECONDS",
      {},
      {
        PAWL_SERVE_SHUTDOWN_GRACE_SECONDS: "5",
      },
      "shutdownGraceSeconds",
      5,
    ],
    [
      "GITHUB_API_URL, without a trailing slash",
      {},
      {
        GITHUB_API_URL: "https://ghe.example/api/v3/",
      },
      "apiUrl",
      "https://ghe.example/api/v3",
    ],
    [
      "PAWL_SERVE_TEMP_DIR",
      {},
      { PAWL_SERVE_TEMP_DIR: "/scratch" },
      "tempDir",
      "/scratch",
    ],
    [
      "PAWL_SERVE_ISOLATION",
      {},
      { PAWL_SERVE_ISOLATION: "none" },
      "isolation",
      "none",
    ],
  ];
  for (const [name, flags, env, field, value] of cases) {
    await t.step(name, () => {
      const config = resolveServeConfig({ flags, env: { ...SECRET, ...env } });
      assert.deepEqual(config[field], value);
    });
  }
});

Deno.test("resolveServeConfig() reads the signing key from PAWL_SIGNING_KEY, its _FILE or signing_key_file", async (t) => {
  const cases: [string, Parameters<typeof resolveServeConfig>[0], unknown][] = [
    ["PAWL_SIGNING_KEY", {
      flags: {},
      env: { ...SECRET, PAWL_SIGNING_KEY: "pem" },
    }, { kind: "value", value: "pem", from: "PAWL_SIGNING_KEY" }],
    ["PAWL_SIGNING_KEY_FILE", {
      flags: {},
      env: { ...SECRET, PAWL_SIGNING_KEY_FILE: "/run/sign.pem" },
    }, { kind: "file", path: "/run/sign.pem", from: "PAWL_SIGNING_KEY_FILE" }],
    ["signing_key_file in the config file", {
      flags: {},
      env: SECRET,
      file: { path: "s.toml", text: 'signing_key_file = "/run/sign.pem"\n' },
    }, {
      kind: "file",
      path: "/run/sign.pem",
      from: '"signing_key_file" in "s.toml"',
    }],
    ["none", { flags: {}, env: SECRET }, undefined],
  ];
  for (const [name, input, expected] of cases) {
    await t.step(name, () => {
      assert.deepEqual(resolveServeConfig(input).signingKey, expected);
    });
  }
});
