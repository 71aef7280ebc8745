/**
 * The one exception the contract readers throw: the file could not be read
 * as a contract at all, so the gate cannot decide on it.
 *
 * @module
 */

/** Where a {@linkcode ContractSyntaxError} points. */
export interface ContractSyntaxErrorOptions {
  /** 1-based line of the problem, when known. */
  line?: number | undefined;
  /** 1-based column of the problem, when known. */
  column?: number | undefined;
  /** Key path of the problem, e.g. `properties[1].min_examples`. */
  key?: string | undefined;
  /** The underlying error, if any. */
  cause?: unknown;
  /** What the file is, for the message (default `contract`; `settings` for `pawl.toml`). */
  subject?: string | undefined;
  /**
   * Put ` at line N` right after this text of `detail` (e.g. the quoted
   * key) instead of at the end.
   */
  lineAfter?: string | undefined;
  /** A last clause after the line, e.g. `did you mean "min_examples"?`. */
  hint?: string | undefined;
}

/**
 * A contract file that does not parse, or does not match its schema.
 *
 * The message reads `Cannot read contract "<path>": <detail>` followed by
 * ` at line N` when the line is known, for example
 * `Cannot read contract "tests/agent_contract.yaml": unknown key "notes" at line 2`.
 *
 * @example
 * ```ts
 * import { ContractSyntaxError } from "./contract_syntax_error.ts";
 * const e = new ContractSyntaxError("tests/agent_contract.yaml", 'unknown key "notes"', { line: 2, key: "notes" });
 * if (e.message !== 'Cannot read contract "tests/agent_contract.yaml": unknown key "notes" at line 2') throw e;
 * ```
 */
export class ContractSyntaxError extends SyntaxError {
  /** Repository-relative path of the contract file. */
  readonly path: string;
  /** The problem without the file prefix and line suffix. */
  readonly detail: string;
  /** 1-based line of the problem, when known. */
  readonly line: number | undefined;
  /** 1-based column of the problem, when known. */
  readonly column: number | undefined;
  /** Key path of the problem (e.g. `properties[1].min_examples`), when known. */
  readonly key: string | undefined;

  /** Build the error for `path` with a lower-case `detail` sentence. */
  constructor(
    path: string,
    detail: string,
    options: ContractSyntaxErrorOptions = {},
  ) {
    const where = options.line === undefined ? "" : ` at line ${options.line}`;
    const after = options.lineAfter === undefined
      ? -1
      : detail.indexOf(options.lineAfter);
    const located = after < 0
      ? `${detail}${where}`
      : `${detail.slice(0, after + options.lineAfter!.length)}${where}${
        detail.slice(after + options.lineAfter!.length)
      }`;
    const hint = options.hint === undefined ? "" : `; ${options.hint}`;
    super(
      `Cannot read ${options.subject ?? "contract"} ${
        JSON.stringify(path)
      }: ${located}${hint}`,
      // Stryker disable next-line ConditionalExpression: an error given an undefined cause has the same cause, undefined
      options.cause === undefined ? undefined : { cause: options.cause },
    );
    this.name = "ContractSyntaxError";
    this.path = path;
    this.detail = detail;
    this.line = options.line;
    this.column = options.column;
    this.key = options.key;
  }
}
