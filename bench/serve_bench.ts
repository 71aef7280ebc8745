// deno-lint-ignore-file no-console
/**
 * `deno task bench serve`: webhook-to-verdict latency and judgements per
 * minute of `pawl serve` on the demo repository. The real server, queue,
 * App tokens, pipeline (clone over HTTP, pytest in the sandbox) and
 * publisher, against the fake GitHub on 127.0.0.1; one signed
 * `pull_request` delivery per demo patch, all at once.
 *
 * ```sh
 * deno task bench serve [--rounds 2] [--workers 1]
 * ```
 *
 * @module
 */
import { parseArgs } from "node:util";
import { buildSampleRepo } from "../src/demo/build_sample_repo.ts";
import { resolveServeConfig } from "../src/serve/serve_config.ts";
import { startServe } from "../src/serve/start_serve.ts";
import {
  makeBareRemote,
  sendWebhook,
  startFakeGitHub,
} from "../tests/_fake_github.ts";
import { makeAppKeys } from "../tests/_serve.ts";

const SECRET = "bench-webhook-secret-0123456789";

/** Run the benchmark with `args`. */
export async function serveBench(args: readonly string[]): Promise<void> {
  const { values } = parseArgs({
    args: [...args],
    options: {
      rounds: { type: "string", default: "2" },
      workers: { type: "string", default: "1" },
    },
  });
  const rounds = Number(values.rounds);
  const workers = Number(values.workers);
  const parent = await Deno.makeTempDir({ prefix: "pawl-serve-bench-" });
  try {
    await Deno.chmod(parent, 0o755);
    const sample = await buildSampleRepo(`${parent}/repo`);
    const pulls: Record<number, string> = {};
    sample.patches.forEach((p, i) => pulls[i + 1] = p.branch);
    await using remote = await makeBareRemote(sample.dir, pulls);
    const keys = makeAppKeys();
    await using gh = startFakeGitHub({
      app: { id: 1, publicKeyPem: keys.publicKeyPem, installations: [1] },
    });
    gh.addRepository("demo/invoices", {
      gitDir: remote.gitDir,
      cloneVia: "http",
    });
    const sha = async (rev: string) =>
      new TextDecoder().decode(
        (await new Deno.Command("git", {
          args: ["-C", sample.dir, "rev-parse", rev],
          stdout: "piped",
        }).output()).stdout,
      ).trim();
    const base = await sha("main");
    const serve = await startServe(
      resolveServeConfig({
        flags: {
          port: "0",
          "data-dir": `${parent}/data`,
          workers: String(workers),
        },
        env: {
          PAWL_SERVE_WEBHOOK_SECRET: SECRET,
          PAWL_SERVE_APP_ID: "1",
          PAWL_SERVE_PRIVATE_KEY: keys.privateKeyPem,
          GITHUB_API_URL: gh.url,
        },
      }),
      { write: () => {} },
    );
    const latencies: number[] = [];
    let judged = 0;
    const started = performance.now();
    try {
      for (let round = 0; round < rounds; round++) {
        const sent = new Map<string, number>();
        for (const [i, patch] of sample.patches.entries()) {
          const number = round * 100 + i + 1;
          const head = await sha(patch.branch);
          await remote.setRef(`refs/pull/${number}/head`, head);
          // Each round a new clock, so each round is a new judgement.
          gh.addPullRequest("demo/invoices", {
            number,
            baseSha: base,
            headSha: head,
            updatedAt: `2026-11-30T1${round}:00:00Z`,
          });
          sent.set(`${number}`, performance.now());
          const answer = await sendWebhook(
            `http://127.0.0.1:${serve.port}/`,
            gh.pullRequestEvent("demo/invoices", number, {
              action: "opened",
              installationId: 1,
            }),
            { secret: SECRET, event: "pull_request" },
          );
          if (answer.status !== 202) {
            throw new Error(`delivery refused: ${answer.status}`);
          }
        }
        const seen = new Set<number>();
        while (seen.size < sample.patches.length) {
          for (const comment of gh.comments) {
            if (seen.has(comment.id) || !sent.has(`${comment.issue}`)) {
              continue;
            }
            seen.add(comment.id);
            latencies.push(performance.now() - sent.get(`${comment.issue}`)!);
            judged++;
          }
          await new Promise((r) => setTimeout(r, 20));
        }
        gh.comments.length = 0;
      }
    } finally {
      await serve.shutdown();
    }
    const minutes = (performance.now() - started) / 60_000;
    latencies.sort((a, b) => a - b);
    const at = (q: number) =>
      latencies[
        Math.min(latencies.length - 1, Math.floor(q * latencies.length))
      ]!;
    console.log(
      `pawl serve on the demo repository: ${judged} judgements, ${workers} worker(s), ${rounds} round(s) of ${sample.patches.length} deliveries`,
    );
    console.log(
      `webhook to verdict: min ${(latencies[0]! / 1000).toFixed(2)} s, median ${
        (at(0.5) / 1000).toFixed(2)
      } s, max ${
        (latencies.at(-1)! / 1000).toFixed(2)
      } s (queued behind each other)`,
    );
    console.log(
      `throughput: ${(judged / minutes).toFixed(1)} judgements per minute`,
    );
  } finally {
    await Deno.remove(parent, { recursive: true }).catch(() => {});
  }
}
