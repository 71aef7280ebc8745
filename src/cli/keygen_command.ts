/**
 * `pawl keygen`: write an Ed25519 key pair for signing verdicts.
 *
 * @module
 */
import { type DocumentedOptions, optionsHelp } from "./options_help.ts";
import { parseCommandArgs, requiredOption } from "./parse_command_args.ts";
import { UsageError } from "./parse_command_args.ts";
import { generateKeyPair } from "../sign/generate_key_pair.ts";
import type { CliIo } from "./cli_io.ts";
import { HELP_OPTION } from "./_shared_options.ts";

/** The options of `keygen`. */
export const KEYGEN_OPTIONS = {
  out: {
    type: "string",
    doc: { value: "KEY", text: "where to write the private key" },
  },
  "out-public": {
    type: "string",
    doc: {
      value: "FILE",
      text: "where to write the public key (default KEY.pub)",
    },
  },
  force: {
    type: "boolean",
    default: false,
    doc: { text: "replace existing files (default: refuse)" },
  },
  ...HELP_OPTION,
} as const satisfies DocumentedOptions;

/** Usage text for `keygen`. */
export const KEYGEN_USAGE = `Usage:
  pawl keygen --out KEY [--out-public FILE] [--force]

Writes an Ed25519 key pair: the private key as unencrypted PKCS#8 PEM to
KEY (mode 0600; keep it secret, pass it to "pawl check --key" or put it in
PAWL_SIGNING_KEY), the public key as SPKI PEM ("BEGIN PUBLIC KEY", the format
cosign and OpenSSL read) to KEY.pub. Prints the keyid: "SHA256:" and the
unpadded base64 of the SHA-256 of the public key's DER.

Options:
${optionsHelp(KEYGEN_OPTIONS)}`;

/** Run `pawl keygen`; returns the exit code (0 when both files were written). */
export async function keygenCommand(
  args: readonly string[],
  io: CliIo,
): Promise<number> {
  const v = parseCommandArgs(args, KEYGEN_OPTIONS);
  if (v.help) {
    io.out(KEYGEN_USAGE);
    return 0;
  }
  const privatePath = requiredOption(v.out, "out");
  const publicPath = v["out-public"] ?? `${privatePath}.pub`;
  if (publicPath === privatePath) {
    throw new UsageError(
      `Cannot write both keys to "${privatePath}": pass a different "--out-public"`,
    );
  }
  if (!v.force) {
    for (const path of [privatePath, publicPath]) await refuseExisting(path);
  }
  const pair = await generateKeyPair();
  if (v.force) {
    await replaceFile(privatePath, pair.privateKeyPem, 0o600);
    await replaceFile(publicPath, pair.publicKeyPem, 0o644);
  } else {
    await createFile(privatePath, pair.privateKeyPem, 0o600);
    try {
      await createFile(publicPath, pair.publicKeyPem, 0o644);
    } catch (error) {
      // Half a key pair is worse than none.
      await Deno.remove(privatePath).catch(() => {});
      throw error;
    }
  }
  io.err(
    `Wrote private key "${privatePath}" (mode 0600: keep it secret)\n` +
      `Wrote public key "${publicPath}"\n`,
  );
  io.out(`${pair.keyid}\n`);
  return 0;
}

async function refuseExisting(path: string): Promise<void> {
  try {
    await Deno.lstat(path);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return;
    throw new UsageError(`Cannot write key "${path}": ${message(error)}`);
  }
  throw new UsageError(
    `Refusing to overwrite "${path}": it exists; pass "--force" to replace it`,
  );
}

/** Create `path` exclusively (never following a symlink) with `mode`. */
async function createFile(
  path: string,
  text: string,
  mode: number,
): Promise<void> {
  let file: Deno.FsFile;
  try {
    file = await Deno.open(path, { write: true, createNew: true, mode });
  } catch (error) {
    if (error instanceof Deno.errors.AlreadyExists) {
      throw new UsageError(
        `Refusing to overwrite "${path}": it exists; pass "--force" to replace it`,
      );
    }
    throw new UsageError(`Cannot write key "${path}": ${message(error)}`);
  }
  try {
    // The open mode is narrowed by the umask; the key pair's modes are not.
    await Deno.chmod(path, mode);
    await writeAll(file, new TextEncoder().encode(text));
    await file.sync();
  } catch (error) {
    file.close();
    await Deno.remove(path).catch(() => {});
    throw new UsageError(`Cannot write key "${path}": ${message(error)}`);
  }
  file.close();
}

/**
 * Replace `path` through a private temp file and a rename, so the new key
 * has `mode` even where an old file had a wider one, and a symlink at
 * `path` is replaced rather than followed.
 */
async function replaceFile(
  path: string,
  text: string,
  mode: number,
): Promise<void> {
  const slash = path.lastIndexOf("/");
  const dir = slash < 0 ? "." : path.slice(0, slash) || "/";
  let temp: string;
  try {
    // makeTempFile creates the file with mode 0600.
    temp = await Deno.makeTempFile({
      dir,
      prefix: ".pawl-key-",
      suffix: ".tmp",
    });
  } catch (error) {
    throw new UsageError(`Cannot write key "${path}": ${message(error)}`);
  }
  try {
    await Deno.writeTextFile(temp, text);
    await Deno.chmod(temp, mode);
    await Deno.rename(temp, path);
  } catch (error) {
    await Deno.remove(temp).catch(() => {});
    throw new UsageError(`Cannot write key "${path}": ${message(error)}`);
  }
}

async function writeAll(file: Deno.FsFile, bytes: Uint8Array): Promise<void> {
  let offset = 0;
  while (offset < bytes.length) {
    offset += await file.write(bytes.subarray(offset));
  }
}

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
