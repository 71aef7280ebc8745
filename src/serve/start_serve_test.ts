import assert from "node:assert/strict";
import { startTestPostgres } from "../../tests/_postgres.ts";
import { resolveServeConfig } from "./serve_config.ts";
import { startServe } from "./start_serve.ts";

const PASSWORD = "queue p@ss:word/1";

Deno.test("startServe() logs in to PostgreSQL with the password from PAWL_SERVE_QUEUE_PASSWORD_FILE, never showing it", async () => {
  await using pg = await startTestPostgres({ password: PASSWORD });
  const dir = await Deno.makeTempDir({ prefix: "pawl-start-serve-" });
  const start = async (password: string) => {
    await Deno.writeTextFile(`${dir}/db-password`, `${password}\n`);
    const lines: string[] = [];
    const config = resolveServeConfig({
      flags: { port: "0", "queue-url": pg.url },
      env: {
        PAWL_SERVE_WEBHOOK_SECRET: "webhook-secret-for-tests",
        PAWL_SERVE_DATA_DIR: `${dir}/data`,
        PAWL_SERVE_QUEUE_PASSWORD_FILE: `${dir}/db-password`,
      },
    });
    const server = await startServe(config, {
      judge: () => Promise.reject(new Error("not in this test")),
      publish: () => Promise.resolve(),
      write: (line) => lines.push(line),
    });
    return { server, lines };
  };
  try {
    await assert.rejects(start("wrong"), /password authentication failed/);
    const { server, lines } = await start(PASSWORD);
    try {
      const ready = await fetch(`http://127.0.0.1:${server.port}/readyz`);
      assert.equal(ready.status, 200, await ready.text());
      assert.ok(await server.queue.ping());
    } finally {
      await server.shutdown();
    }
    assert.ok(lines.some((l) => l.includes('"queue":"postgres"')));
    assert.ok(!lines.join("").includes("p@ss"), lines.join(""));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
