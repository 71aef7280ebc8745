/**
 * Distribution, tested up to the push these machines cannot make: the
 * release workflow builds, smoke-tests, then pushes and signs by digest
 * with every action pinned; action.yml runs an image pinned by digest that
 * tools/pin_action_image.ts rewrites; and the CLI installs from a release
 * tarball built here, with its checksum checked.
 */
import assert from "node:assert/strict";
import { parse as parseYaml } from "yaml";
import { IMAGE_BY_DIGEST, pinActionImage } from "../tools/pin_action_image.ts";
import { ROOT } from "./_cli.ts";
import { VERSION } from "../src/version.ts";

// deno-lint-ignore no-explicit-any
type Json = any;

const WORKFLOW_TEXT = await Deno.readTextFile(
  `${ROOT}/.github/workflows/release.yml`,
);
const WORKFLOW = parseYaml(WORKFLOW_TEXT);
const ACTION_TEXT = await Deno.readTextFile(`${ROOT}/action.yml`);
const DIGEST_REF = `ghcr.io/o/pawl@sha256:${"ab".repeat(32)}`;

interface Step {
  name?: string;
  id?: string;
  uses?: string;
  run?: string;
  with?: Record<string, string | boolean>;
  env?: Record<string, string>;
}

const STEPS: Step[] = WORKFLOW.jobs.release.steps;

/** Index of the one step matching `test`. */
function stepAt(what: string, test: (s: Step) => boolean): number {
  const found = STEPS.flatMap((s, i) => test(s) ? [i] : []);
  assert.equal(found.length, 1, `one step ${what}, found ${found.length}`);
  return found[0]!;
}

/** A step's run script and inputs, as one text. */
function text(s: Step): string {
  return JSON.stringify([s.run ?? "", s.with ?? {}, s.env ?? {}]);
}

Deno.test("the release workflow runs on a version tag with least privilege", () => {
  assert.deepEqual(WORKFLOW.on, {
    push: { tags: ["v[0-9]+.[0-9]+.[0-9]+"] },
  });
  assert.deepEqual(WORKFLOW.permissions, {});
  assert.deepEqual(WORKFLOW.jobs.release.permissions, {
    contents: "write",
    packages: "write",
    "id-token": "write",
    attestations: "write",
  });
});

Deno.test("the release workflow pins every action by commit", () => {
  const uses = STEPS.flatMap((s) => s.uses === undefined ? [] : [s.uses]);
  assert.ok(uses.length >= 5);
  for (const use of uses) {
    assert.match(use, /^[a-z0-9-]+\/[a-z0-9-]+@[0-9a-f]{40}$/, use);
    // The version the commit is, said beside it.
    assert.match(
      WORKFLOW_TEXT,
      new RegExp(`uses: ${use} # v\\d+\\.\\d+\\.\\d+\\n`),
      use,
    );
  }
});

Deno.test("the release workflow smoke-tests before it pushes, and signs what it pushed by digest", () => {
  const build = stepAt(
    "building",
    (s) => /tools\/build_image\.sh localhost\/pawl:release/.test(s.run ?? ""),
  );
  const smoke = stepAt(
    "smoke-testing",
    (s) => /tools\/image_smoke\.sh localhost\/pawl:release/.test(s.run ?? ""),
  );
  const push = stepAt("pushing", (s) => /podman push/.test(s.run ?? ""));
  const sbom = stepAt(
    "making the SBOM",
    (s) => s.uses?.startsWith("anchore/sbom-action@") === true,
  );
  const sign = stepAt("signing", (s) => /cosign sign/.test(s.run ?? ""));
  const provenance = stepAt(
    "attesting provenance",
    (s) => s.uses?.startsWith("actions/attest-build-provenance@") === true,
  );
  const pin = stepAt(
    "pinning action.yml",
    (s) => /tools\/pin_action_image\.ts/.test(s.run ?? ""),
  );
  const publish = stepAt(
    "publishing",
    (s) => /gh release create/.test(s.run ?? ""),
  );
  assert.ok(build < smoke && smoke < push, "smoke test before the push");
  for (const after of [sbom, sign, provenance, pin, publish]) {
    assert.ok(push < after, STEPS[after]!.name);
  }
  assert.ok(sign < pin && provenance < pin, "pinned only once signed");
  assert.ok(pin < publish);
  // Nothing before the smoke test logs in or pushes.
  for (const s of STEPS.slice(0, smoke + 1)) {
    assert.doesNotMatch(text(s), /login|push|cosign|GITHUB_TOKEN/, s.name);
  }
  // The push reports the digest, and everything after names the image by it.
  assert.equal(STEPS[push]!.id, "push");
  assert.match(STEPS[push]!.run!, /--digestfile digest/);
  assert.match(STEPS[push]!.run!, /echo "ref=\$IMAGE@\$digest"/);
  const byDigest = /steps\.push\.outputs\.(ref|digest)/;
  for (const at of [sbom, sign, provenance, pin]) {
    assert.match(text(STEPS[at]!), byDigest, STEPS[at]!.name);
  }
  assert.match(STEPS[sign]!.run!, /cosign sign --yes "\$REF"/);
  assert.equal(STEPS[sign]!.env?.["REF"], "${{ steps.push.outputs.ref }}");
  assert.doesNotMatch(STEPS[sign]!.run!, /--key/, "keyless");
  assert.equal(
    STEPS[provenance]!.with?.["subject-digest"],
    "${{ steps.push.outputs.digest }}",
  );
  assert.equal(STEPS[sbom]!.with?.["image"], "${{ steps.push.outputs.ref }}");
});

Deno.test("action.yml runs a docker:// image pinned by digest", () => {
  const action = parseYaml(ACTION_TEXT);
  assert.equal(action.runs.using, "docker");
  const image: string = action.runs.image;
  assert.ok(image.startsWith("docker://"), image);
  assert.match(image.slice("docker://".length), IMAGE_BY_DIGEST);
  assert.equal(action.runs.entrypoint, "/usr/local/bin/pawl-action");
});

Deno.test("pinActionImage() rewrites only action.yml's image line", async (t) => {
  const pinned = pinActionImage(ACTION_TEXT, DIGEST_REF);
  const before = ACTION_TEXT.split("\n");
  const after = pinned.split("\n");
  assert.equal(after.length, before.length);
  const changed = after.flatMap((line, i) => line === before[i] ? [] : [line]);
  assert.deepEqual(changed, [`  image: docker://${DIGEST_REF}`]);
  assert.equal(parseYaml(pinned).runs.image, `docker://${DIGEST_REF}`);
  assert.equal(pinActionImage(pinned, DIGEST_REF), pinned);
  const refused = [
    "ghcr.io/o/pawl:0.1.0",
    "ghcr.io/o/pawl@sha256:abc",
    `ghcr.io/O/pawl@sha256:${"a".repeat(64)}`,
    `docker://ghcr.io/o/pawl@sha256:${"a".repeat(64)}`,
    `ghcr.io/o/pawl@sha256:${"a".repeat(64)}\n  entrypoint: /bin/sh`,
  ];
  for (const ref of refused) {
    await t.step(JSON.stringify(ref), () => {
      assert.throws(() => pinActionImage(ACTION_TEXT, ref), TypeError);
    });
  }
  assert.throws(
    () => pinActionImage("name: x\n", DIGEST_REF),
    SyntaxError,
  );
});

async function run(
  cmd: string,
  args: string[],
  env: Record<string, string> = {},
): Promise<{ code: number; out: string }> {
  const output = await new Deno.Command(cmd, {
    args,
    cwd: ROOT,
    env,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  const d = new TextDecoder();
  return {
    code: output.code,
    out: d.decode(output.stdout) + d.decode(output.stderr),
  };
}

Deno.test("tools/install.sh installs the CLI from a release tarball and links it into PREFIX/bin", async (t) => {
  const dir = await Deno.makeTempDir({ prefix: "pawl-e2e-release-" });
  try {
    const made = await run("sh", [
      "tools/make_release_tarball.sh",
      VERSION,
      `${dir}/dist`,
    ]);
    assert.equal(made.code, 0, made.out);
    const tarball = `${dir}/dist/pawl-${VERSION}.tar.gz`;
    assert.equal(made.out.trim(), tarball);
    const sum = (await Deno.readTextFile(`${tarball}.sha256`)).split(" ")[0]!;
    assert.match(sum, /^[0-9a-f]{64}$/);
    // No cached modules: the tarball carries its npm packages.
    const offline = { DENO_DIR: `${dir}/empty-deno-dir`, NO_COLOR: "1" };

    await t.step("from a path, the checksum beside it", async () => {
      const r = await run("sh", [
        "tools/install.sh",
        "--prefix",
        `${dir}/a`,
        tarball,
      ]);
      assert.equal(r.code, 0, r.out);
      assert.match(r.out, new RegExp(`pawl ${VERSION} installed: `));
      const target = await Deno.realPath(`${dir}/a/bin/pawl`);
      assert.equal(target, `${dir}/a/lib/pawl/pawl-${VERSION}/bin/pawl`);
      const v = await run(`${dir}/a/bin/pawl`, ["version"], offline);
      assert.equal(v.code, 0, v.out);
      assert.equal(v.out.trim(), `pawl ${VERSION}`);
      // Again: replaced in place, the link still good.
      const again = await run("sh", [
        "tools/install.sh",
        `--prefix=${dir}/a`,
        tarball,
      ]);
      assert.equal(again.code, 0, again.out);
      const help = await run(`${dir}/a/bin/pawl`, ["check", "--help"], offline);
      assert.equal(help.code, 0, help.out);
      assert.match(help.out, /--codequality FILE/);
    });

    await t.step("from a URL, with --sha256", async () => {
      const r = await run("sh", [
        "tools/install.sh",
        "--prefix",
        `${dir}/b`,
        "--sha256",
        sum,
        `file://${tarball}`,
      ]);
      assert.equal(r.code, 0, r.out);
      const v = await run(`${dir}/b/bin/pawl`, ["version"], offline);
      assert.equal(v.out.trim(), `pawl ${VERSION}`);
    });

    await t.step(
      "a checksum that does not match installs nothing",
      async () => {
        const r = await run("sh", [
          "tools/install.sh",
          "--prefix",
          `${dir}/c`,
          "--sha256",
          "0".repeat(64),
          tarball,
        ]);
        assert.equal(r.code, 1, r.out);
        assert.match(r.out, /expected 0{64}: not installed/);
        await assert.rejects(Deno.lstat(`${dir}/c/bin/pawl`));
      },
    );

    await t.step(
      "a tarball with files outside its directory installs nothing",
      async () => {
        const evil = `${dir}/evil`;
        await Deno.mkdir(`${evil}/pawl-6.6.6`, { recursive: true });
        await Deno.writeTextFile(`${evil}/outside`, "x");
        const name = `${dir}/dist/pawl-6.6.6.tar.gz`;
        const packed = await run("tar", [
          "-czf",
          name,
          "-C",
          evil,
          "pawl-6.6.6",
          "outside",
        ]);
        assert.equal(packed.code, 0, packed.out);
        const hex = await run("sh", ["-c", `sha256sum "${name}" | cut -c1-64`]);
        const r = await run("sh", [
          "tools/install.sh",
          "--prefix",
          `${dir}/d`,
          "--sha256",
          hex.out.trim(),
          name,
        ]);
        assert.equal(r.code, 1, r.out);
        assert.match(
          r.out,
          /holds files outside pawl-6\.6\.6\/: not installed/,
        );
        await assert.rejects(Deno.lstat(`${dir}/d/bin/pawl`));
      },
    );

    await t.step("no checksum at all installs nothing", async () => {
      const bare = `${dir}/bare/pawl-${VERSION}.tar.gz`;
      await Deno.mkdir(`${dir}/bare`);
      await Deno.copyFile(tarball, bare);
      const r = await run("sh", [
        "tools/install.sh",
        "--prefix",
        `${dir}/e`,
        bare,
      ]);
      assert.equal(r.code, 2, r.out);
      assert.match(r.out, /no checksum/);
    });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
