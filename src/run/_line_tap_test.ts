import { deepEqual } from "node:assert/strict";
import { LineTap } from "./_line_tap.ts";

const bytes = (text: string) => new TextEncoder().encode(text);

Deno.test("LineTap gives whole lines however the chunks cut them, those before the listener included", async (t) => {
  const cases: { name: string; chunks: string[]; listenAfter: number }[] = [
    { name: "one chunk", chunks: ["a\nb\n"], listenAfter: 0 },
    { name: "a line cut in two", chunks: ["a\nb", "é\n"], listenAfter: 0 },
    { name: "fed before listening", chunks: ["a\n", "bé\n"], listenAfter: 2 },
    {
      name: "empty lines dropped",
      chunks: ["\n\na\n", "\nbé\n"],
      listenAfter: 1,
    },
  ];
  for (const c of cases) {
    await t.step(c.name, () => {
      const tap = new LineTap();
      const seen: string[] = [];
      c.chunks.forEach((chunk, i) => {
        if (i === c.listenAfter) tap.listen((line) => seen.push(line));
        tap.feed(bytes(chunk));
      });
      if (c.listenAfter >= c.chunks.length) {
        tap.listen((line) => seen.push(line));
      }
      deepEqual(seen, c.name === "one chunk" ? ["a", "b"] : ["a", "bé"]);
    });
  }
});

Deno.test("LineTap stops telling a listener that threw", () => {
  const tap = new LineTap();
  const seen: string[] = [];
  tap.listen((line) => {
    seen.push(line);
    throw new Error("broken");
  });
  tap.feed(bytes("a\nb\n"));
  deepEqual(seen, ["a"]);
});

Deno.test("LineTap tells nothing once closed, of what it kept or what comes after", () => {
  const tap = new LineTap();
  const seen: string[] = [];
  tap.feed(bytes("a\n"));
  tap.close();
  tap.feed(bytes("b\n"));
  tap.listen((line) => seen.push(line));
  deepEqual(seen, []);
});
