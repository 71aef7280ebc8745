import assert from "node:assert/strict";
import { queueUrlWithPassword } from "./queue_url_with_password.ts";

Deno.test("queueUrlWithPassword() puts the password in the URL, encoded, in place of any it held", async (t) => {
  const cases: [string, string, string, string][] = [
    [
      "a URL without a password",
      "postgres://pawl@db:5432/pawl",
      "secret",
      "postgres://pawl:secret@db:5432/pawl",
    ],
    [
      "characters a URL reserves",
      "postgres://pawl@db/pawl",
      "p@ss:w/rd?#",
      "postgres://pawl:p%40ss%3Aw%2Frd%3F%23@db/pawl",
    ],
    [
      "a password the URL already held",
      "postgres://pawl:old@db/pawl?sslmode=require",
      "new",
      "postgres://pawl:new@db/pawl?sslmode=require",
    ],
  ];
  for (const [name, url, password, want] of cases) {
    await t.step(name, () => {
      assert.equal(queueUrlWithPassword(url, password), want);
    });
  }
});

Deno.test("queueUrlWithPassword() refuses a URL that names no user, saying what it expects", () => {
  assert.throws(
    () => queueUrlWithPassword("postgres://db:5432/pawl", "secret"),
    (e: unknown) =>
      e instanceof TypeError &&
      /names no user \(expected postgres:\/\/USER@HOST\/DATABASE\)/.test(
        e.message,
      ),
  );
});
