/**
 * deploy/kubernetes as a platform engineer would apply it: every manifest
 * conforms to the schema of its kind (tests/_kubernetes.ts, strict, so a
 * misspelt field fails), the kustomizations apply every manifest, and the
 * objects fit together — the signed envelopes live on a kept volume, every
 * container has requests and limits, every secret file a variable names is
 * mounted from a Secret that has it, the selectors select the pods, and the
 * network policy lets the server reach only DNS, HTTPS and its database.
 */
import assert from "node:assert/strict";
import { parseAllDocuments } from "yaml";
import { ROOT } from "./_cli.ts";
import {
  kubernetesProblems,
  type NetworkPolicy,
  type PodDisruptionBudget,
  type Secret,
  type Service,
  type StatefulSet,
} from "./_kubernetes.ts";

const DIR = "deploy/kubernetes";

// deno-lint-ignore no-explicit-any
type Json = any;

interface Manifest {
  file: string;
  doc: Json;
}

async function yamlFiles(dir: string): Promise<string[]> {
  const found: string[] = [];
  for await (const entry of Deno.readDir(`${ROOT}/${dir}`)) {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory) found.push(...await yamlFiles(path));
    else if (/\.ya?ml$/.test(entry.name)) found.push(path);
  }
  return found.sort();
}

const FILES = await yamlFiles(DIR);
const MANIFESTS: Manifest[] = [];
for (const file of FILES) {
  for (
    const parsed of parseAllDocuments(
      await Deno.readTextFile(`${ROOT}/${file}`),
    )
  ) {
    assert.deepEqual(parsed.errors, [], file);
    MANIFESTS.push({ file, doc: parsed.toJS() });
  }
}

function ofKind<T>(kind: string): (T & { file: string })[] {
  return MANIFESTS.filter((m) => m.doc.kind === kind).map((m) => ({
    ...m.doc,
    file: m.file,
  }));
}

const STATEFUL_SETS = ofKind<StatefulSet>("StatefulSet");
const SERVICES = ofKind<Service>("Service");
const SECRETS = ofKind<Secret>("Secret");
const SERVER = STATEFUL_SETS.find((s) => s.metadata.name === "pawl-serve")!;
const POSTGRES = STATEFUL_SETS.find((s) =>
  s.metadata.name === "pawl-postgres"
)!;

function env(set: StatefulSet, name: string): string | undefined {
  return set.spec.template.spec.containers[0]!.env?.find((e) => e.name === name)
    ?.value;
}

Deno.test("every manifest in deploy/kubernetes conforms to the schema of its kind", async (t) => {
  assert.ok(MANIFESTS.length >= 12, `only ${MANIFESTS.length} manifests`);
  for (const m of MANIFESTS) {
    await t.step(
      `${m.file}: ${m.doc.kind} ${m.doc.metadata?.name ?? ""}`,
      () => {
        assert.deepEqual(kubernetesProblems(m.doc), []);
      },
    );
  }
});

Deno.test("the schema rejects a misspelt or misplaced field in each kind", async (t) => {
  const cases: { name: string; kind: string; edit: (doc: Json) => void }[] = [
    {
      name: "resources spelt resource",
      kind: "StatefulSet",
      edit: (d) => {
        const c = d.spec.template.spec.containers[0];
        c.resource = c.resources;
        delete c.resources;
      },
    },
    {
      name: "volumeClaimTemplate without the s",
      kind: "StatefulSet",
      edit: (d) => {
        d.spec.volumeClaimTemplate = d.spec.volumeClaimTemplates;
        delete d.spec.volumeClaimTemplates;
      },
    },
    {
      name: "readOnly in the wrong case",
      kind: "StatefulSet",
      edit: (d) => {
        d.spec.template.spec.containers[0].volumeMounts[0].readonly = true;
      },
    },
    {
      name: "a memory limit that is no quantity",
      kind: "StatefulSet",
      edit: (d) => {
        d.spec.template.spec.containers[0].resources.limits.memory = "4 GB";
      },
    },
    {
      name: "no limits",
      kind: "StatefulSet",
      edit: (d) => delete d.spec.template.spec.containers[0].resources.limits,
    },
    {
      name: "namespace spelt namespce",
      kind: "Service",
      edit: (d) => {
        d.metadata.namespce = d.metadata.namespace;
      },
    },
    {
      name: "targetport in the wrong case",
      kind: "Service",
      edit: (d) => {
        d.spec.ports[0].targetport = 8080;
      },
    },
    {
      name: "maxUnavailable misspelt",
      kind: "PodDisruptionBudget",
      edit: (d) => {
        d.spec.maxUnavailble = d.spec.maxUnavailable;
        delete d.spec.maxUnavailable;
      },
    },
    {
      name: "policyType without the s",
      kind: "NetworkPolicy",
      edit: (d) => {
        d.spec.policyType = d.spec.policyTypes;
        delete d.spec.policyTypes;
      },
    },
    {
      name: "an unknown protocol",
      kind: "NetworkPolicy",
      edit: (d) => {
        d.spec.ingress[0].ports[0].protocol = "HTTP";
      },
    },
    {
      name: "the wrong apiVersion",
      kind: "PodDisruptionBudget",
      edit: (d) => {
        d.apiVersion = "policy/v1beta1";
      },
    },
    {
      name: "data instead of stringData",
      kind: "Secret",
      edit: (d) => {
        d.data = d.stringData;
        delete d.stringData;
      },
    },
    {
      name: "resource instead of resources",
      kind: "Kustomization",
      edit: (d) => {
        d.resource = d.resources;
        delete d.resources;
      },
    },
  ];
  for (const c of cases) {
    await t.step(`${c.kind}: ${c.name}`, () => {
      const original = MANIFESTS.find((m) => m.doc.kind === c.kind)!.doc;
      const doc = structuredClone(original);
      assert.deepEqual(kubernetesProblems(doc), []);
      c.edit(doc);
      assert.notDeepEqual(kubernetesProblems(doc), []);
    });
  }
});

Deno.test("the kustomizations apply every manifest but the example Secrets, all in namespace pawl", async () => {
  const applied = new Set<string>();
  for (const k of ofKind<{ resources: string[] }>("Kustomization")) {
    const dir = k.file.slice(0, k.file.lastIndexOf("/"));
    for (const resource of k.resources) {
      const path = `${dir}/${resource}`;
      const stat = await Deno.stat(`${ROOT}/${path}`);
      if (stat.isDirectory) {
        await Deno.stat(`${ROOT}/${path}/kustomization.yaml`);
      } else {
        applied.add(path);
      }
    }
  }
  const manifests = FILES.filter((f) =>
    !f.endsWith("/kustomization.yaml") && !f.endsWith("secret.example.yaml")
  );
  assert.deepEqual([...applied].sort(), manifests);
  for (const m of MANIFESTS) {
    if (m.doc.kind === "Kustomization" || m.doc.kind === "Namespace") continue;
    assert.equal(m.doc.metadata.namespace, "pawl", m.file);
  }
});

Deno.test("the server keeps what it signs on a volume that outlives its pod", () => {
  const dataDir = env(SERVER, "PAWL_SERVE_DATA_DIR");
  assert.equal(dataDir, "/var/lib/pawl");
  const container = SERVER.spec.template.spec.containers[0]!;
  const mount = container.volumeMounts.find((v) => v.mountPath === dataDir);
  assert.ok(mount !== undefined);
  const claim = SERVER.spec.volumeClaimTemplates?.find((c) =>
    c.metadata.name === mount.name
  );
  assert.ok(claim !== undefined, "the data dir is not a PersistentVolumeClaim");
  assert.ok(
    !(SERVER.spec.template.spec.volumes ?? []).some((v) =>
      v.name === mount.name
    ),
    "a pod volume shadows the claim",
  );
  assert.deepEqual(claim.spec.accessModes, ["ReadWriteOnce"]);
  assert.deepEqual(SERVER.spec.persistentVolumeClaimRetentionPolicy, {
    whenDeleted: "Retain",
    whenScaled: "Retain",
  });
  // Nothing else is mounted over the envelopes.
  for (const other of container.volumeMounts) {
    if (other === mount) continue;
    assert.ok(
      !`${other.mountPath}/`.startsWith(`${dataDir}/`),
      other.mountPath,
    );
  }
  // The documented way to fetch an envelope later reads this path.
  const serve = Deno.readTextFileSync(`${ROOT}/docs/serve.md`);
  assert.match(
    serve,
    new RegExp(
      `kubectl --namespace=pawl exec "\\$pod" -c pawl -- cat ${dataDir}/verdicts/`,
    ),
  );
});

Deno.test("every container has cpu and memory requests within its limits", () => {
  const amount = (q: string | number): number => {
    if (typeof q === "number") return q;
    const m = /^([0-9.]+)(m|k|M|G|T|Ki|Mi|Gi|Ti)?$/.exec(q)!;
    const unit = {
      m: 1e-3,
      k: 1e3,
      M: 1e6,
      G: 1e9,
      T: 1e12,
      Ki: 2 ** 10,
      Mi: 2 ** 20,
      Gi: 2 ** 30,
      Ti: 2 ** 40,
    }[m[2] ?? ""] ?? 1;
    return Number(m[1]) * unit;
  };
  let containers = 0;
  for (const set of STATEFUL_SETS) {
    for (const c of set.spec.template.spec.containers) {
      containers++;
      for (const key of ["cpu", "memory"] as const) {
        assert.ok(
          amount(c.resources.requests[key]) <= amount(c.resources.limits[key]),
          `${set.metadata.name}/${c.name} ${key}`,
        );
      }
    }
  }
  assert.equal(containers, 2);
});

Deno.test("every secret a variable names is a file mounted from a Secret that has it", () => {
  const keys = new Map(
    SECRETS.map((s) => [s.metadata.name, Object.keys(s.stringData)]),
  );
  for (const set of STATEFUL_SETS) {
    const volumes = set.spec.template.spec.volumes ?? [];
    for (const c of set.spec.template.spec.containers) {
      for (const e of c.env ?? []) {
        if (e.valueFrom !== undefined) {
          const ref = e.valueFrom.secretKeyRef;
          assert.ok(keys.get(ref.name)?.includes(ref.key), e.name);
          continue;
        }
        if (!e.name.endsWith("_FILE")) {
          // A password, or a URL with one, is never a literal value.
          assert.doesNotMatch(
            e.value ?? "",
            /:\/\/[^/@:]*:[^/@]*@|password/i,
            e.name,
          );
          continue;
        }
        const file = e.value!;
        const mount = c.volumeMounts.find((v) =>
          file.startsWith(`${v.mountPath}/`)
        );
        assert.ok(mount !== undefined, `${e.name}: "${file}" is not mounted`);
        assert.equal(mount.readOnly, true, e.name);
        const source = volumes.find((v) => v.name === mount.name)?.secret;
        assert.ok(source !== undefined, `${e.name}: not from a Secret`);
        const item = source.items.find((i) =>
          `${mount.mountPath}/${i.path}` === file
        );
        assert.ok(item !== undefined, `${e.name}: no item "${file}"`);
        assert.ok(keys.get(source.secretName)?.includes(item.key), e.name);
      }
    }
  }
  assert.equal(
    env(SERVER, "PAWL_SERVE_QUEUE_PASSWORD_FILE"),
    "/run/secrets/pawl-queue/password",
  );
  // The URL the server reads holds no password.
  assert.doesNotMatch(env(SERVER, "PAWL_SERVE_QUEUE_URL") ?? "", /:[^/@]*@/);
  assert.equal(
    env(POSTGRES, "POSTGRES_PASSWORD_FILE"),
    "/run/secrets/postgres/password",
  );
});

Deno.test("the Services, the budget and the policies select the pods they are about", () => {
  const selects = (selector: Record<string, string>, set: StatefulSet) =>
    Object.entries(selector).every(([k, v]) =>
      set.spec.template.metadata.labels[k] === v
    );
  for (const set of STATEFUL_SETS) {
    assert.ok(selects(set.spec.selector.matchLabels, set));
    const governing = SERVICES.find((s) =>
      s.metadata.name === set.spec.serviceName
    );
    assert.ok(governing !== undefined, set.spec.serviceName);
  }
  for (const s of SERVICES) {
    const set = STATEFUL_SETS.find((set) => selects(s.spec.selector, set));
    assert.ok(set !== undefined, s.metadata.name);
    const names = set.spec.template.spec.containers.flatMap((c) =>
      (c.ports ?? []).map((p) => p.name)
    );
    for (const p of s.spec.ports) {
      assert.ok(
        typeof p.targetPort === "number" || names.includes(p.targetPort),
      );
    }
  }
  const [budget] = ofKind<PodDisruptionBudget>("PodDisruptionBudget");
  assert.ok(selects(budget!.spec.selector.matchLabels, SERVER));
  assert.equal(budget!.spec.maxUnavailable, 1);
  for (const policy of ofKind<NetworkPolicy>("NetworkPolicy")) {
    assert.ok(
      STATEFUL_SETS.some((set) =>
        selects(policy.spec.podSelector.matchLabels, set)
      ),
      policy.metadata.name,
    );
    assert.deepEqual(policy.spec.policyTypes, ["Ingress", "Egress"]);
  }
});

Deno.test("the server's network policy allows DNS, HTTPS and the database out, and its one port in", () => {
  const policy = ofKind<NetworkPolicy>("NetworkPolicy").find((p) =>
    p.metadata.name === "pawl-serve"
  )!;
  const port =
    SERVER.spec.template.spec.containers[0]!.ports![0]!.containerPort;
  assert.deepEqual(policy.spec.ingress, [{
    ports: [{ protocol: "TCP", port }],
  }]);
  const egress = policy.spec.egress!;
  const allowed = egress.flatMap((rule) =>
    (rule.ports ?? []).map((p) => `${p.protocol}/${p.port}`)
  ).sort();
  assert.deepEqual(allowed, ["TCP/443", "TCP/53", "TCP/5432", "UDP/53"]);
  for (const rule of egress) {
    assert.ok((rule.to ?? []).length > 0, "an egress rule open to anywhere");
    assert.ok((rule.ports ?? []).length > 0, "an egress rule on every port");
  }
  const https = egress.find((r) => r.ports!.some((p) => p.port === 443))!;
  const except = https.to![0]!.ipBlock!.except!;
  for (
    const range of [
      "10.0.0.0/8",
      "172.16.0.0/12",
      "192.168.0.0/16",
      "169.254.0.0/16",
    ]
  ) {
    assert.ok(except.includes(range), range);
  }
  const database = egress.find((r) => r.ports!.some((p) => p.port === 5432))!;
  assert.ok(
    Object.entries(database.to![0]!.podSelector!.matchLabels).every(([k, v]) =>
      POSTGRES.spec.template.metadata.labels[k] === v
    ),
  );
});
