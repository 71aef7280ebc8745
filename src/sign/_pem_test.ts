import assert from "node:assert/strict";
import { encodePem, PemError, PemLabelError, readPemBlock } from "./_pem.ts";

Deno.test("readPemBlock() reads what encodePem() writes, with text around it", () => {
  const der = crypto.getRandomValues(new Uint8Array(100));
  const pem = encodePem("PUBLIC KEY", der);
  assert.ok(pem.split("\n").every((line) => line.length <= 64));
  assert.deepEqual(
    readPemBlock(
      `Subject: test\r\n${pem.replaceAll("\n", "\r\n")}trailer`,
      "PUBLIC KEY",
    )
      .der,
    der,
  );
});

Deno.test("readPemBlock() rejects text that is not exactly one block", async (t) => {
  const pem = encodePem("PUBLIC KEY", new Uint8Array([1, 2, 3]));
  const cases: [string, string, RegExp][] = [
    ["no block", "hello", /no "-----BEGIN" line/],
    ["two blocks", pem + pem, /found 2 "BEGIN" lines/],
    ["no END", pem.slice(0, 40), /no complete/],
    [
      "mismatched labels",
      pem.replace("END PUBLIC KEY", "END PRIVATE KEY"),
      /labels differ/,
    ],
    [
      "a body that is not base64",
      pem.replace("AQID", "AQI*"),
      /not valid base64/,
    ],
  ];
  for (const [name, text, message] of cases) {
    await t.step(name, () => {
      assert.throws(() => readPemBlock(text, "PUBLIC KEY"), (error) => {
        assert.ok(error instanceof PemError);
        assert.match(error.message, message);
        return true;
      });
    });
  }
  await t.step("another label", () => {
    assert.throws(() => readPemBlock(pem, "PRIVATE KEY"), (error) => {
      assert.ok(error instanceof PemLabelError);
      assert.equal(error.label, "PUBLIC KEY");
      return true;
    });
  });
});
