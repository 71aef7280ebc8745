/**
 * A strict structural schema of the Kubernetes objects deploy/kubernetes
 * uses, written from the Kubernetes API reference (v1.30) for the fields
 * those manifests set: apiVersion and kind must match, required fields are
 * required, and every object is strict, so a misspelt or misplaced field is
 * an error rather than something the API server would drop or refuse at
 * apply time. Works offline: no OpenAPI document is fetched.
 *
 * @module
 */
import { z } from "zod";

/** A resource quantity: `250m`, `1`, `1Gi`, `0.5`. */
const quantity = z.union([
  z.string().regex(/^[0-9]+(\.[0-9]+)?(m|k|M|G|T|Ki|Mi|Gi|Ti)?$/),
  z.number().nonnegative(),
]);
const dns1123 = z.string().regex(/^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/).max(63);
const labels = z.record(z.string(), z.string());
const port = z.number().int().min(1).max(65535);
const portRef = z.union([port, dns1123.max(15)]);

const objectMeta = z.strictObject({
  name: dns1123,
  namespace: dns1123.optional(),
  labels: labels.optional(),
  annotations: labels.optional(),
});
const templateMeta = z.strictObject({
  labels: labels,
  annotations: labels.optional(),
});
const labelSelector = z.strictObject({ matchLabels: labels });

const envVar = z.strictObject({
  name: z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/),
  value: z.string().optional(),
  valueFrom: z.strictObject({
    secretKeyRef: z.strictObject({ name: dns1123, key: z.string() }),
  }).optional(),
}).refine((e) => (e.value === undefined) !== (e.valueFrom === undefined), {
  message: "an env var has exactly one of value and valueFrom",
});

const probe = z.strictObject({
  httpGet: z.strictObject({ path: z.string(), port: portRef }).optional(),
  exec: z.strictObject({ command: z.array(z.string()).min(1) }).optional(),
  initialDelaySeconds: z.number().int().nonnegative().optional(),
  periodSeconds: z.number().int().positive().optional(),
  timeoutSeconds: z.number().int().positive().optional(),
  failureThreshold: z.number().int().positive().optional(),
});

/** Requests and limits for cpu and memory on every container. */
const amounts = z.strictObject({
  cpu: quantity,
  memory: quantity,
  "ephemeral-storage": quantity.optional(),
});
const resources = z.strictObject({ requests: amounts, limits: amounts });

const capability = z.string().regex(/^[A-Z_]+$/);
const containerSecurityContext = z.strictObject({
  runAsUser: z.number().int().nonnegative().optional(),
  runAsNonRoot: z.boolean().optional(),
  allowPrivilegeEscalation: z.boolean(),
  readOnlyRootFilesystem: z.boolean(),
  capabilities: z.strictObject({
    drop: z.array(capability),
    add: z.array(capability).optional(),
  }),
});

const container = z.strictObject({
  name: dns1123,
  image: z.string().min(1),
  imagePullPolicy: z.enum(["Always", "IfNotPresent", "Never"]).optional(),
  command: z.array(z.string()).optional(),
  args: z.array(z.string()).optional(),
  ports: z.array(z.strictObject({
    name: dns1123.max(15),
    containerPort: port,
    protocol: z.enum(["TCP", "UDP"]),
  })).optional(),
  env: z.array(envVar).optional(),
  readinessProbe: probe.optional(),
  livenessProbe: probe.optional(),
  resources,
  securityContext: containerSecurityContext,
  volumeMounts: z.array(z.strictObject({
    name: dns1123,
    mountPath: z.string().startsWith("/"),
    readOnly: z.boolean().optional(),
  })),
});

const volume = z.strictObject({
  name: dns1123,
  emptyDir: z.strictObject({ sizeLimit: quantity.optional() }).optional(),
  secret: z.strictObject({
    secretName: dns1123,
    defaultMode: z.number().int().min(0).max(0o777).optional(),
    items: z.array(z.strictObject({ key: z.string(), path: z.string() })),
  }).optional(),
  persistentVolumeClaim: z.strictObject({ claimName: dns1123 }).optional(),
}).refine(
  (v) =>
    [v.emptyDir, v.secret, v.persistentVolumeClaim].filter((s) =>
      s !== undefined
    ).length === 1,
  { message: "a volume has exactly one source" },
);

const podSpec = z.strictObject({
  automountServiceAccountToken: z.boolean().optional(),
  enableServiceLinks: z.boolean().optional(),
  terminationGracePeriodSeconds: z.number().int().nonnegative().optional(),
  securityContext: z.strictObject({
    runAsUser: z.number().int().nonnegative().optional(),
    runAsGroup: z.number().int().nonnegative().optional(),
    runAsNonRoot: z.boolean().optional(),
    fsGroup: z.number().int().nonnegative().optional(),
    seccompProfile: z.strictObject({
      type: z.enum(["RuntimeDefault", "Localhost", "Unconfined"]),
    }),
  }),
  containers: z.array(container).min(1),
  volumes: z.array(volume).optional(),
});

const persistentVolumeClaimTemplate = z.strictObject({
  metadata: z.strictObject({ name: dns1123, labels: labels.optional() }),
  spec: z.strictObject({
    accessModes: z.array(
      z.enum(["ReadWriteOnce", "ReadWriteOncePod", "ReadWriteMany"]),
    ).min(1),
    storageClassName: z.string().optional(),
    resources: z.strictObject({
      requests: z.strictObject({ storage: quantity }),
    }),
  }),
});

const statefulSet = z.strictObject({
  apiVersion: z.literal("apps/v1"),
  kind: z.literal("StatefulSet"),
  metadata: objectMeta,
  spec: z.strictObject({
    serviceName: dns1123,
    replicas: z.number().int().nonnegative(),
    podManagementPolicy: z.enum(["OrderedReady", "Parallel"]).optional(),
    updateStrategy: z.strictObject({
      type: z.enum(["RollingUpdate", "OnDelete"]),
    }).optional(),
    persistentVolumeClaimRetentionPolicy: z.strictObject({
      whenDeleted: z.enum(["Retain", "Delete"]),
      whenScaled: z.enum(["Retain", "Delete"]),
    }).optional(),
    selector: labelSelector,
    template: z.strictObject({ metadata: templateMeta, spec: podSpec }),
    volumeClaimTemplates: z.array(persistentVolumeClaimTemplate).optional(),
  }),
});

const service = z.strictObject({
  apiVersion: z.literal("v1"),
  kind: z.literal("Service"),
  metadata: objectMeta,
  spec: z.strictObject({
    clusterIP: z.literal("None").optional(),
    selector: labels,
    ports: z.array(z.strictObject({
      name: dns1123.max(15),
      port,
      targetPort: portRef,
      protocol: z.enum(["TCP", "UDP"]),
    })).min(1),
  }),
});

const namespace = z.strictObject({
  apiVersion: z.literal("v1"),
  kind: z.literal("Namespace"),
  metadata: z.strictObject({ name: dns1123, labels: labels.optional() }),
});

const secret = z.strictObject({
  apiVersion: z.literal("v1"),
  kind: z.literal("Secret"),
  metadata: objectMeta,
  type: z.literal("Opaque"),
  stringData: z.record(z.string().regex(/^[-._a-zA-Z0-9]+$/), z.string()),
});

const podDisruptionBudget = z.strictObject({
  apiVersion: z.literal("policy/v1"),
  kind: z.literal("PodDisruptionBudget"),
  metadata: objectMeta,
  spec: z.strictObject({
    minAvailable: z.union([z.number().int(), z.string()]).optional(),
    maxUnavailable: z.union([z.number().int(), z.string()]).optional(),
    selector: labelSelector,
  }).refine(
    (s) => (s.minAvailable === undefined) !== (s.maxUnavailable === undefined),
    {
      message:
        "a PodDisruptionBudget has one of minAvailable and maxUnavailable",
    },
  ),
});

const networkPolicyPeer = z.strictObject({
  podSelector: labelSelector.optional(),
  namespaceSelector: labelSelector.optional(),
  ipBlock: z.strictObject({
    cidr: z.string().regex(/^[0-9.]+\/[0-9]+$/),
    except: z.array(z.string().regex(/^[0-9.]+\/[0-9]+$/)).optional(),
  }).optional(),
});
const networkPolicyPort = z.strictObject({
  protocol: z.enum(["TCP", "UDP", "SCTP"]),
  port: portRef,
});
const networkPolicy = z.strictObject({
  apiVersion: z.literal("networking.k8s.io/v1"),
  kind: z.literal("NetworkPolicy"),
  metadata: objectMeta,
  spec: z.strictObject({
    podSelector: labelSelector,
    policyTypes: z.array(z.enum(["Ingress", "Egress"])),
    ingress: z.array(z.strictObject({
      from: z.array(networkPolicyPeer).optional(),
      ports: z.array(networkPolicyPort).optional(),
    })).optional(),
    egress: z.array(z.strictObject({
      to: z.array(networkPolicyPeer).optional(),
      ports: z.array(networkPolicyPort).optional(),
    })).optional(),
  }),
});

const kustomization = z.strictObject({
  apiVersion: z.literal("kustomize.config.k8s.io/v1beta1"),
  kind: z.literal("Kustomization"),
  resources: z.array(z.string()).min(1),
});

/** One schema per kind the manifests may use. */
export const KUBERNETES_SCHEMAS = {
  Namespace: namespace,
  Secret: secret,
  Service: service,
  StatefulSet: statefulSet,
  PodDisruptionBudget: podDisruptionBudget,
  NetworkPolicy: networkPolicy,
  Kustomization: kustomization,
} as const;

/** A kind with a schema. */
export type KubernetesKind = keyof typeof KUBERNETES_SCHEMAS;

/** The StatefulSet as the schema reads it. */
export type StatefulSet = z.infer<typeof statefulSet>;
/** A Service as the schema reads it. */
export type Service = z.infer<typeof service>;
/** A NetworkPolicy as the schema reads it. */
export type NetworkPolicy = z.infer<typeof networkPolicy>;
/** A PodDisruptionBudget as the schema reads it. */
export type PodDisruptionBudget = z.infer<typeof podDisruptionBudget>;
/** A Secret as the schema reads it. */
export type Secret = z.infer<typeof secret>;

/**
 * Check one parsed document against the schema of its `kind`; the problems
 * as readable lines, none when it conforms.
 */
export function kubernetesProblems(doc: unknown): string[] {
  const kind = (doc as { kind?: unknown } | null)?.kind;
  if (typeof kind !== "string" || !(kind in KUBERNETES_SCHEMAS)) {
    return [`kind ${JSON.stringify(kind)} has no schema here`];
  }
  const result = KUBERNETES_SCHEMAS[kind as KubernetesKind].safeParse(doc);
  if (result.success) return [];
  return result.error.issues.map((issue) =>
    `${kind} ${issue.path.join(".")}: ${issue.message}`
  );
}
