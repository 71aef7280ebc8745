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

Deno.test("encodePem() writes full lines of 64 characters", async (t) => {
  await t.step("48 bytes make exactly one line", () => {
    const pem = encodePem("X", new Uint8Array(48));
    assert.equal(
      pem,
      `-----BEGIN X-----\n${"A".repeat(64)}\n-----END X-----\n`,
    );
  });
  await t.step("49 bytes go on to a second line", () => {
    const pem = encodePem("X", new Uint8Array(49));
    assert.equal(
      pem,
      `-----BEGIN X-----\n${"A".repeat(64)}\nAA==\n-----END X-----\n`,
    );
  });
  await t.step("no bytes make an empty body", () => {
    assert.equal(
      encodePem("X", new Uint8Array(0)),
      "-----BEGIN X-----\n\n-----END X-----\n",
    );
  });
});

Deno.test("readPemBlock() says exactly what is wrong", async (t) => {
  const pem = encodePem("PUBLIC KEY", new Uint8Array([1, 2, 3]));
  const cases: [string, string, string, string][] = [
    ["no block", "hello", "PemError", 'not PEM: no "-----BEGIN" line'],
    [
      "three blocks",
      pem + pem + pem,
      "PemError",
      'not one PEM block: found 3 "BEGIN" lines',
    ],
    [
      "a BEGIN without an END",
      pem.slice(0, 40),
      "PemError",
      'not PEM: no complete "BEGIN" ... "END" block',
    ],
    [
      "a lower-case label",
      pem.replaceAll("PUBLIC KEY", "public key"),
      "PemError",
      'not PEM: no complete "BEGIN" ... "END" block',
    ],
    [
      "END labelled otherwise",
      pem.replace("END PUBLIC KEY", "END PRIVATE KEY"),
      "PemError",
      'not PEM: the "BEGIN" and "END" labels differ',
    ],
    [
      "an empty body",
      "-----BEGIN PUBLIC KEY-----\n\n-----END PUBLIC KEY-----\n",
      "PemError",
      "not PEM: the body is not valid base64",
    ],
    [
      "another label",
      encodePem("PRIVATE KEY", new Uint8Array([1])),
      "PemLabelError",
      "unexpected PEM label",
    ],
  ];
  for (const [name, text, errorName, message] of cases) {
    await t.step(name, () => {
      assert.throws(() => readPemBlock(text, "PUBLIC KEY"), {
        name: errorName,
        message,
      });
    });
  }
  await t.step(
    "spaces, tabs and line ends inside the body are not part of it",
    () => {
      const text =
        "-----BEGIN PUBLIC KEY-----\n A Q\tI\r\nD \n-----END PUBLIC KEY-----";
      assert.deepEqual(readPemBlock(text, "PUBLIC KEY"), {
        label: "PUBLIC KEY",
        der: new Uint8Array([1, 2, 3]),
      });
    },
  );
  await t.step("labels may hold digits", () => {
    const text = encodePem("X509 CRL", new Uint8Array([1, 2, 3]));
    assert.equal(readPemBlock(text, "X509 CRL").der.length, 3);
  });
});
