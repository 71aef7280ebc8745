import assert from "node:assert/strict";
import { pae } from "./pae.ts";

const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
const bytes = (s: string) => new TextEncoder().encode(s);

Deno.test("pae() matches the DSSE specification's test vector", () => {
  assert.equal(
    text(pae("http://example.com/HelloWorld", bytes("hello world"))),
    "DSSEv1 29 http://example.com/HelloWorld 11 hello world",
  );
});

Deno.test("pae() counts bytes, not characters, and keeps the body's bytes", () => {
  const body = new Uint8Array([0xff, 0x00, 0x20]);
  const out = pae("tÿpe", body);
  assert.deepEqual(
    out,
    new Uint8Array([...bytes("DSSEv1 5 tÿpe 3 "), 0xff, 0x00, 0x20]),
  );
  assert.equal(text(pae("", new Uint8Array(0))), "DSSEv1 0  0 ");
});
