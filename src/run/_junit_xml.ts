/**
 * The XML layer of `parse_junit.ts`: the options its XML parser runs with,
 * and a one-pass scanner for the plain XML pytest itself writes. The
 * scanner builds the same tree the parser builds (`preserveOrder` shape:
 * `{tag: children, ":@": attributes}` and `{"#text": raw}`), in a fraction
 * of the time a validation pass and a parse take on a report of thousands
 * of cases. It takes only a strict subset of XML, all of which the
 * validator accepts: the declaration pytest writes, one root element, the
 * element and attribute names pytest writes, double-quoted attribute
 * values, and references XML predefines. On anything else it gives up and the caller
 * uses the validator and the parser, so every error stays theirs.
 *
 * @module
 */

/** Deepest element nesting accepted (pytest writes at most five levels). */
export const MAX_XML_DEPTH = 64;

/** How `parse_junit.ts` runs fast-xml-parser's `XMLParser`. */
export const JUNIT_XML_OPTIONS = {
  preserveOrder: true,
  ignoreAttributes: false,
  attributeNamePrefix: "",
  processEntities: false,
  htmlEntities: false,
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: false,
  cdataPropName: "#cdata",
  commentPropName: false,
  ignoreDeclaration: true,
  ignorePiTags: true,
  maxNestedTags: MAX_XML_DEPTH,
} as const;

const DECLARATION = '<?xml version="1.0" encoding="utf-8"?>';

/** Elements pytest's JUnit report has. */
const TAGS: ReadonlySet<string> = new Set([
  "testsuites",
  "testsuite",
  "properties",
  "property",
  "testcase",
  "failure",
  "error",
  "skipped",
  "system-out",
  "system-err",
]);

/** Attributes pytest's JUnit report has. */
const ATTRIBUTES: ReadonlySet<string> = new Set([
  "name",
  "classname",
  "time",
  "file",
  "line",
  "message",
  "type",
  "errors",
  "failures",
  "skipped",
  "tests",
  "timestamp",
  "hostname",
  "value",
]);

/** Characters no scanned document has: control characters, CR and a BOM (the parser's to handle). */
// deno-lint-ignore no-control-regex
const REFUSED_CHARS = /[\u0000-\u0008\u000b-\u001f\u007f\ufeff]/;

/** Every `&` must start a reference XML predefines, or a character reference. */
const REFERENCE =
  /&(?:lt|gt|amp|quot|apos|#([0-9]{1,7})|#x([0-9a-fA-F]{1,6}));/y;

/** One attribute: ` name="value"`. */
const ATTRIBUTE = /[ \t\n]+([a-z]+)="([^"]*)"/y;

/** Optional white space, then `>` or `/>`. */
const TAG_END = /[ \t\n]*(\/?)>/y;

const NAME = /[a-z][a-z-]*/y;

interface Open {
  tag: string;
  children: unknown[];
}

/**
 * The tree fast-xml-parser builds from `xml` with
 * {@linkcode JUNIT_XML_OPTIONS}, or undefined when `xml` is not plain
 * pytest-style XML with one root element; then only the validator and the
 * parser decide.
 *
 * @example
 * ```ts
 * import { scanJunitXml } from "./_junit_xml.ts";
 * const tree = scanJunitXml('<testsuite><testcase name="a"/></testsuite>');
 * if (JSON.stringify(tree) !== '[{"testsuite":[{"testcase":[],":@":{"name":"a"}}]}]') throw new Error();
 * if (scanJunitXml("<testsuite><!-- note --></testsuite>") !== undefined) throw new Error();
 * ```
 */
export function scanJunitXml(xml: string): unknown[] | undefined {
  if (REFUSED_CHARS.test(xml) || !referencesValid(xml)) return undefined;
  const top: unknown[] = [];
  const stack: Open[] = [];
  let roots = 0;
  let i = xml.startsWith(DECLARATION) ? DECLARATION.length : 0;
  const n = xml.length;
  // Stryker disable next-line EqualityOperator: at i === n no "<" is left, so one more turn only breaks out
  while (i < n) {
    const lt = xml.indexOf("<", i);
    const end = lt === -1 ? n : lt;
    if (end > i) {
      const text = xml.slice(i, end);
      const open = stack[stack.length - 1];
      if (open === undefined) {
        if (text.trim() !== "") return undefined;
      } else {
        open.children.push({ "#text": text });
      }
    }
    if (lt === -1) break;
    if (xml.charCodeAt(lt + 1) === 47 /* "/" */) {
      const open = stack.pop();
      if (open === undefined) return undefined;
      const close = `</${open.tag}>`;
      if (!xml.startsWith(close, lt)) return undefined;
      i = lt + close.length;
      continue;
    }
    NAME.lastIndex = lt + 1;
    const name = NAME.exec(xml)?.[0];
    // Stryker disable next-line ConditionalExpression: TAGS has no undefined, so a missing name is refused by the second test too
    if (name === undefined || !TAGS.has(name)) return undefined;
    let at = lt + 1 + name.length;
    let attributes: Record<string, string> | undefined;
    for (;;) {
      ATTRIBUTE.lastIndex = at;
      const match = ATTRIBUTE.exec(xml);
      if (match === null) break;
      // Stryker disable next-line StringLiteral: both groups take part in every match, so the defaults are never used
      const [whole, key = "", value = ""] = match;
      if (!ATTRIBUTES.has(key)) return undefined;
      attributes ??= {};
      if (Object.hasOwn(attributes, key)) return undefined;
      attributes[key] = value;
      at += whole.length;
    }
    TAG_END.lastIndex = at;
    const tagEnd = TAG_END.exec(xml);
    if (tagEnd === null) return undefined;
    i = at + tagEnd[0].length;
    const children: unknown[] = [];
    const node: Record<string, unknown> = { [name]: children };
    if (attributes !== undefined) node[":@"] = attributes;
    const parent = stack[stack.length - 1];
    if (parent === undefined) {
      if (++roots > 1) return undefined;
      top.push(node);
    } else {
      parent.children.push(node);
    }
    if (tagEnd[1] !== "/") {
      // Stryker disable next-line EqualityOperator,ArithmeticOperator: the parser takes 65 open elements and builds the same tree, so stopping one or two levels deeper only changes which of the two builds it
      if (stack.length >= MAX_XML_DEPTH - 1) return undefined;
      stack.push({ tag: name, children });
    }
  }
  return stack.length === 0 && roots === 1 ? top : undefined;
}

function referencesValid(xml: string): boolean {
  for (let at = xml.indexOf("&"); at !== -1; at = xml.indexOf("&", at + 1)) {
    REFERENCE.lastIndex = at;
    const match = REFERENCE.exec(xml);
    if (match === null) return false;
    const [, decimal, hex] = match;
    // Stryker disable next-line ConditionalExpression: a predefined entity's code is NaN, which no range check below refuses
    if (decimal === undefined && hex === undefined) continue;
    const code = hex !== undefined ? parseInt(hex, 16) : Number(decimal);
    if (code <= 0 || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) {
      return false;
    }
  }
  return true;
}
