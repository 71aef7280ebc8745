/**
 * A warm interpreter: `python3 -m MODULE ARGS` started before ARGS are
 * known. The interpreter starts as `python3 -c BOOT MODULE` with the run's
 * final environment, working directory, uid and limits; BOOT imports what
 * `-m MODULE` imports before it runs any code of MODULE's (`runpy`, then
 * the module's package) with the working directory and every search path
 * inside it left off `sys.path`, reports on its stdout every top-level
 * name it looked up, then blocks on stdin until pawl sends ARGS. Then it
 * puts back what `-m` would have set (`sys.path[0]` the working directory,
 * `sys.argv`, `sys.orig_argv`, stdin on /dev/null and `sys.stdin` made
 * anew over it as start-up makes it) and runs the module's
 * `__main__` exactly as runpy's `_run_module_as_main` does, one frame deep
 * as there. Pure: building argv and reading the report.
 *
 * @module
 */

/** The first line a warm interpreter writes on its stdout, before the run's output. */
export const WARM_REPORT_PREFIX = "PAWL-WARM ";

/** Largest report line read, in bytes. */
export const MAX_WARM_REPORT_BYTES = 256 * 1024;

/**
 * BOOT: runs in a namespace of its own (nothing lands in `__main__`), and
 * leaves the call `_run_module_as_main` would make in `sys._pawl_warm`,
 * which the `-c` line pops and makes.
 */
const BOOT = String.raw`
import sys, os
cwd = os.getcwd()
def inside(p):
    return p == "" or p == cwd or p.startswith(cwd + "/")
full = list(sys.path)
sys.path[:] = [p for p in full if not inside(p)]
seen = ["runpy"]
class Seen:
    @staticmethod
    def find_spec(name, path=None, target=None):
        if path is None:
            seen.append(name)
        return None
sys.meta_path.insert(0, Seen)
before = set(sys.modules)
argv = sys.argv
sys.argv = ["-m"]
ok = True
try:
    import runpy
    __import__(MODULE)
except BaseException:
    ok = False
sys.meta_path.remove(Seen)
sys.argv = argv
names = set(seen)
names.update(m.partition(".")[0] for m in sys.modules if m not in before)
os.write(1, ("PAWL-WARM " + ("ready" if ok else "failed") + "".join(" " + n for n in sorted(names)) + "\n").encode("utf-8", "surrogateescape"))
chunks = []
while True:
    chunk = os.read(0, 65536)
    if not chunk:
        break
    chunks.append(chunk)
data = b"".join(chunks)
if not ok or not data.startswith(b"RUN\0"):
    os._exit(0)
args = [os.fsdecode(a) for a in data[4:].split(b"\0")[:-1]]
null = os.open("/dev/null", os.O_RDONLY)
os.dup2(null, 0)
os.close(null)
import io
old = sys.stdin
buf = io.open(0, "rb", -1, None, None, None, False)
buf.raw.name = "<stdin>"
sys.stdin = sys.__stdin__ = io.TextIOWrapper(buf, old.encoding, old.errors, "\n", old.line_buffering, old.write_through)
sys.stdin.mode = "r"
sys.path[:] = [cwd] + full[1:]
sys.argv = ["-m"] + args
sys.orig_argv[:] = [sys.orig_argv[0], "-m", MODULE] + args
try:
    name, spec, code = runpy._get_module_details(MODULE, runpy._Error)
except runpy._Error as exc:
    sys.exit("%s: %s" % (sys.executable, exc))
sys.argv[0] = spec.origin
sys._pawl_warm = (code, sys.modules["__main__"].__dict__, None, "__main__", spec)
`;

/** The `-c` line: BOOT, then the call `-m` makes, from the top level. */
function bootLine(module: string): string {
  const boot = JSON.stringify(
    BOOT.replaceAll("MODULE", JSON.stringify(module)),
  );
  return `exec(${boot}, {"__builtins__": __builtins__}); __import__("runpy")._run_code(*__import__("sys").__dict__.pop("_pawl_warm"))`;
}

/**
 * The module a command runs when it is exactly `<program> -m <module>
 * ...` with a plain module name (no interpreter option before `-m`), the
 * only form that may go warm; else undefined.
 */
export function warmModule(argv: readonly string[]): string | undefined {
  const [program, flag, module] = argv;
  if (program === "" || flag !== "-m") return;
  // Stryker disable next-line ConditionalExpression: test(undefined) reads "undefined", a plain name, and the module given back is then undefined all the same
  if (module === undefined || !/^[A-Za-z_][A-Za-z0-9_]*$/.test(module)) return;
  return module;
}

/** The argv a warm interpreter for `argv` (see {@linkcode warmModule}) starts with. */
export function warmArgv(argv: readonly string[]): string[] {
  const module = warmModule(argv);
  if (module === undefined) {
    throw new RangeError(`Cannot start "${argv.join(" ")}" warm`);
  }
  return [argv[0]!, "-c", bootLine(module)];
}

/** What pawl writes on a warm interpreter's stdin to hand it the run. */
export function handoverBytes(argv: readonly string[]): Uint8Array {
  const encoder = new TextEncoder();
  return encoder.encode(
    "RUN\0" + argv.slice(3).map((a) => `${a}\0`).join(""),
  );
}

/** A warm interpreter's report. */
export interface WarmReport {
  /** Whether the module imported. */
  ready: boolean;
  /** Every top-level name looked up or loaded beyond the bare interpreter's. */
  modules: string[];
}

/** The report in `line` (without its newline), or undefined when it is not one. */
export function parseWarmReport(line: string): WarmReport | undefined {
  if (!line.startsWith(WARM_REPORT_PREFIX)) return undefined;
  const [state, ...modules] = line.slice(WARM_REPORT_PREFIX.length).split(" ");
  if (state !== "ready" && state !== "failed") return undefined;
  if (modules.some((m) => !/^[^\s/\0]+$/.test(m))) {
    return undefined;
  }
  return { ready: state === "ready", modules };
}
