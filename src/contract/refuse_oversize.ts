/**
 * The size cap every contract reader applies before it parses anything.
 *
 * @module
 */
import { ContractSyntaxError } from "./contract_syntax_error.ts";

/**
 * Throw `ContractSyntaxError` when `text` is more than `maxBytes` UTF-8
 * bytes. A UTF-16 code unit is never more than one UTF-8 byte short, so the
 * length test refuses huge input without walking it.
 *
 * @example
 * ```ts
 * import { refuseOversize } from "./refuse_oversize.ts";
 * refuseOversize("é", "x.yaml", 2);
 * let refused = false;
 * try { refuseOversize("é", "x.yaml", 1); } catch { refused = true; }
 * if (!refused) throw new Error();
 * ```
 */
export function refuseOversize(
  text: string,
  path: string,
  maxBytes: number,
): void {
  // Every UTF-16 unit takes at least one byte in UTF-8, so a text longer in
  // units is longer in bytes too: this only spares counting a huge text.
  // Stryker disable next-line ConditionalExpression: utf8Length() below refuses every text this refuses
  const longerInUnits = text.length > maxBytes;
  if (longerInUnits || utf8Length(text) > maxBytes) {
    throw new ContractSyntaxError(
      path,
      `the file is larger than the ${maxBytes}-byte limit`,
    );
  }
}

function utf8Length(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit < 0x80) bytes += 1;
    else if (unit < 0x800) bytes += 2;
    else if (unit >= 0xd800 && unit <= 0xdbff) {
      bytes += 4; // a surrogate pair: 4 bytes for two units
      i++;
    } else bytes += 3;
  }
  return bytes;
}
