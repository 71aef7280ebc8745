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

/** The entry for user `name` in passwd(5) `text`, or undefined. */
export function findPasswdUser(
  text: string,
  name: string,
): PasswdUser | undefined {
  for (const line of text.split("\n")) {
    const fields = line.split(":");
    if (fields.length < 4 || fields[0] !== name) continue;
    const uid = Number(fields[2]);
    const gid = Number(fields[3]);
    if (
      fields[2] !== "" && fields[3] !== "" && Number.isInteger(uid) &&
      Number.isInteger(gid)
    ) {
      return { uid, gid };
    }
  }
  return undefined;
}

/** Every user name with `uid` in passwd(5) `text`. */
export function passwdNamesOf(text: string, uid: number): string[] {
  const names: string[] = [];
  for (const line of text.split("\n")) {
    const fields = line.split(":");
    if (fields.length >= 4 && fields[2] === String(uid) && fields[0]) {
      names.push(fields[0]);
    }
  }
  return names;
}
