/**
 * Write the end-to-end tests' src-layout project (tests/_src_layout_project.ts)
 * as a git repository: `main`, `fix/stream` (an honest fix, accepted) and
 * `bug/loses-tail` (rejected by its Hypothesis property). `--python` names
 * the interpreter its pawl.toml sets, as a derived image provides it.
 *
 *     deno run --allow-all tools/make_src_layout_repo.ts DIR [--python PATH]
 *
 * @module
 */
import { buildRepo } from "../tests/_repo.ts";
import { BASE, HEADS } from "../tests/_src_layout_project.ts";

if (import.meta.main) {
  const [dir, flag, python] = Deno.args;
  if (
    dir === undefined ||
    !(Deno.args.length === 1 || (Deno.args.length === 3 && flag === "--python"))
  ) {
    await Deno.stderr.write(
      new TextEncoder().encode(
        "Usage: deno run --allow-all tools/make_src_layout_repo.ts DIR [--python PATH]\n",
      ),
    );
    Deno.exit(2);
  }
  const settings = BASE["pawl.toml"] ?? "";
  const base = python === undefined ? BASE : {
    ...BASE,
    "pawl.toml": settings.replace(/^python = .*$/m, `python = "${python}"`),
  };
  await Deno.mkdir(dir, { recursive: true });
  const repo = await buildRepo({ base, heads: HEADS, tempRoot: dir });
  await Deno.stdout.write(new TextEncoder().encode(`${repo.dir}\n`));
}
