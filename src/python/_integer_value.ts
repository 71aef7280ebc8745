/**
 * The value of a Python integer literal's source text (`1_000`, `0x1F`,
 * `0o17`, `0b101`), or undefined for imaginary literals and anything else.
 */
export function integerValue(text: string): bigint | undefined {
  const digits = text.replaceAll("_", "");
  const last = digits.at(-1);
  if (last === "j" || last === "J") return undefined;
  const plain = last === "l" || last === "L" ? digits.slice(0, -1) : digits;
  if (plain.length === 0) return undefined;
  try {
    return BigInt(plain);
  } catch {
    return undefined;
  }
}
