/**
 * Oracle strength by mutation, end to end: a real library whose
 * registered Hypothesis properties pin its behaviour exactly, judged by
 * the real CLI in the real sandbox with `[mutation]` on. Each weakening
 * below hides no bug (the code is unchanged) and passes plain pytest; the
 * kill-set rule alone must reject it, because the head's property lets a
 * mutant of the code survive that the base's property kills. An honest
 * strengthening is accepted, and a re-run gives the same verdict from the
 * runner's cache.
 */
import assert from "node:assert/strict";
import { Ajv } from "ajv";
import {
  check,
  explain,
  type FindingJson,
  mapPool,
  type PawlResult,
} from "./_cli.ts";
import { L002, layout002Base } from "./_layouts.ts";
import { buildRepo, edit } from "./_repo.ts";
import { BASE, CORE, HONEST, TEST, WEAK } from "./_mutation_kit.ts";

/** The mutation-testing-elements schema, as its npm package publishes it. */
const SCHEMA = new URL(
  "../node_modules/mutation-testing-report-schema/dist/src/mutation-testing-report-schema.json",
  import.meta.url,
);

/** uids of this file's own CLI runs (every mutant sandbox leases from them). */
const UIDS = "64500-64563";

function weakened(result: PawlResult): FindingJson[] {
  return (result.verdict?.findings ?? []).filter((f) =>
    f.rule === "property.oracle_weakened"
  );
}

/** The verdict's \`tests.mutation\` counts. */
function mutationOf(result: PawlResult): Record<string, number> | undefined {
  const tests = result.verdict?.tests as unknown as
    | { mutation?: Record<string, number> }
    | null
    | undefined;
  return tests?.mutation;
}

function judge(
  repo: string,
  head: string,
  extra: readonly string[] = [],
): Promise<PawlResult> {
  return check(repo, head, { env: { PAWL_SANDBOX_UIDS: UIDS }, extra });
}

Deno.test("the kill-set rule rejects weakened properties no bug was hidden behind, and accepts an honest strengthening", async (t) => {
  const heads: Record<string, Record<string, (t: string) => string>> = {
    "honest/stronger": { [TEST]: HONEST },
  };
  for (const [branch, w] of Object.entries(WEAK)) {
    heads[branch] = { [TEST]: w.edit };
  }
  await using repo = await buildRepo({ base: BASE, heads });
  const reportDir = await Deno.makeTempDir({ prefix: "pawl-mutation-report-" });
  const reportPath = `${reportDir}/mutation.json`;

  const branches = [...Object.keys(WEAK), "honest/stronger"];
  const results = new Map(
    await mapPool(
      branches,
      2,
      async (b) =>
        [
          b,
          await judge(
            repo.dir,
            b,
            b === "honest/stronger" ? ["--mutation-report", reportPath] : [],
          ),
        ] as const,
    ),
  );

  for (const [branch, w] of Object.entries(WEAK)) {
    await t.step(
      `${branch}: rejected, by the kill-set rule where the sources alone do not`,
      () => {
        const result = results.get(branch)!;
        assert.equal(result.code, 1, explain(result));
        const m0 = result.verdict?.tests as unknown as
          | { mutation?: { notRun?: string } }
          | undefined;
        if (m0?.mutation?.notRun !== undefined) {
          // A rule that reads only the sources rejects it first: no mutant
          // runs, since none could change the decision.
          assert.match(m0.mutation.notRun, /already rejects/);
          assert.ok(
            (result.verdict?.findings ?? []).some((f) =>
              f.blocking && f.path === TEST
            ),
            explain(result),
          );
          assert.deepEqual(weakened(result), []);
          return;
        }
        // Judged by this rule's findings only: the syntactic rules are not
        // what decides here.
        const found = weakened(result);
        assert.ok(found.length > 0, explain(result));
        assert.ok(found.every((f) => f.blocking && f.layer === "property"));
        const mine = found.find((f) => f.message.includes(`"${w.property}"`));
        assert.ok(mine !== undefined, explain(result));
        assert.equal(mine.path, CORE);
        assert.match(mine.message, new RegExp(`--- ${CORE}:${mine.line}\\n`));
        assert.match(mine.message, /\n\+.*\n/);
        const m = mutationOf(result);
        assert.ok((m?.weakened ?? 0) > 0, explain(result));
      },
    );
  }

  await t.step("honest/stronger: accepted, with the mutants counted", () => {
    const result = results.get("honest/stronger")!;
    assert.equal(result.code, 0, explain(result));
    assert.deepEqual(weakened(result), []);
    const m = mutationOf(result);
    assert.ok(m !== undefined, explain(result));
    assert.ok((m.ran ?? 0) > 0 && (m.killed ?? 0) > 0, JSON.stringify(m));
    assert.equal(
      m.ran,
      (m.killed ?? 0) + (m.survived ?? 0) + (m.timedOut ?? 0),
    );
    assert.equal(m.weakened, 0);
    assert.equal(m.cutByBudget, 0);
  });

  await t.step(
    "--mutation-report writes a report the published schema accepts",
    async () => {
      const schema = JSON.parse(await Deno.readTextFile(SCHEMA));
      const validate = new Ajv({ allErrors: true, strict: false }).compile(
        schema,
      );
      const report = JSON.parse(await Deno.readTextFile(reportPath));
      await Deno.remove(reportDir, { recursive: true });
      assert.equal(validate(report), true, JSON.stringify(validate.errors));
      const m = mutationOf(results.get("honest/stronger")!)!;
      const mutants = report.files[CORE].mutants as { status: string }[];
      assert.equal(mutants.length, m.ran);
      assert.equal(
        mutants.filter((x) => x.status === "Killed").length,
        m.killed,
      );
      assert.equal(report.files[CORE].source, BASE[CORE]);
    },
  );

  await t.step("a re-run gives the same verdict", async () => {
    const first = results.get("weak/membership")!;
    const again = await judge(repo.dir, "weak/membership");
    assert.equal(again.code, first.code, explain(again));
    assert.equal(again.outText, first.outText);
  });
});

/** A module of the code side that no property imports. */
const CLI = "src/kit/cli.py";

/** What the progress says of one judgement's mutants. */
function fromCache(result: PawlResult): { judged: number; cached: number } {
  const m = result.stderr.match(
    /mutation: (\d+) mutants judged, (\d+) of them from the runner's cache/,
  );
  assert.ok(m !== null, explain(result));
  return { judged: Number(m[1]), cached: Number(m[2]) };
}

/** A temp directory of its own for a check, and so a runner cache of its own. */
async function tempRoot(): Promise<string> {
  // Short: the observer's socket lives under it.
  const dir = await Deno.makeTempDir({ dir: "/tmp", prefix: "pm-" });
  await Deno.chmod(dir, 0o755);
  return dir;
}

Deno.test("every pull request on a base shares the base's mutant runs, reruns those whose code it changed, and gets the verdict a cold cache gives", async (t) => {
  const heads: Record<string, Record<string, (t: string) => string>> = {
    "tests/stronger": { [TEST]: HONEST },
    "tests/membership": { [TEST]: WEAK["weak/membership"]!.edit },
    // With the test side changed too: with the base's, nothing runs.
    "code/cli": {
      [TEST]: HONEST,
      [CLI]: (t) => `${t}# Prints the version too.\n`,
    },
    // The mutants of core.py are the same ones, at the same places; the
    // file they are in changed.
    "code/core": {
      [TEST]: HONEST,
      [CORE]: (t) => `${t}\n\n# Helpers end here.\n`,
    },
    "code/only": { [CORE]: (t) => `${t}\n\n# Helpers end here.\n` },
  };
  await using repo = await buildRepo({
    base: { ...BASE, [CLI]: 'print("kit")\n' },
    heads,
  });
  const roots: string[] = [];
  const root = async () => {
    roots.push(await tempRoot());
    return roots.at(-1)!;
  };
  try {
    const warm = await root();
    const order = Object.keys(heads);
    const judged = (head: string, dir: string) =>
      check(repo.dir, head, {
        env: { PAWL_SANDBOX_UIDS: UIDS, TMPDIR: dir },
        quiet: false,
      });
    // One after the other on one cache, and beside them each alone on an
    // empty one. The first in turn finds the cache empty: it is its own
    // cold run.
    const [inTurn, coldRest] = await Promise.all([
      (async () => {
        const out = new Map<string, PawlResult>();
        for (const head of order) out.set(head, await judged(head, warm));
        return out;
      })(),
      mapPool(
        order.slice(1),
        1,
        async (head) => await judged(head, await root()),
      ),
    ]);
    const cold = [inTurn.get(order[0]!)!, ...coldRest];
    const expected: Record<string, [number, "all" | "none" | "not run"]> = {
      "tests/stronger": [0, "none"],
      "tests/membership": [1, "all"],
      "code/cli": [0, "all"],
      "code/core": [0, "none"],
      "code/only": [0, "not run"],
    };
    for (const [i, head] of order.entries()) {
      const [code, hits] = expected[head]!;
      await t.step(
        `${head}: the base's runs ${
          hits === "all"
            ? "all from the cache"
            : hits === "none"
            ? "run again"
            : "not needed"
        }, and the verdict of a cold cache`,
        () => {
          const warmRun = inTurn.get(head)!;
          const coldRun = cold[i]!;
          assert.equal(warmRun.code, code, explain(warmRun));
          assert.equal(warmRun.outText, coldRun.outText);
          assert.equal(warmRun.stdout, coldRun.stdout);
          if (hits === "not run") {
            assert.ok(!/mutation: \d+ mutants judged/.test(warmRun.stderr));
            assert.match(
              JSON.parse(warmRun.outText ?? "{}").tests?.mutation?.notRun ?? "",
              /the head's test side is the base's/,
            );
            return;
          }
          const { judged: n, cached } = fromCache(warmRun);
          assert.ok(n > 0, explain(warmRun));
          assert.equal(cached, hits === "all" ? n : 0, explain(warmRun));
          assert.equal(fromCache(coldRun).cached, 0, explain(coldRun));
        },
      );
    }
    await t.step(
      "the same inputs and the same cache contents give the same verdict",
      async () => {
        const copies = [await root(), await root()];
        for (const dir of copies) {
          const out = await new Deno.Command("cp", {
            args: ["-a", `${warm}/pawl-mutation-cache`, dir],
          }).output();
          assert.ok(out.success);
        }
        const [a, b] = await Promise.all(
          copies.map((dir) => judged("tests/membership", dir)),
        );
        assert.equal(a!.outText, inTurn.get("tests/membership")!.outText);
        assert.equal(b!.outText, a!.outText);
        assert.deepEqual(fromCache(b!), fromCache(a!));
      },
    );
  } finally {
    for (const dir of roots) await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("layout 002: a contract test that stops drawing empty currency codes is rejected by the kill-set rule alone", async () => {
  await using repo = await buildRepo({
    base: {
      ...layout002Base(),
      "pawl.toml": "[mutation]\nenabled = true\nmax_mutants = 60\n",
    },
    heads: {
      "weak/no-empty-suffix": {
        [L002.applyTest]: edit(
          'suffix = rng.choice(["usd", "eur", ""])',
          'suffix = rng.choice(["usd", "eur"])',
        ),
      },
    },
  });
  const result = await judge(repo.dir, "weak/no-empty-suffix");
  assert.equal(result.code, 1, explain(result));
  const found = weakened(result);
  const mine = found.find((f) =>
    f.message.includes('"ledger.apply.idempotent"')
  );
  assert.ok(mine !== undefined && mine.blocking, explain(result));
  assert.equal(mine.path, L002.ledger);
  assert.ok(
    !found.some((f) => f.message.includes('"ledger.split_id.roundtrip"')),
    "the untouched split contract is not weakened",
  );
});
