/**
 * Reading pytest's JUnit XML report into per-test results. The report is
 * written by code the gate does not trust, so the reader refuses document
 * type declarations (and with them every entity definition: no billion
 * laughs, no external entities) and decodes only XML's five predefined
 * entities and character references itself.
 *
 * @module
 */
import { XMLParser, XMLValidator } from "fast-xml-parser";
import {
  JUNIT_XML_OPTIONS,
  MAX_XML_DEPTH,
  scanJunitXml,
} from "./_junit_xml.ts";

/**
 * How one test case ended.
 *
 * pytest reports a non-strict XPASS as a plain pass and a strict XPASS as a
 * `<failure>`, so an xpass has no outcome of its own.
 */
export type TestOutcome =
  | "passed"
  | "failed"
  | "error"
  | "skipped"
  | "xfailed";

/** One `<testcase>` of a JUnit report. */
export interface TestCaseResult {
  /** Dotted module path, plus the class for methods (`tests.test_a.TestX`); empty for collection errors. */
  classname: string;
  /** Test name including any parameter id (`test_x[1-a]`). */
  name: string;
  /** How the case ended. */
  outcome: TestOutcome;
  /** The first 500 characters of the failure, error or skip message. */
  message?: string;
  /** Repository-relative file, when the report has it (pytest's xunit1 family). */
  file?: string;
  /** 1-based line of the test definition, when the report has it (pytest writes it 0-based). */
  line?: number;
}

/** The report is not well-formed XML, uses a refused construct, or is not JUnit. */
export class JunitError extends SyntaxError {
  /** 1-based line of the problem, when known. */
  readonly line: number | undefined;

  /** Create the error; `line` is where the problem is, when known. */
  constructor(message: string, line?: number) {
    super(message);
    this.name = "JunitError";
    this.line = line;
  }
}

/** Longest message kept per test case, in characters. */
export const MAX_MESSAGE_CHARS = 500;

/** Deepest element nesting accepted (pytest writes at most five levels). */
const MAX_DEPTH = MAX_XML_DEPTH;

type OrderedNode = Record<string, unknown>;

const PREDEFINED_ENTITIES: Readonly<Record<string, string>> = {
  lt: "<",
  gt: ">",
  amp: "&",
  quot: '"',
  apos: "'",
};

/**
 * Parse a pytest JUnit XML report (xunit1 or xunit2 family, a
 * `<testsuites>` root or a bare `<testsuite>`, any number of suites) into
 * one result per `<testcase>`, in document order.
 *
 * @example
 * ```ts
 * import { parseJunit } from "./parse_junit.ts";
 * const cases = parseJunit(
 *   '<testsuite><testcase classname="tests.test_a" name="test_x"><failure message="boom"/></testcase></testsuite>',
 * );
 * if (cases[0]?.outcome !== "failed" || cases[0]?.message !== "boom") throw new Error("unexpected");
 * ```
 */
export function parseJunit(xml: string): TestCaseResult[] {
  const refused = /<!(DOCTYPE|ENTITY)/i.exec(xml);
  if (refused !== null) {
    throw new JunitError(
      `Cannot read JUnit report: "<!${
        // Stryker disable next-line OptionalChaining,StringLiteral: the pattern's one group is not optional, so a match always has it
        refused[1]?.toUpperCase() ?? ""}" is refused at line ${
        lineAt(xml, refused.index)
      }`,
      lineAt(xml, refused.index),
    );
  }
  // What pytest writes is scanned in one pass; anything else goes through
  // the validator and the parser, which build the same tree.
  const tree = scanJunitXml(xml) ?? parseXml(xml);
  // The parser drops text outside the root element; the validator misses
  // some of it.
  // Stryker disable next-line Regex: trim() removes a byte order mark at either end too, so where the replace looks changes no check
  const trimmed = xml.replace(/^\uFEFF/, "").trim();
  // Stryker disable next-line StringLiteral: the validator refuses text before the root element first, so only the end is ever decided here
  if (!trimmed.startsWith("<") || !trimmed.endsWith(">")) {
    throw new JunitError(
      "Cannot read JUnit report: text outside the root element",
    );
  }
  const roots = elements(tree);
  if (roots.length !== 1) {
    throw new JunitError(
      `Cannot read JUnit report: expected one root element, found ${roots.length}`,
    );
  }
  const [root] = roots as [Element];
  if (root.tag !== "testsuites" && root.tag !== "testsuite") {
    throw new JunitError(
      `Cannot read JUnit report: root element "${root.tag}" is not "testsuites" or "testsuite"`,
    );
  }
  const out: TestCaseResult[] = [];
  collect(root, out, 0);
  return out;
}

function parseXml(xml: string): unknown {
  const valid = XMLValidator.validate(xml);
  if (valid !== true) {
    throw new JunitError(
      `Cannot read JUnit report: ${valid.err.msg} at line ${valid.err.line}`,
      valid.err.line,
    );
  }
  try {
    return new XMLParser(JUNIT_XML_OPTIONS).parse(xml);
  } catch (error) {
    throw new JunitError(
      `Cannot read JUnit report: ${(error as Error).message}`,
    );
  }
}

interface Element {
  tag: string;
  attributes: Record<string, string>;
  children: unknown;
}

function collect(element: Element, out: TestCaseResult[], depth: number) {
  // The scanner and the parser's maxNestedTags (the same limit) refuse
  // deeper nesting first; this guard only keeps the recursion bounded.
  // Stryker disable next-line ConditionalExpression,BlockStatement: no document that reaches here nests deeper than the parser allows
  if (depth > MAX_DEPTH) {
    // Stryker disable next-line StringLiteral: never thrown, see above
    throw new JunitError("Cannot read JUnit report: nesting is too deep");
  }
  for (const child of elements(element.children)) {
    if (child.tag === "testsuite" || child.tag === "testsuites") {
      // Stryker disable next-line ArithmeticOperator: the depth guard never fires, see above
      collect(child, out, depth + 1);
    } else if (child.tag === "testcase") {
      out.push(testCase(child));
    }
  }
}

function testCase(element: Element): TestCaseResult {
  const attrs = element.attributes;
  const name = attrs["name"];
  if (name === undefined) {
    throw new JunitError(
      'Cannot read JUnit report: a "testcase" element has no "name" attribute',
    );
  }
  const result: TestCaseResult = {
    classname: decode(attrs["classname"] ?? ""),
    name: decode(name),
    outcome: "passed",
  };
  const children = elements(element.children);
  const failure = children.find((c) => c.tag === "failure");
  const error = children.find((c) => c.tag === "error");
  const skipped = children.find((c) => c.tag === "skipped");
  const decisive = failure ?? error ?? skipped;
  if (decisive !== undefined) {
    if (decisive === failure) result.outcome = "failed";
    else if (decisive === error) result.outcome = "error";
    else result.outcome = isXfail(decisive) ? "xfailed" : "skipped";
    const message = decisive.attributes["message"] !== undefined
      ? decode(decisive.attributes["message"])
      : text(decisive.children);
    const short = shorten(message);
    if (short !== "") result.message = short;
  }
  if (attrs["file"] !== undefined && attrs["file"] !== "") {
    result.file = decode(attrs["file"]);
  }
  const line = attrs["line"];
  // Stryker disable next-line ConditionalExpression: RegExp.test(undefined) reads "undefined", which has no digit
  if (line !== undefined && /^\d{1,9}$/.test(line)) {
    result.line = Number(line) + 1;
  }
  return result;
}

function isXfail(skipped: Element): boolean {
  // Stryker disable next-line StringLiteral: a missing type reads as any text that is not "pytest.xfail"
  const type = decode(skipped.attributes["type"] ?? "").toLowerCase();
  // Stryker disable next-line StringLiteral: a missing message reads as any text that neither starts with "xfail" nor is "expected test failure"
  const message = decode(skipped.attributes["message"] ?? "").toLowerCase();
  return type === "pytest.xfail" || message.startsWith("xfail") ||
    message === "expected test failure";
}

function shorten(message: string): string {
  // Control characters (other than tab and newline) only garble reports.
  // deno-lint-ignore no-control-regex
  const clean = message.replace(/[\u0000-\u0008\u000b-\u001f\u007f]/g, "")
    .trim();
  const chars = Array.from(clean);
  // Stryker disable next-line ConditionalExpression,EqualityOperator: the first 500 characters of a shorter message are the message; the test only spares the copy
  return chars.length <= MAX_MESSAGE_CHARS
    ? clean
    : chars.slice(0, MAX_MESSAGE_CHARS).join("");
}

// The scanner and the parser (preserveOrder, no value parsing) build only
// arrays of objects, with string attribute values and text: the type
// checks below keep the readers total, and no tree either builds fails them.

/** The element nodes of a preserveOrder child list, skipping text. */
function elements(nodes: unknown): Element[] {
  // Stryker disable next-line ConditionalExpression,ArrayDeclaration: every child list either builds is an array
  if (!Array.isArray(nodes)) return [];
  const out: Element[] = [];
  for (const node of nodes) {
    // Stryker disable next-line ConditionalExpression,LogicalOperator: every node either builds is an object
    if (typeof node !== "object" || node === null) continue;
    const record = node as OrderedNode;
    for (const key of Object.keys(record)) {
      // Stryker disable next-line ConditionalExpression,StringLiteral: text and CDATA are dropped at the top and read as no element below, so skipping them here is only tidy; ":@" (attributes) is pinned
      if (key === ":@" || key === "#text" || key === "#cdata") continue;
      out.push({
        tag: key,
        attributes: attributes(record[":@"]),
        children: record[key],
      });
    }
  }
  return out;
}

function attributes(value: unknown): Record<string, string> {
  const out: Record<string, string> = Object.create(null);
  // Stryker disable next-line ConditionalExpression: attributes are an object or absent, never null
  if (typeof value !== "object" || value === null) return out;
  for (const [key, raw] of Object.entries(value)) {
    // Stryker disable next-line ConditionalExpression: every attribute value either builds is a string
    if (typeof raw === "string") out[key] = raw;
  }
  return out;
}

/** Concatenated text (entity-decoded) and CDATA (verbatim) of a child list. */
function text(nodes: unknown): string {
  // Stryker disable next-line ConditionalExpression,StringLiteral: every child list either builds is an array
  if (!Array.isArray(nodes)) return "";
  let out = "";
  for (const node of nodes) {
    // Stryker disable next-line ConditionalExpression,LogicalOperator: every node either builds is an object
    if (typeof node !== "object" || node === null) continue;
    const record = node as OrderedNode;
    const raw = record["#text"];
    if (typeof raw === "string") out += decode(raw);
    const cdata = record["#cdata"];
    if (Array.isArray(cdata)) {
      for (const part of cdata) {
        const value = (part as OrderedNode)["#text"];
        // Stryker disable next-line ConditionalExpression: a CDATA section's text is always a string
        if (typeof value === "string") out += value;
      }
    }
  }
  return out;
}

/** Decode XML's predefined entities and character references; anything else is malformed. */
function decode(raw: string): string {
  if (raw.includes("<")) {
    throw new JunitError(
      'Cannot read JUnit report: "<" inside an attribute value',
    );
  }
  return raw.replace(/&([^;&\s]{0,32});?/g, (match, body: string) => {
    if (!match.endsWith(";")) {
      throw new JunitError(
        `Cannot read JUnit report: unterminated reference "${
          // Stryker disable next-line MethodExpression: a match is at most 34 characters, so the cut never cuts
          match.slice(0, 40)}"`,
      );
    }
    const named = PREDEFINED_ENTITIES[body];
    if (named !== undefined) return named;
    const numeric = /^#(?:x([0-9a-fA-F]{1,6})|([0-9]{1,7}))$/.exec(body);
    if (numeric !== null) {
      const code = numeric[1] !== undefined
        ? parseInt(numeric[1], 16)
        : Number(numeric[2]);
      if (code > 0 && code <= 0x10ffff && !(code >= 0xd800 && code <= 0xdfff)) {
        return String.fromCodePoint(code);
      }
    }
    throw new JunitError(
      `Cannot read JUnit report: undefined or invalid reference "${match}"`,
    );
  });
}

function lineAt(text: string, index: number): number {
  let line = 1;
  // Stryker disable next-line EqualityOperator: the character at index starts "<!", so counting it adds no newline
  for (let i = 0; i < index; i++) if (text.charCodeAt(i) === 10) line++;
  return line;
}
