import assert from "node:assert/strict";
import { plural } from "./plural.ts";

Deno.test("plural() says one thing in the singular and any other count in the plural", async (t) => {
  const cases: [number, string, string | undefined, string][] = [
    [1, "file", undefined, "1 file"],
    [0, "file", undefined, "0 files"],
    [2, "file", undefined, "2 files"],
    [1, "pull request", undefined, "1 pull request"],
    [7, "pull request", undefined, "7 pull requests"],
    [1, "property", "properties", "1 property"],
    [4, "property", "properties", "4 properties"],
  ];
  for (const [count, one, many, expected] of cases) {
    await t.step(expected, () => {
      assert.equal(
        many === undefined ? plural(count, one) : plural(count, one, many),
        expected,
      );
    });
  }
});

/** Every source file of pawl under `dir`, tests left out. */
async function* sourceFiles(dir: URL): AsyncGenerator<URL> {
  for await (const entry of Deno.readDir(dir)) {
    const url = new URL(entry.name + (entry.isDirectory ? "/" : ""), dir);
    if (entry.isDirectory) yield* sourceFiles(url);
    else if (entry.name.endsWith(".ts") && !entry.name.endsWith("_test.ts")) {
      yield url;
    }
  }
}

Deno.test("no message counts a list or a set beside a plural noun without plural()", async () => {
  // `${items.length} files` reads "1 files" for one item. A word after the
  // count that is a verb, not a noun, is fine ("${x.length} exceeds").
  const counted = /\$\{[\w.!?]+\.(?:length|size)\} ([a-z][a-z-]*s)\b/g;
  const verbs = new Set(["exceeds", "is", "was", "has", "does"]);
  const src = new URL("../", import.meta.url);
  const found: string[] = [];
  for await (const file of sourceFiles(src)) {
    const lines = (await Deno.readTextFile(file)).split("\n");
    for (const [index, line] of lines.entries()) {
      if (/^\s*(\*|\/\/)/.test(line)) continue;
      for (const match of line.matchAll(counted)) {
        if (verbs.has(match[1]!)) continue;
        found.push(
          `${file.pathname.slice(src.pathname.length)}:${index + 1}: ${
            match[0]
          }`,
        );
      }
    }
  }
  assert.deepEqual(found, []);
});

Deno.test("no message makes a plural by hand from a count", async () => {
  // `${n} file${n === 1 ? "" : "s"}` is plural() written out again.
  const byHand = /=== 1 \? "" : "s"/;
  const src = new URL("../", import.meta.url);
  const found: string[] = [];
  for await (const file of sourceFiles(src)) {
    if (file.pathname.endsWith("/core/plural.ts")) continue;
    const lines = (await Deno.readTextFile(file)).split("\n");
    for (const [index, line] of lines.entries()) {
      if (byHand.test(line)) {
        found.push(`${file.pathname.slice(src.pathname.length)}:${index + 1}`);
      }
    }
  }
  assert.deepEqual(found, []);
});
