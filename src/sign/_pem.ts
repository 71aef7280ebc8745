/**
 * PEM (RFC 7468) for one key: exactly one block, a strict base64 body.
 * Error messages describe the structure only and never quote the text,
 * which may be a private key.
 *
 * @module
 */
import { decodeBase64, encodeBase64 } from "./_base64.ts";

/** One decoded PEM block. */
export interface PemBlock {
  /** The label between `BEGIN ` and the dashes, e.g. `PRIVATE KEY`. */
  label: string;
  /** The decoded body. */
  der: Uint8Array<ArrayBuffer>;
}

/** The text is not exactly one well-formed PEM block. */
export class PemError extends SyntaxError {
  /** Build the error. */
  constructor(message: string) {
    super(message);
    this.name = "PemError";
  }
}

/** The block is well formed but has another label than the one wanted. */
export class PemLabelError extends PemError {
  /** The label found (the caller decides whether it is safe to show). */
  readonly label: string;
  /** Build the error. */
  constructor(label: string) {
    super("unexpected PEM label");
    this.name = "PemLabelError";
    this.label = label;
  }
}

const BLOCK =
  /-----BEGIN ([A-Z0-9 ]+)-----([\s\S]*?)-----END ([A-Z0-9 ]+)-----/g;

/**
 * The PEM block labelled `label` in `text` (explanatory text around it is
 * allowed, as RFC 7468 says). Throws {@linkcode PemLabelError} for a block
 * with another label and {@linkcode PemError} for no block, more than one,
 * mismatched labels or a body that is not base64.
 *
 * @example
 * ```ts
 * import { readPemBlock } from "./_pem.ts";
 * const block = readPemBlock("-----BEGIN PUBLIC KEY-----\naGk=\n-----END PUBLIC KEY-----\n", "PUBLIC KEY");
 * if (block.der.length !== 2) throw new Error("unexpected");
 * ```
 */
export function readPemBlock(text: string, label: string): PemBlock {
  const begins = text.split("-----BEGIN ").length - 1;
  if (begins === 0) throw new PemError('not PEM: no "-----BEGIN" line');
  if (begins > 1) {
    throw new PemError(`not one PEM block: found ${begins} "BEGIN" lines`);
  }
  const match = [...text.matchAll(BLOCK)][0];
  if (match === undefined) {
    throw new PemError('not PEM: no complete "BEGIN" ... "END" block');
  }
  const [, found, body, endLabel] = match;
  if (found !== endLabel) {
    throw new PemError('not PEM: the "BEGIN" and "END" labels differ');
  }
  if (found !== label) throw new PemLabelError(found!);
  const der = decodeBase64(body!.replace(/[ \t\r\n]/g, ""));
  if (der === undefined || der.length === 0) {
    throw new PemError("not PEM: the body is not valid base64");
  }
  return { label, der };
}

/**
 * Encode `der` as a PEM block with 64-character lines and a final newline.
 *
 * @example
 * ```ts
 * import { encodePem } from "./_pem.ts";
 * const pem = encodePem("PUBLIC KEY", new Uint8Array([104, 105]));
 * if (pem !== "-----BEGIN PUBLIC KEY-----\naGk=\n-----END PUBLIC KEY-----\n") throw new Error("unexpected");
 * ```
 */
export function encodePem(label: string, der: Uint8Array): string {
  const lines = encodeBase64(der).match(/.{1,64}/g) ?? [];
  return `-----BEGIN ${label}-----\n${
    lines.join("\n")
  }\n-----END ${label}-----\n`;
}
