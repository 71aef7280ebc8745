/**
 * docs/derived-images.md's recipe is the example in examples/derived-image,
 * its pawl.toml names the virtualenv its Dockerfile makes, and that
 * virtualenv step, replayed on the host outside /tmp, gives an interpreter
 * the sandbox runs a src-layout project with (its Debian test dependency
 * seen through `--system-site-packages`). tools/derived_image_smoke.sh
 * builds the image itself in CI.
 */
import assert from "node:assert/strict";
import { readSettings } from "../src/settings/read_settings.ts";
import { check, explain, ROOT } from "./_cli.ts";
import { buildRepo } from "./_repo.ts";
import { BASE, HEADS } from "./_src_layout_project.ts";

const DOC = await Deno.readTextFile(`${ROOT}/docs/derived-images.md`);
const DOCKERFILE = await Deno.readTextFile(
  `${ROOT}/examples/derived-image/Dockerfile`,
);
const SETTINGS = await Deno.readTextFile(
  `${ROOT}/examples/derived-image/pawl.toml`,
);

/** The fenced blocks of `text` in language `lang`, each with its final newline. */
function blocks(text: string, lang: string): string[] {
  const out: string[] = [];
  const re = new RegExp("^```" + lang + "\\n([\\s\\S]*?)^```$", "gm");
  for (const m of text.matchAll(re)) out.push(m[1] ?? "");
  return out;
}

/** The `python3 -m venv` step of the Dockerfile: its flags and directory. */
function venvStep(dockerfile: string): { flags: string[]; dir: string } {
  const m = /python3 -m venv ((?:--[a-z-]+ )*)(\/\S+)/.exec(dockerfile);
  assert.ok(m !== null, "the Dockerfile makes no virtualenv");
  return { flags: (m[1] ?? "").trim().split(" "), dir: m[2] ?? "" };
}

Deno.test("docs/derived-images.md shows the example's Dockerfile and pawl.toml as they are", () => {
  assert.ok(blocks(DOC, "dockerfile").includes(DOCKERFILE));
  assert.ok(blocks(DOC, "toml").includes(SETTINGS));
  const readme = Deno.readTextFileSync(`${ROOT}/README.md`);
  assert.ok(readme.includes("(docs/derived-images.md)"));
});

Deno.test("the example's pawl.toml names the Dockerfile's virtualenv outside /tmp", () => {
  const settings = readSettings(SETTINGS);
  const venv = venvStep(DOCKERFILE);
  assert.equal(settings.environment.python, `${venv.dir}/bin/python`);
  assert.ok(!venv.dir.startsWith("/tmp"), venv.dir);
  assert.deepEqual(settings.environment.pythonpath, ["src"]);
  assert.ok(venv.flags.includes("--system-site-packages"));
  // The Dockerfile installs the test dependency the project imports.
  assert.match(DOCKERFILE, /apt-get install [^\n]*python3-toolz/);
  assert.match(BASE["tests/test_chunking.py"] ?? "", /^import toolz$/m);
});

Deno.test("the Dockerfile's virtualenv, made on the host, judges the src-layout project", async () => {
  const venv = venvStep(DOCKERFILE);
  // Outside /tmp, as the recipe says: the sandbox's /tmp is private.
  const parent = await Deno.makeTempDir({
    dir: "/var/tmp",
    prefix: "pawl-e2e-venv-",
  });
  try {
    await Deno.chmod(parent, 0o755);
    const dir = `${parent}/venv`;
    const made = await new Deno.Command("/usr/bin/python3", {
      args: ["-m", "venv", ...venv.flags, dir],
      clearEnv: true,
      env: { PATH: "/usr/bin:/bin" },
      stderr: "piped",
    }).output();
    assert.ok(made.success, new TextDecoder().decode(made.stderr));
    const settings = (BASE["pawl.toml"] ?? "").replace(
      /^python = .*$/m,
      `python = "${dir}/bin/python"`,
    );
    assert.ok(settings.includes(`"${dir}/bin/python"`));
    await using repo = await buildRepo({
      base: { ...BASE, "pawl.toml": settings },
      heads: HEADS,
    });
    const accept = await check(repo.dir, "fix/stream");
    assert.equal(accept.code, 0, explain(accept));
    const reject = await check(repo.dir, "bug/loses-tail");
    assert.equal(reject.code, 1, explain(reject));
    assert.ok(
      reject.verdict?.findings.some((f) => f.rule === "property.not_passed"),
      explain(reject),
    );
  } finally {
    await Deno.remove(parent, { recursive: true });
  }
});
