import assert from "node:assert/strict";
import { UsageError } from "./parse_command_args.ts";
import { readPublicKey } from "../sign/public_key.ts";
import { readSigningKey } from "../sign/signing_key.ts";
import type { CliIo } from "./cli_io.ts";
import { keygenCommand } from "./keygen_command.ts";

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

async function withDir(fn: (dir: string) => Promise<void>): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "pawl_keygen_" });
  try {
    await fn(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("keygenCommand() writes a 0600 PKCS#8 key and its SPKI public key, and prints the keyid", async () => {
  await withDir(async (dir) => {
    const io = captureIo();
    assert.equal(await keygenCommand(["--out", `${dir}/pawl.key`], io), 0);
    const privateInfo = await Deno.stat(`${dir}/pawl.key`);
    assert.equal(privateInfo.mode! & 0o777, 0o600);
    const privatePem = await Deno.readTextFile(`${dir}/pawl.key`);
    const publicPem = await Deno.readTextFile(`${dir}/pawl.key.pub`);
    assert.match(privatePem, /^-----BEGIN PRIVATE KEY-----\n/);
    assert.match(publicPem, /^-----BEGIN PUBLIC KEY-----\n/);
    const signing = await readSigningKey(privatePem, "pawl.key");
    const verifying = await readPublicKey(publicPem, "pawl.key.pub");
    assert.equal(signing.publicKeyPem, publicPem);
    assert.deepEqual(io.stdout, [`${verifying.keyid}\n`]);
    assert.match(io.stderr.join(""), /Wrote private key ".*pawl\.key"/);
    assert.ok(!io.stderr.join("").includes(privatePem.split("\n")[1]!));
  });
});

Deno.test("keygenCommand() refuses to overwrite either file without --force", async () => {
  await withDir(async (dir) => {
    const key = `${dir}/pawl.key`;
    for (const existing of [key, `${key}.pub`]) {
      await Deno.writeTextFile(existing, "keep me\n");
      await assert.rejects(
        keygenCommand(["--out", key], captureIo()),
        (error: unknown) => {
          assert.ok(error instanceof UsageError);
          assert.equal(
            error.message,
            `Refusing to overwrite "${existing}": it exists; pass "--force" to replace it`,
          );
          return true;
        },
      );
      assert.equal(await Deno.readTextFile(existing), "keep me\n");
      const names = [];
      for await (const entry of Deno.readDir(dir)) names.push(entry.name);
      assert.deepEqual(names, [existing.slice(dir.length + 1)]);
      await Deno.remove(existing);
    }
  });
});

Deno.test("keygenCommand() never writes through a symlink", async () => {
  await withDir(async (dir) => {
    await Deno.writeTextFile(`${dir}/target`, "target\n");
    await Deno.symlink(`${dir}/target`, `${dir}/pawl.key`);
    await assert.rejects(
      keygenCommand(["--out", `${dir}/pawl.key`], captureIo()),
      UsageError,
    );
    assert.equal(await Deno.readTextFile(`${dir}/target`), "target\n");
    // With --force the link itself is replaced, not its target.
    assert.equal(
      await keygenCommand(["--out", `${dir}/pawl.key`, "--force"], captureIo()),
      0,
    );
    assert.equal(await Deno.readTextFile(`${dir}/target`), "target\n");
    assert.ok((await Deno.lstat(`${dir}/pawl.key`)).isFile);
  });
});

Deno.test("keygenCommand() --force replaces both files and tightens the key's mode", async () => {
  await withDir(async (dir) => {
    const key = `${dir}/pawl.key`;
    await Deno.writeTextFile(key, "old\n", { mode: 0o644 });
    await Deno.chmod(key, 0o644);
    await Deno.writeTextFile(`${dir}/trusted.pub`, "old\n");
    const io = captureIo();
    assert.equal(
      await keygenCommand(
        ["--out", key, "--out-public", `${dir}/trusted.pub`, "--force"],
        io,
      ),
      0,
    );
    assert.equal((await Deno.stat(key)).mode! & 0o777, 0o600);
    assert.equal((await Deno.stat(`${dir}/trusted.pub`)).mode! & 0o777, 0o644);
    const pub = await readPublicKey(
      await Deno.readTextFile(`${dir}/trusted.pub`),
      "trusted.pub",
    );
    assert.deepEqual(io.stdout, [`${pub.keyid}\n`]);
    const names = [];
    for await (const entry of Deno.readDir(dir)) names.push(entry.name);
    assert.deepEqual(names.sort(), ["pawl.key", "trusted.pub"]);
  });
});

Deno.test("keygenCommand() rejects a command line it cannot follow", async (t) => {
  const cases: [string, string[], RegExp][] = [
    ["no --out", [], /Missing required option "--out"/],
    ["an unknown option", ["--out", "k", "--bits", "4096"], /Unknown option/],
    [
      "both keys to one file",
      ["--out", "k", "--out-public", "k"],
      /Cannot write both keys to "k"/,
    ],
  ];
  for (const [name, args, message] of cases) {
    await t.step(name, async () => {
      await assert.rejects(keygenCommand(args, captureIo()), (error) => {
        assert.ok(error instanceof UsageError);
        assert.match((error as Error).message, message);
        return true;
      });
    });
  }
});
