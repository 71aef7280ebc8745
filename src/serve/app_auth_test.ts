import assert from "node:assert/strict";
import { generateKeyPairSync } from "node:crypto";
import { startFakeGitHub } from "../../tests/_fake_github.ts";
import { type AppTokensOptions, createAppTokens } from "./app_auth.ts";

const keys = generateKeyPairSync("rsa", { modulusLength: 2048 });
/** GitHub hands out PKCS#1 keys ("BEGIN RSA PRIVATE KEY"). */
const PRIVATE_PEM = keys.privateKey.export({ type: "pkcs1", format: "pem" })
  .toString();
const PUBLIC_PEM = keys.publicKey.export({ type: "spki", format: "pem" })
  .toString();

/** The test App's tokens from `github`, with `options` on top. */
function appTokens(
  github: { url: string },
  options: Partial<AppTokensOptions> = {},
) {
  return createAppTokens({
    appId: 321,
    privateKey: PRIVATE_PEM,
    apiUrl: github.url,
    ...options,
  });
}

Deno.test("createAppTokens() trades the App's JWT for installation tokens and reuses each until shortly before it expires", async () => {
  await using github = startFakeGitHub({
    app: {
      id: 321,
      publicKeyPem: PUBLIC_PEM,
      installations: [1, 2],
      tokenTtlMs: 10 * 60_000,
    },
  });
  let now = Date.now();
  const tokens = appTokens(github, {
    renewBeforeMs: 5 * 60_000,
    clock: () => now,
  });
  const one = await tokens.get(1);
  assert.match(one, /^ghs_/);
  assert.equal(await tokens.get(1), one);
  const two = await tokens.get(2);
  assert.notEqual(two, one);
  assert.equal(github.issuedTokens.length, 2);
  now += 6 * 60_000;
  const renewed = await tokens.get(1);
  assert.notEqual(renewed, one);
  assert.equal(github.issuedTokens.length, 3);
  await assert.rejects(tokens.get(99));
});

Deno.test("createAppTokens() mints a new token once the cached one is forgotten, and only for that token", async () => {
  await using github = startFakeGitHub({
    app: { id: 321, publicKeyPem: PUBLIC_PEM, installations: [1] },
  });
  const tokens = appTokens(github);
  const one = await tokens.get(1);
  tokens.forget(1, "ghs_someone_else_renewed_already");
  assert.equal(await tokens.get(1), one);
  tokens.forget(1, one);
  const two = await tokens.get(1);
  assert.notEqual(two, one);
  assert.equal(github.issuedTokens.length, 2);
});

Deno.test("createAppTokens() asks GitHub once when several workers want a token at the same time, and tells of the token once", async () => {
  await using github = startFakeGitHub({
    app: { id: 321, publicKeyPem: PUBLIC_PEM, installations: [1] },
  });
  const issued: [string, number][] = [];
  const tokens = appTokens(github, {
    onToken: (token, installationId) => issued.push([token, installationId]),
  });
  const got = await Promise.all([tokens.get(1), tokens.get(1), tokens.get(1)]);
  assert.equal(new Set(got).size, 1);
  assert.equal(github.issuedTokens.length, 1);
  // Told once, so the token is masked and its issue logged once.
  assert.deepEqual(issued, [[got[0], 1]]);
});

Deno.test("the fake GitHub refuses a JWT signed with another key", async () => {
  const other = generateKeyPairSync("rsa", { modulusLength: 2048 });
  await using github = startFakeGitHub({
    app: { id: 321, publicKeyPem: PUBLIC_PEM, installations: [1] },
  });
  const tokens = createAppTokens({
    appId: 321,
    privateKey: other.privateKey.export({ type: "pkcs8", format: "pem" })
      .toString(),
    apiUrl: github.url,
  });
  await assert.rejects(tokens.get(1), /401|JSON web token/);
  assert.equal(github.issuedTokens.length, 0);
});

Deno.test("createAppTokens() takes an API root with trailing slashes, and renews a token five minutes before it expires by default, from the first millisecond of that window", async () => {
  await using github = startFakeGitHub({
    app: {
      id: 321,
      publicKeyPem: PUBLIC_PEM,
      installations: [1],
      tokenTtlMs: 10 * 60_000,
    },
  });
  let now = Date.now();
  const tokens = appTokens(github, {
    apiUrl: `${github.url}//`,
    clock: () => now,
  });
  const one = await tokens.get(1);
  // GitHub states the expiry to the second.
  const expiresAt = Math.floor(github.issuedTokens[0]!.expiresAt / 1000) *
    1000;
  now = expiresAt - 5 * 60_000 - 1;
  assert.equal(await tokens.get(1), one);
  now = expiresAt - 5 * 60_000;
  const renewed = await tokens.get(1);
  assert.notEqual(renewed, one);
  assert.equal(github.issuedTokens.length, 2);
});

Deno.test("createAppTokens() leaves retries to the worker pool: a failed token request is asked once and its error comes back at once, and each request names pawl", async () => {
  await using github = startFakeGitHub({
    app: { id: 321, publicKeyPem: PUBLIC_PEM, installations: [1] },
  });
  const tokens = appTokens(github);
  for (const status of [500, 502, 503]) {
    github.inject({ method: "POST", status, times: 5 });
    const before = github.requests.length;
    await assert.rejects(tokens.get(1), (e: Error & { status?: number }) => {
      assert.equal(e.status, status);
      return true;
    });
    assert.equal(github.requests.length - before, 1, `status ${status}`);
    github.clearInjections();
  }
  github.injectRateLimit({ method: "POST" }, 3600);
  const before = github.requests.length;
  await assert.rejects(tokens.get(1), (e: Error & { status?: number }) => {
    assert.equal(e.status, 403);
    return true;
  });
  assert.equal(github.requests.length - before, 1, "rate limited");
  github.clearInjections();
  assert.match(await tokens.get(1), /^ghs_/);
  assert.ok(github.requests.length > 0);
  for (const request of github.requests) {
    assert.match(request.headers["user-agent"] ?? "", /^pawl\/\d+\.\d+\.\d+ /);
  }
});

Deno.test("createAppTokens() forgets a token it no longer holds without complaint, as when two workers saw it refused", async () => {
  await using github = startFakeGitHub({
    app: { id: 321, publicKeyPem: PUBLIC_PEM, installations: [1] },
  });
  const tokens = appTokens(github);
  tokens.forget(1, "ghs_never_issued");
  const one = await tokens.get(1);
  tokens.forget(1, one);
  tokens.forget(1, one);
  tokens.forget(2, one);
  assert.notEqual(await tokens.get(1), one);
});

Deno.test("createAppTokens() writes nothing of its own to the console, whose lines are the server's JSON log, even when GitHub says an endpoint is deprecated", async () => {
  await using github = startFakeGitHub({
    app: { id: 321, publicKeyPem: PUBLIC_PEM, installations: [1] },
  });
  const tokens = appTokens(github);
  const expiresAt = new Date(Date.now() + 3600_000).toISOString();
  github.inject({
    method: "POST",
    status: 201,
    headers: {
      deprecation: "Sat, 01 Jan 2028 00:00:00 GMT",
      sunset: "Sun, 01 Jan 2029 00:00:00 GMT",
    },
    body: { token: "ghs_deprecated_endpoint", expires_at: expiresAt },
  });
  github.inject({ method: "POST", status: 500, times: 1 });
  const written: unknown[][] = [];
  const saved = { ...console };
  for (const level of ["log", "debug", "info", "warn", "error"] as const) {
    // deno-lint-ignore no-console -- the test watches what reaches the console
    console[level] = (...args: unknown[]) => written.push(args);
  }
  try {
    assert.equal(await tokens.get(1), "ghs_deprecated_endpoint");
    tokens.forget(1, "ghs_deprecated_endpoint");
    await assert.rejects(tokens.get(1));
  } finally {
    Object.assign(console, saved);
  }
  assert.deepEqual(written, []);
});
