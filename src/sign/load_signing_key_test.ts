import assert from "node:assert/strict";
import { UsageError } from "../core/usage_error.ts";
import { loadSigningKey } from "./load_signing_key.ts";
import { SigningKeyError } from "./signing_key.ts";
import { RFC8032_KEYID, RFC8032_PRIVATE_PEM } from "./_testing.ts";

Deno.test("loadSigningKey() finds the key in the file, else in PAWL_SIGNING_KEY, else nowhere", async (t) => {
  const dir = await Deno.makeTempDir({ prefix: "pawl-load-key-" });
  try {
    const file = `${dir}/signing.key`;
    await Deno.writeTextFile(file, RFC8032_PRIVATE_PEM);
    const link = `${dir}/link.key`;
    await Deno.symlink(file, link);
    const real = await Deno.realPath(file);

    await t.step(
      "a key file is read, and its resolved path kept to hide from the sandbox",
      async () => {
        const loaded = await loadSigningKey(link, {});
        assert.equal(loaded?.key.keyid, RFC8032_KEYID);
        assert.equal(loaded?.path, real);
      },
    );
    await t.step("a key file wins over PAWL_SIGNING_KEY", async () => {
      const loaded = await loadSigningKey(file, {
        PAWL_SIGNING_KEY: "not a key",
      });
      assert.equal(loaded?.key.keyid, RFC8032_KEYID);
      assert.equal(loaded?.path, real);
    });
    await t.step(
      "PAWL_SIGNING_KEY is read when no file is given, with no path to hide",
      async () => {
        const loaded = await loadSigningKey(undefined, {
          PAWL_SIGNING_KEY: RFC8032_PRIVATE_PEM,
        });
        assert.equal(loaded?.key.keyid, RFC8032_KEYID);
        assert.ok(loaded !== undefined && "path" in loaded);
        assert.equal(loaded.path, undefined);
      },
    );
    await t.step("no file and no PAWL_SIGNING_KEY means no key", async () => {
      assert.equal(await loadSigningKey(undefined, {}), undefined);
      assert.equal(
        await loadSigningKey(undefined, { OTHER: RFC8032_PRIVATE_PEM }),
        undefined,
      );
    });
    await t.step("an empty PAWL_SIGNING_KEY means no key", async () => {
      assert.equal(
        await loadSigningKey(undefined, { PAWL_SIGNING_KEY: "" }),
        undefined,
      );
    });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("loadSigningKey() names where a key it cannot use came from", async (t) => {
  const dir = await Deno.makeTempDir({ prefix: "pawl-load-key-" });
  try {
    await t.step(
      "a missing key file is a usage error naming the file",
      async () => {
        const missing = `${dir}/missing.key`;
        await assert.rejects(
          loadSigningKey(missing, { PAWL_SIGNING_KEY: RFC8032_PRIVATE_PEM }),
          (error: unknown) =>
            error instanceof UsageError &&
            error.message.startsWith(
              `Cannot read signing key "${missing}": `,
            ) &&
            error.message.length >
              `Cannot read signing key "${missing}": `.length,
        );
      },
    );
    await t.step(
      "a key file that is not a key is named by its path",
      async () => {
        const file = `${dir}/bad.key`;
        await Deno.writeTextFile(file, "not a key");
        await assert.rejects(
          loadSigningKey(file, {}),
          (error: unknown) =>
            error instanceof SigningKeyError &&
            error.message.startsWith(`Cannot read signing key "${file}": `),
        );
      },
    );
    await t.step(
      "a PAWL_SIGNING_KEY that is not a key is named as the variable",
      async () => {
        await assert.rejects(
          loadSigningKey(undefined, { PAWL_SIGNING_KEY: "not a key" }),
          (error: unknown) =>
            error instanceof SigningKeyError &&
            error.message.startsWith(
              'Cannot read signing key "PAWL_SIGNING_KEY": ',
            ),
        );
      },
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
