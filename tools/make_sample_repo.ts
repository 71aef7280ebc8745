/**
 * Write the demo's sample repository to a directory, for trying pawl (or
 * its image) on a real repository: `main` plus one `agent/*` branch per
 * patch, `agent/honest-fix` the one that should be accepted.
 *
 *     deno run --allow-all tools/make_sample_repo.ts DIR
 *
 * @module
 */
import { buildSampleRepo } from "../src/demo/build_sample_repo.ts";

if (import.meta.main) {
  const dir = Deno.args[0];
  if (dir === undefined || Deno.args.length !== 1) {
    await Deno.stderr.write(
      new TextEncoder().encode(
        "Usage: deno run --allow-all tools/make_sample_repo.ts DIR\n",
      ),
    );
    Deno.exit(2);
  }
  const sample = await buildSampleRepo(dir);
  const branches = sample.patches.map((p) => p.branch).join(", ");
  await Deno.stdout.write(
    new TextEncoder().encode(
      `${sample.dir}: base ${sample.base}, branches ${branches}\n`,
    ),
  );
}
