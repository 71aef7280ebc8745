/**
 * Reading one user out of /etc/passwd text.
 *
 * @module
 */

/** uid and gid of a passwd entry. */
export interface PasswdUser {
  /** Numeric user id. */
  uid: number;
  /** Numeric primary group id. */
  gid: number;
}

/**
 * A uid or gid field: decimal digits, leading zeros allowed ("064000" is
 * 64000, as the C library reads it). Anything else (empty, signed, padded,
 * "1e3", "0x10") is no id here: Number() would read "" as root's, and
 * "1e3" or "0x10" as numbers the C library never gives that line.
 */
function passwdId(field: string | undefined): number | undefined {
  // Stryker disable next-line StringLiteral: a missing field is no id whatever text stands in for it, unless that text were all digits
  return /^[0-9]+$/.test(field ?? "") ? Number(field) : undefined;
}

/** The entry for user `name` in passwd(5) `text`, or undefined. */
export function findPasswdUser(
  text: string,
  name: string,
): PasswdUser | undefined {
  for (const line of text.split("\n")) {
    const fields = line.split(":");
    if (fields[0] !== name) continue;
    // A line too short to hold both ids has no id in the one it lacks.
    const uid = passwdId(fields[2]);
    const gid = passwdId(fields[3]);
    if (uid !== undefined && gid !== undefined) return { uid, gid };
  }
  return undefined;
}

/** Every user name with `uid` in passwd(5) `text`. */
export function passwdNamesOf(text: string, uid: number): string[] {
  const names: string[] = [];
  for (const line of text.split("\n")) {
    const fields = line.split(":");
    if (fields.length >= 4 && passwdId(fields[2]) === uid && fields[0]) {
      names.push(fields[0]);
    }
  }
  return names;
}
