import assert from "node:assert/strict";
import { pawl, ROOT } from "./_cli.ts";

/** One module of `deno info --json`. */
interface InfoModule {
  specifier: string;
  dependencies?: {
    code?: { specifier: string };
    type?: { specifier: string };
    isDynamic?: boolean;
  }[];
}

/** The modules main.ts loads before any command runs: its static import graph. */
async function staticGraph(): Promise<string[]> {
  const output = await new Deno.Command(Deno.execPath(), {
    args: ["info", "--json", `${ROOT}/main.ts`],
    cwd: ROOT,
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.equal(output.code, 0, new TextDecoder().decode(output.stderr));
  const info = JSON.parse(new TextDecoder().decode(output.stdout)) as {
    roots: string[];
    modules: InfoModule[];
  };
  const modules = new Map(info.modules.map((m) => [m.specifier, m]));
  const seen = new Set<string>();
  const stack = [...info.roots];
  while (stack.length > 0) {
    const specifier = stack.pop()!;
    if (seen.has(specifier)) continue;
    seen.add(specifier);
    for (const dep of modules.get(specifier)?.dependencies ?? []) {
      if (dep.isDynamic === true) continue;
      for (const target of [dep.code, dep.type]) {
        if (target !== undefined) stack.push(target.specifier);
      }
    }
  }
  return [...seen].map((s) => s.replace(`file://${ROOT}/`, "")).sort();
}

Deno.test("main.ts loads no command's code before the command runs", async () => {
  const graph = await staticGraph();
  // The graph walk itself is checked: main.ts and what it needs are in it.
  assert.ok(graph.includes("main.ts"), graph.join("\n"));
  assert.ok(graph.includes("src/version.ts"), graph.join("\n"));
  const heavy = graph.filter((m) =>
    m.startsWith("npm:") || m.startsWith("jsr:") ||
    /^src\/(sign|github|python|git|sandbox|check|layouts|contract|report|audit|propose)\//
      .test(m) ||
    /^src\/cli\/.*_command\.ts$/.test(m)
  );
  assert.deepEqual(
    heavy,
    [],
    `main.ts imports statically:\n${graph.join("\n")}`,
  );
});

Deno.test("pawl version and pawl --help print without loading a command", async () => {
  const version = await pawl(["version"], { out: false });
  assert.equal(version.code, 0, version.stderr);
  assert.match(version.stdout, /^pawl \d+\.\d+\.\d+\n$/);
  const help = await pawl(["--help"], { out: false });
  assert.equal(help.code, 0, help.stderr);
  for (
    const command of [
      "check",
      "diff",
      "audit",
      "demo",
      "propose",
      "keygen",
      "verify",
      "version",
    ]
  ) {
    assert.match(help.stdout, new RegExp(`^  ${command} `, "m"));
  }
  assert.equal(help.stderr, "");
});
