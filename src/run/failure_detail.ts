/**
 * What one failed test showed, read from the failure text pytest reported
 * (the observer's streamed report, or the JUnit report's message): the
 * falsifying example Hypothesis printed, the exception, and the last lines
 * of the traceback. The text is the repository's own output, so each part
 * is bounded and says when it was cut.
 *
 * @module
 */
import type { FailureDetail } from "../core/finding.ts";
import { plural } from "../core/plural.ts";

/** Lines kept of an example, an exception or a traceback. */
export const MAX_DETAIL_LINES = 20;
/** Characters kept of an example, an exception or a traceback. */
export const MAX_DETAIL_CHARS = 2000;

/**
 * The failure of test `nodeId` as `text` shows it, with the command that
 * reproduces it.
 *
 * @example
 * ```ts
 * import { failureDetail } from "./failure_detail.ts";
 * const detail = failureDetail("t.py::test_p", [
 *   "    def test_p(x):",
 *   ">       assert x < 10",
 *   "E       assert 10 < 10",
 *   "E       Falsifying example: test_p(",
 *   "E           x=10,",
 *   "E       )",
 *   "",
 *   "t.py:4: AssertionError",
 * ].join("\n"), "python3 -m pytest 't.py::test_p'");
 * if (detail.example !== "test_p(\n    x=10,\n)") throw new Error(detail.example);
 * if (detail.exception !== "AssertionError: assert 10 < 10") throw new Error(detail.exception);
 * ```
 */
export function failureDetail(
  nodeId: string,
  text: string,
  reproduce: string,
): FailureDetail {
  const lines = clean(text).split("\n").map((l) => l.trimEnd());
  const example = falsifyingExample(lines);
  const exception = exceptionOf(lines);
  const traceback = tracebackTail(lines);
  return {
    test: nodeId,
    ...(example === undefined ? {} : { example }),
    ...(exception === undefined ? {} : { exception }),
    ...(traceback.length === 0 ? {} : { traceback }),
    reproduce,
  };
}

/** A line pytest marks as the exception's (`E   …`), without the mark. */
const E_LINE = /^E(?: |$)/;

/** Lines that start what follows the example in Hypothesis' report. */
const AFTER_EXAMPLE =
  /^(?:Explanation:|You can reproduce|Highest target score|Unreliable test|Traceback|Falsifying example:)/;

/** Hypothesis' `Falsifying example:` and the lines of the call it printed. */
function falsifyingExample(lines: readonly string[]): string | undefined {
  const start = lines.findIndex((l) =>
    /^(?:E\s+|\s*)Falsifying example:/.test(l)
  );
  if (start === -1) return undefined;
  const header = lines[start] as string;
  const marked = E_LINE.test(header);
  // pytest's short styles (`--tb=line`, `--tb=no`) indent the notes instead.
  // Stryker disable OptionalChaining,Regex: a marked header starts with "E", so /E\s*/ matches it, at its start (the spaces it takes are pinned by the tests of a Hypothesis failure and of a state machine's steps)
  const indent = marked
    ? /^E\s*/.exec(header)?.[0].length ?? 1
    : leading(header);
  // Stryker restore OptionalChaining,Regex
  const first = header.slice(header.indexOf("Falsifying example:") + 19)
    .trim();
  const body: string[] = first === "" ? [] : [first];
  for (const line of lines.slice(start + 1)) {
    if (marked && !E_LINE.test(line)) break;
    // Stryker disable next-line MethodExpression: every line was trimmed at its end, so a blank one is already empty
    if (!marked && line.trim() === "") break;
    const text = marked
      ? stripMark(line, indent)
      : line.slice(Math.min(indent, leading(line)));
    if (AFTER_EXAMPLE.test(text.trim())) break;
    body.push(text);
  }
  return body.length === 0 ? undefined : bounded(body, "head");
}

/**
 * The exception's lines pytest marked with `E` before the example (the
 * first line prefixed with its type when pytest printed only the assert),
 * else the text's first line.
 */
function exceptionOf(lines: readonly string[]): string | undefined {
  const type = exceptionType(lines);
  const marked: string[] = [];
  for (const line of lines) {
    if (!E_LINE.test(line)) {
      if (marked.length > 0) break;
      continue;
    }
    // Stryker disable next-line Regex: the line is marked, so it starts with "E" and a space or nothing; keeping that space shifts every marked line by one, which dedent() takes off again (that a lone "E" is matched too is pinned by the test of an empty mark inside a block)
    const text = line.replace(/^E\s?/, "");
    if (/^\s*Falsifying example:/.test(text)) break;
    marked.push(text);
  }
  const body = marked.length > 0 ? dedent(marked) : firstLines(lines);
  if (body.length === 0) return type === "" ? undefined : type;
  const head = body[0] as string;
  // Stryker disable next-line ConditionalExpression,LogicalOperator,StringLiteral: every head starts with an empty type, so !head.startsWith(type) alone refuses to prefix one (the line's other conditions are pinned by the prefix tests)
  if (type !== "" && !head.startsWith(type) && !/^\w[\w.]*: /.test(head)) {
    body[0] = `${type}: ${head}`;
  }
  return bounded(body, "head");
}

/**
 * In a text pytest did not mark (a JUnit message, a native traceback):
 * the last unindented `Type: message` line, else the first line.
 */
function firstLines(lines: readonly string[]): string[] {
  const raised = lines.findLast((l) =>
    /^[A-Za-z_][\w.]*(?:Error|Exception|Exit|Failed|Check|Exceeded|Flaky|Unsatisfiable)\b/
      .test(l)
  );
  if (raised !== undefined) return [raised];
  // Stryker disable next-line MethodExpression: every line was trimmed at its end, so a blank one is already empty
  const first = lines.find((l) => l.trim() !== "");
  return first === undefined || /^Falsifying example:/.test(first)
    ? []
    : [first];
}

/** The exception type of pytest's last `path:line: Type` line, or of a leading `Type: …`. */
function exceptionType(lines: readonly string[]): string {
  for (const line of [...lines].reverse()) {
    const located = /^\S+:\d+: ([A-Za-z_][\w.]*)$/.exec(line);
    // Stryker disable next-line OptionalChaining,StringLiteral: the pattern's one group always takes part in a match, and split() always gives a last part, so neither fallback is taken (the "." split on is pinned by the dotted type's test)
    if (located !== null) return located[1]?.split(".").at(-1) ?? "";
  }
  // Stryker disable next-line MethodExpression,StringLiteral: every line was trimmed at its end, so a blank one is already empty; and when no line is left, no text the fallback holds starts with "assert", as the next line asks (the "" compared with is pinned by the test of an assert after a blank line)
  const first = lines.find((l) => l.trim() !== "") ?? "";
  if (/^(?:E\s+)?assert\b/.test(first)) return "AssertionError";
  return "";
}

/** The last non-blank lines of the traceback, without pytest's separator lines. */
function tracebackTail(lines: readonly string[]): string[] {
  const kept: string[] = [];
  let pawls = false;
  for (const line of lines) {
    // A frame of pawl's observer exists only inside pawl's runs: it and
    // the source lines under it are left out.
    if (/^\S*_pawl_observer_\w*\.py:\d+: in /.test(line)) {
      pawls = true;
      continue;
    }
    if (pawls && /^\s/.test(line)) continue;
    pawls = false;
    const trimmed = line.trim();
    if (trimmed === "" || /^_( _)+$/.test(trimmed)) continue;
    kept.push(line);
  }
  if (kept.length === 0) return [];
  // Stryker disable next-line StringLiteral: bounded() tells "head" from anything else, and anything else keeps the tail (the "\n" split on is pinned by the traceback tests)
  return bounded(kept, "tail").split("\n");
}

/**
 * At most {@linkcode MAX_DETAIL_LINES} lines and
 * {@linkcode MAX_DETAIL_CHARS} characters of `lines`, from the start or the
 * end, with a line saying what was cut.
 */
function bounded(lines: readonly string[], keep: "head" | "tail"): string {
  const kept = keep === "head"
    ? lines.slice(0, MAX_DETAIL_LINES)
    : lines.slice(-MAX_DETAIL_LINES);
  let text = kept.join("\n");
  const cut = lines.length - kept.length;
  let note = cut > 0
    ? `[pawl cut ${plural(cut, "more line")} here]`
    : undefined;
  if (text.length > MAX_DETAIL_CHARS) {
    text = keep === "head"
      ? text.slice(0, MAX_DETAIL_CHARS)
      : text.slice(-MAX_DETAIL_CHARS);
    note = `[pawl kept only the ${
      keep === "head" ? "first" : "last"
    } ${MAX_DETAIL_CHARS} characters]`;
  }
  if (note === undefined) return text;
  return keep === "head" ? `${text}\n${note}` : `${note}\n${text}`;
}

/** The text without control characters other than tab and newline, CRLF as LF. */
function clean(text: string): string {
  const lf = text.replace(/\r\n?/g, "\n").replace(/\t/g, "    ");
  // deno-lint-ignore no-control-regex
  return lf.replace(/[\u0000-\u0008\u000b-\u001f\u007f]/g, "");
}

/** An `E` line without the mark and the indentation its block's first line had. */
function stripMark(line: string, indent: number): string {
  // Stryker disable next-line OptionalChaining,Regex: only marked lines come here, which start with "E", so /E */ matches, at their start (the spaces it takes are pinned by the tests of a Hypothesis failure and of a state machine's steps)
  const spaces = /^E */.exec(line)?.[0].length ?? 0;
  return line.slice(Math.min(indent, spaces));
}

function leading(line: string): number {
  return line.length - line.trimStart().length;
}

function dedent(lines: readonly string[]): string[] {
  const common = Math.min(
    // Stryker disable next-line MethodExpression: the lines are ends of lines trimmed at their end, so a blank one is already empty
    ...lines.filter((l) => l.trim() !== "").map(leading),
  );
  return lines.map((l) => l.slice(Number.isFinite(common) ? common : 0));
}
