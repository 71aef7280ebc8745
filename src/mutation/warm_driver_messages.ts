/**
 * The warm driver's line protocol (see `warm_driver/pawl_warm_driver.py`):
 * what pawl sends it, and the strict reading of what it sends back. The
 * driver runs the code under test in its own process, so every line from
 * it is untrusted: a line that does not read is no message at all, and a
 * message only ever says what pawl then checks against the run's own
 * report and observer stream. Pure.
 *
 * @module
 */
import { z } from "zod";

/** Where one run (the baseline or one mutant's child) reports. */
export interface ChildPlaces {
  /** The JUnit report it writes. */
  junit: string;
  /** Its HOME and TMPDIR (Hypothesis's example database goes there too). */
  home: string;
  /** Its own observer socket. */
  socket: string;
  /** The token its observer's stream opens with. */
  token: string;
}

/** How much CPU time a mutant's child gets: the baseline's non-test time, `factor` times the selected tests' time, and `margin` seconds. */
export interface CpuAllowance {
  /** Times the selected tests' baseline CPU time. */
  factor: number;
  /** Seconds on top. */
  margin: number;
}

/** The first message pawl sends: how the driver runs. */
export interface DriverConfig {
  /** `config`. */
  event: "config";
  /**
   * The test command's arguments after `-m pytest`, without those that
   * name tests (`selectionCommand`): every run of the driver selects.
   */
  args: readonly string[];
  /** pawl's observer plugin's module name, loaded into every run with `-p`. */
  observer: string;
  /** Node ids the baseline runs (the registered properties). */
  select: readonly string[];
  /** Repository-relative schemata files whose lines coverage records. */
  files: readonly string[];
  /** Where the baseline reports. */
  baseline: ChildPlaces;
  /** A child's CPU time limit. */
  cpu: CpuAllowance;
  /** A child's wall-clock ceiling: `factor` times its CPU limit plus `margin` seconds. */
  wall: CpuAllowance;
}

/** One mutant to run. */
export interface MutantJob {
  /** `mutant`. */
  event: "mutant";
  /** The mutant's id, the value of `__pawl_active__` in its child. */
  id: string;
  /** Lines of the schemata files whose execution means a test covers it (base side). */
  cover: readonly { file: string; lines: readonly number[] }[] | null;
  /** Node ids to run whatever coverage says (head side), or null. */
  run: readonly string[] | null;
  /** Where its child reports. */
  child: ChildPlaces;
}

/** The last message: no more mutants. */
export interface EndMessage {
  /** `end`. */
  event: "end";
}

const seconds = z.number().finite().min(0);

/** The driver's first line. */
export const helloSchema = z.strictObject({
  event: z.literal("hello"),
  token: z.string(),
  pid: z.number().int(),
});

/** After the baseline: each collected test's CPU time and whether it passed. */
export const baselineSchema = z.strictObject({
  event: z.literal("baseline"),
  exit: z.number().int(),
  /** Threads still running: a fork would copy only one of them. */
  threads: z.number().int().min(0),
  tests: z.record(
    z.string(),
    z.strictObject({ cpu: seconds, passed: z.boolean() }),
  ),
  overhead: seconds,
});

/** How one mutant went. */
export const resultSchema = z.strictObject({
  event: z.literal("result"),
  id: z.string(),
  /**
   * `ran`; `not_covered` (no test executes its lines); `import_only` (its
   * lines ran only at import or collection, where the active mutant was
   * not yet chosen: pawl runs it the old way).
   */
  status: z.enum(["ran", "not_covered", "import_only"]),
  selected: z.array(z.string()),
  cpuLimit: seconds,
  cpu: seconds,
  wall: seconds,
  exit: z.number().int().nullable(),
  signal: z.string().nullable(),
  wallKilled: z.boolean(),
});

/** The driver's hello. */
export type DriverHello = z.infer<typeof helloSchema>;
/** The driver's baseline report. */
export type DriverBaseline = z.infer<typeof baselineSchema>;
/** The driver's report of one mutant. */
export type DriverResult = z.infer<typeof resultSchema>;

/** `value` as the message `schema` describes, or undefined when it is not one. */
export function readMessage<T>(
  schema: z.ZodType<T>,
  value: unknown,
): T | undefined {
  const parsed = schema.safeParse(value);
  return parsed.success ? parsed.data : undefined;
}

/**
 * Whether the child was stopped by a limit: its CPU timer or RLIMIT_CPU
 * (SIGPROF, SIGXCPU, or SIGKILL once past the limit), or the driver's
 * wall-clock ceiling.
 */
export function stoppedByLimit(result: DriverResult): boolean {
  if (result.wallKilled) return true;
  if (result.signal === "SIGPROF" || result.signal === "SIGXCPU") return true;
  return result.signal === "SIGKILL" && result.cpu >= result.cpuLimit;
}
