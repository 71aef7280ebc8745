/**
 * The Python texts of the call recorder and the replayer, each with the
 * canonical form of values (`call_forms.py`) in front.
 *
 * @module
 */

const FORMS = new URL("./call_forms.py", import.meta.url);
const RECORDER = new URL("./call_recorder.py", import.meta.url);
const REPLAYER = new URL("./call_replayer.py", import.meta.url);

/** The recorder plugin's source, as installed beside pawl's observer. */
export async function callRecorderSource(): Promise<string> {
  return `${await Deno.readTextFile(FORMS)}\n${await Deno.readTextFile(
    RECORDER,
  )}`;
}

/**
 * The replayer's source for `python3 -c`, full-line comments removed: the
 * text says nothing of what runs it.
 */
export async function callReplayerSource(): Promise<string> {
  const text = `${await Deno.readTextFile(FORMS)}\n${await Deno.readTextFile(
    REPLAYER,
  )}`;
  return withoutCommentLines(text);
}

/** `text` without its full-line Python comments, indented ones included; code lines keep theirs. */
export function withoutCommentLines(text: string): string {
  return text.split("\n").filter((line) => !line.trimStart().startsWith("#"))
    .join("\n");
}
