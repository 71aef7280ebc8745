import assert from "node:assert/strict";
import { UsageError } from "./parse_command_args.ts";
import { buildVerdict } from "../core/verdict.ts";
import { generateKeyPair } from "../sign/generate_key_pair.ts";
import { signTestResult } from "../sign/sign_test_result.ts";
import { signVerdict } from "../sign/sign_verdict.ts";
import { readSigningKey } from "../sign/signing_key.ts";
import type { CliIo } from "./cli_io.ts";
import { VERIFY_EXIT, verifyCommand } from "./verify_command.ts";

const HEAD = "ab".repeat(20);

function captureIo(): CliIo & { stdout: string[]; stderr: string[] } {
  const stdout: string[] = [];
  const stderr: string[] = [];
  return {
    out: (text) => stdout.push(text),
    err: (text) => stderr.push(text),
    env: {},
    terminal: false,
    stdout,
    stderr,
  };
}

/**
 * A directory with pawl.pub, other.pub, a signed verdict.dsse.json and the
 * same verdict as a signed test-result.dsse.json.
 */
async function signedFiles(): Promise<{ dir: string } & AsyncDisposable> {
  const dir = await Deno.makeTempDir({ prefix: "pawl_verify_" });
  const pair = await generateKeyPair();
  const key = await readSigningKey(pair.privateKeyPem, "pawl.key");
  const verdict = buildVerdict([], {
    pawl: { version: "0.1.0" },
    now: "2026-11-30T12:00:00Z",
    repo: "https://example.com/r\u001b[2J.git",
    base: "cd".repeat(20),
    head: HEAD,
    contract: { layouts: [], files: [], digest: "", freezeBodyHashes: [] },
    options: { allowFixtureRotate: false, isolation: "auto" },
    isolation: null,
    tests: null,
  });
  await Deno.writeTextFile(`${dir}/pawl.pub`, pair.publicKeyPem);
  await Deno.writeTextFile(
    `${dir}/other.pub`,
    (await generateKeyPair()).publicKeyPem,
  );
  await Deno.writeTextFile(
    `${dir}/verdict.dsse.json`,
    JSON.stringify(await signVerdict(verdict, key), null, 2) + "\n",
  );
  const tested = {
    ...verdict,
    tests: {
      summary: {
        total: 1,
        passed: 1,
        failed: 0,
        errors: 0,
        skipped: 0,
        xfailed: 0,
      },
      properties: [],
      reruns: [],
      seeds: { fresh: 1, trials: null, replays: [] },
    },
  };
  await Deno.writeTextFile(
    `${dir}/test-result.dsse.json`,
    JSON.stringify(await signTestResult(tested, key), null, 2) + "\n",
  );
  return {
    dir,
    async [Symbol.asyncDispose]() {
      await Deno.remove(dir, { recursive: true });
    },
  };
}

Deno.test("verifyCommand() prints the verified decision and exits 0", async () => {
  await using files = await signedFiles();
  const io = captureIo();
  const code = await verifyCommand([
    "--key",
    `${files.dir}/pawl.pub`,
    "--envelope",
    `${files.dir}/verdict.dsse.json`,
    "--head",
    HEAD,
  ], io);
  assert.equal(code, VERIFY_EXIT.valid, io.stderr.join(""));
  const out = io.stdout.join("");
  assert.match(out, /^VALID {2}signed verdict: ACCEPT\n/);
  assert.match(out, new RegExp(`head {6}${HEAD}\n`));
  assert.match(out, /now {7}2026-11-30T12:00:00Z\n/);
  assert.match(out, /findings {2}0 \(0 blocking\)\n/);
  // Control characters in signed text are escaped, not sent to the terminal.
  assert.match(out, /repo {6}"https:\/\/example\.com\/r\\u001b\[2J\.git"\n/);
  assert.deepEqual(io.stderr, []);
});

Deno.test("verifyCommand() verifies pawl's test-result statement too and says which kind it verified", async (t) => {
  await using files = await signedFiles();
  const cases: [string, RegExp, string][] = [
    ["verdict.dsse.json", /^VALID {2}signed verdict: ACCEPT\n/, "verdict"],
    [
      "test-result.dsse.json",
      /^VALID {2}signed test result \(in-toto test-result statement\): ACCEPT\n/,
      "test-result",
    ],
  ];
  for (const [file, line, kind] of cases) {
    await t.step(file, async () => {
      const args = [
        "--key",
        `${files.dir}/pawl.pub`,
        "--envelope",
        `${files.dir}/${file}`,
        "--head",
        HEAD,
      ];
      const io = captureIo();
      assert.equal(await verifyCommand(args, io), VERIFY_EXIT.valid);
      assert.match(io.stdout.join(""), line);
      assert.match(io.stdout.join(""), new RegExp(`head {6}${HEAD}\n`));
      const json = captureIo();
      await verifyCommand([...args, "--json"], json);
      assert.equal(JSON.parse(json.stdout.join("")).kind, kind);
    });
  }
});

Deno.test("verifyCommand() --json prints the result for machines", async () => {
  await using files = await signedFiles();
  const io = captureIo();
  await verifyCommand([
    "--key",
    `${files.dir}/pawl.pub`,
    "--envelope",
    `${files.dir}/verdict.dsse.json`,
    "--json",
  ], io);
  const result = JSON.parse(io.stdout.join(""));
  assert.equal(result.valid, true);
  assert.equal(result.decision, "accept");
  assert.equal(result.head, HEAD);
  assert.match(result.keyid, /^SHA256:/);
});

Deno.test("verifyCommand() exits 1 with the reason when the envelope is not valid", async (t) => {
  await using files = await signedFiles();
  const envelope = `${files.dir}/verdict.dsse.json`;
  await Deno.writeTextFile(`${files.dir}/bad.json`, "{ not json");
  await Deno.writeFile(
    `${files.dir}/latin1.json`,
    new Uint8Array([0x7b, 0xff, 0x7d]),
  );
  const cases: [string, string[], RegExp][] = [
    [
      "another key",
      ["--key", `${files.dir}/other.pub`, "--envelope", envelope],
      /INVALID: Envelope ".*verdict\.dsse\.json" is signed by keyid "SHA256:.*", not by key ".*other\.pub"/,
    ],
    [
      "another head",
      [
        "--key",
        `${files.dir}/pawl.pub`,
        "--envelope",
        envelope,
        "--head",
        "ef".repeat(20),
      ],
      /INVALID: Envelope ".*" is a verdict on head "(ab){20}", not on "(ef){20}"/,
    ],
    [
      "not JSON",
      ["--key", `${files.dir}/pawl.pub`, "--envelope", `${files.dir}/bad.json`],
      /INVALID: Envelope ".*bad\.json" is not JSON/,
    ],
    [
      "not UTF-8",
      [
        "--key",
        `${files.dir}/pawl.pub`,
        "--envelope",
        `${files.dir}/latin1.json`,
      ],
      /INVALID: Envelope ".*latin1\.json" is not UTF-8 text/,
    ],
    [
      "the envelope given as the key",
      ["--key", envelope, "--envelope", envelope],
      /INVALID: Cannot read public key ".*": not PEM/,
    ],
  ];
  for (const [name, args, message] of cases) {
    await t.step(name, async () => {
      const io = captureIo();
      assert.equal(await verifyCommand(args, io), VERIFY_EXIT.invalid);
      assert.match(io.stderr.join(""), message);
      assert.deepEqual(io.stdout, []);
    });
  }
});

Deno.test("verifyCommand() throws (exit 2) when a file cannot be read or the command line is wrong", async (t) => {
  await using files = await signedFiles();
  const envelope = `${files.dir}/verdict.dsse.json`;
  const cases: [string, string[], RegExp][] = [
    [
      "a missing envelope",
      ["--key", `${files.dir}/pawl.pub`, "--envelope", `${files.dir}/nope`],
      /^Cannot read envelope ".*nope": /,
    ],
    [
      "a missing key",
      ["--key", `${files.dir}/nope.pub`, "--envelope", envelope],
      /^Cannot read public key ".*nope\.pub": /,
    ],
    [
      "a directory as the envelope",
      ["--key", `${files.dir}/pawl.pub`, "--envelope", files.dir],
      /^Cannot read envelope ".*": /,
    ],
    ["no --key", ["--envelope", envelope], /Missing required option "--key"/],
    [
      "an abbreviated --head",
      [
        "--key",
        `${files.dir}/pawl.pub`,
        "--envelope",
        envelope,
        "--head",
        "abab",
      ],
      /Cannot verify against head "abab": "--head" takes a full commit id/,
    ],
  ];
  for (const [name, args, message] of cases) {
    await t.step(name, async () => {
      await assert.rejects(verifyCommand(args, captureIo()), (error) => {
        assert.ok(error instanceof UsageError, String(error));
        assert.match((error as Error).message, message);
        return true;
      });
    });
  }
});
