import { deepEqual } from "node:assert/strict";
import { LineTap, MAX_TAPPED_LINE_BYTES } from "./_line_tap.ts";

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

Deno.test("LineTap gives a line of exactly its limit whole and skips one a byte longer, however it was cut", async (t) => {
  const line = (n: number) => new Uint8Array(n).fill(0x61);
  const nl = bytes("\n");
  const cases: [string, Uint8Array[], number[]][] = [
    ["at the limit, one chunk", [line(MAX_TAPPED_LINE_BYTES), nl], [
      MAX_TAPPED_LINE_BYTES,
    ]],
    [
      "at the limit, cut in two",
      [line(MAX_TAPPED_LINE_BYTES - 3), line(3), nl],
      [MAX_TAPPED_LINE_BYTES],
    ],
    ["a byte over, one chunk", [line(MAX_TAPPED_LINE_BYTES + 1), nl], []],
    [
      "a byte over, cut in two",
      [line(MAX_TAPPED_LINE_BYTES), line(1), nl],
      [],
    ],
    [
      "the next line after one too long",
      [line(MAX_TAPPED_LINE_BYTES + 1), bytes("\nok\n")],
      [2],
    ],
  ];
  for (const [name, chunks, lengths] of cases) {
    await t.step(name, () => {
      const tap = new LineTap();
      const seen: string[] = [];
      tap.listen((text) => seen.push(text));
      for (const chunk of chunks) tap.feed(chunk);
      deepEqual(seen.map((text) => text.length), lengths);
      // Told as fed: the a's of the long line, or "ok".
      deepEqual(seen.every((text) => /^(a+|ok)$/.test(text)), true);
    });
  }
});

Deno.test("LineTap whose listener threw tells a later listener nothing", () => {
  const tap = new LineTap();
  tap.listen(() => {
    throw new Error("broken");
  });
  tap.feed(bytes("a\n"));
  const seen: string[] = [];
  tap.listen((line) => seen.push(line));
  tap.feed(bytes("b\n"));
  deepEqual(seen, []);
});
