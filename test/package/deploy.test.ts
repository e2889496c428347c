// The container recipe, compose file and Kubernetes manifest, checked where no container runtime is available: the
// manifests against the Kubernetes API schemas, and every setting they pass against the service's own settings.
// (The install step and the health check they run are executed by package.test.ts.)
import { describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import path from "node:path";
import { parse, parseAllDocuments } from "yaml";
import { Deployment } from "kubernetes-models/apps/v1/Deployment";
import { HorizontalPodAutoscaler } from "kubernetes-models/autoscaling/v2/HorizontalPodAutoscaler";
import { Service } from "kubernetes-models/v1/Service";
import { repoRoot } from "../../compiler/paths.js";
import { SETTINGS_DOC } from "../../runtime/http/config.js";
import { dockerfileInstructions } from "./dockerfile.js";

const SETTING_NAMES = new Set(SETTINGS_DOC.map((setting) => setting.name));
const MODELS = { "apps/v1/Deployment": Deployment, "v1/Service": Service, "autoscaling/v2/HorizontalPodAutoscaler": HorizontalPodAutoscaler };
// Parsed YAML, walked by the tests field by field.
type Manifest = Record<string, any>;

function validateAgainstApi(manifest: Manifest): void {
  const Model = MODELS[`${manifest.apiVersion}/${manifest.kind}` as keyof typeof MODELS];
  if (Model === undefined) throw new Error(`no schema checked for ${manifest.apiVersion} ${manifest.kind}`);
  new Model(manifest as never).validate();
}

describe("deploy/kubernetes.yaml", () => {
  const manifests = parseAllDocuments(readFileSync(path.join(repoRoot, "deploy/kubernetes.yaml"), "utf8")).map((document) => document.toJS() as Manifest);
  const byKind = (kind: string): Manifest => manifests.find((manifest) => manifest.kind === kind)!;

  it("holds a Deployment, a Service and a HorizontalPodAutoscaler, each valid against the Kubernetes API schema", () => {
    expect(manifests.map((manifest) => manifest.kind).sort()).toEqual(["Deployment", "HorizontalPodAutoscaler", "Service"]);
    for (const manifest of manifests) expect(() => validateAgainstApi(manifest)).not.toThrow();
  });

  it("the schema check rejects a wrong manifest", () => {
    const broken = structuredClone(byKind("Deployment"));
    broken.spec.replicas = "two";
    expect(() => validateAgainstApi(broken)).toThrow(/replicas must be integer/);
  });

  it("the Deployment probes /healthz and /readyz on the API port, takes REDIS_URL from a Secret and sets resource requests", () => {
    const pod = byKind("Deployment").spec.template.spec;
    const [container] = pod.containers;
    const env = new Map<string, Manifest>(container.env.map((variable: Manifest) => [variable.name, variable]));
    for (const name of env.keys()) expect(SETTING_NAMES, `${name} is not a setting of the service`).toContain(name);
    const http = container.ports.find((port: Manifest) => port.name === "http");
    expect(String(http.containerPort)).toBe(env.get("PORT")!.value);
    expect(container.ports.find((port: Manifest) => port.name === "metrics").containerPort).toBe(Number(env.get("METRICS_PORT")!.value));
    expect(container.livenessProbe.httpGet).toEqual({ path: "/healthz", port: "http" });
    expect(container.readinessProbe.httpGet).toEqual({ path: "/readyz", port: "http" });
    expect(env.get("REDIS_URL")!.valueFrom.secretKeyRef).toMatchObject({ name: expect.any(String), key: expect.any(String) });
    expect(container.resources.requests).toMatchObject({ cpu: expect.any(String), memory: expect.any(String) });
    expect(Number(env.get("WORKERS")!.value)).toBe(Number(container.resources.limits.cpu));
    expect(pod.terminationGracePeriodSeconds * 1000).toBeGreaterThan(Number(env.get("SHUTDOWN_TIMEOUT_MS")!.value));
    expect(pod.securityContext.runAsNonRoot).toBe(true);
  });

  it("the Service selects the Deployment's pods and the autoscaler scales it on CPU", () => {
    const deployment = byKind("Deployment");
    const podLabels = deployment.spec.template.metadata.labels;
    const service = byKind("Service");
    expect(podLabels).toMatchObject(service.spec.selector);
    const portNames = deployment.spec.template.spec.containers[0].ports.map((port: Manifest) => port.name);
    for (const port of service.spec.ports) expect(portNames).toContain(port.targetPort);
    const autoscaler = byKind("HorizontalPodAutoscaler");
    expect(autoscaler.spec.scaleTargetRef).toEqual({ apiVersion: "apps/v1", kind: "Deployment", name: deployment.metadata.name });
    expect(autoscaler.spec.metrics).toEqual([expect.objectContaining({ type: "Resource", resource: expect.objectContaining({ name: "cpu" }) })]);
  });
});

describe("Dockerfile", () => {
  const instructions = dockerfileInstructions(readFileSync(path.join(repoRoot, "Dockerfile"), "utf8"));
  const runtimeStage = instructions.slice(instructions.map((instruction) => instruction.keyword).lastIndexOf("FROM"));
  const find = (keyword: string) => runtimeStage.filter((instruction) => instruction.keyword === keyword).map((instruction) => instruction.argument);

  it("builds with ../shared as a build context and installs with the script the package test runs", () => {
    expect(instructions.filter((instruction) => instruction.keyword === "FROM")).toHaveLength(2);
    expect(instructions.some((instruction) => instruction.keyword === "COPY" && instruction.argument.startsWith("--from=shared "))).toBe(true);
    expect(instructions.some((instruction) => instruction.keyword === "RUN" && /\bscripts\/install-from-tarball\.sh \S+\.tgz \/opt\/oscal-validator$/.test(instruction.argument))).toBe(true);
  });

  it("the runtime image holds only the installed package, runs as a non-root user and checks /healthz", () => {
    expect(find("COPY")).toEqual(["--from=build /opt/oscal-validator /opt/oscal-validator"]);
    expect(find("USER")).toEqual(["node"]);
    expect(find("HEALTHCHECK").join("")).toContain("/healthz");
    const bins = Object.keys((JSON.parse(readFileSync(path.join(repoRoot, "package.json"), "utf8")) as { bin: Record<string, string> }).bin);
    expect(bins).toContain(JSON.parse(find("ENTRYPOINT")[0]!)[0]);
  });
});

describe("compose.yaml", () => {
  const compose = parse(readFileSync(path.join(repoRoot, "compose.yaml"), "utf8")) as Manifest;

  it("runs the image built with ../shared, with REDIS_URL pointing at its Redis service", () => {
    const validator = compose.services.validator;
    expect(validator.build.additional_contexts).toEqual({ shared: "../shared" });
    for (const name of Object.keys(validator.environment)) expect(SETTING_NAMES).toContain(name);
    expect(new URL(validator.environment.REDIS_URL as string).hostname).toBe("redis");
    expect(compose.services.redis.image).toMatch(/^redis:/);
    expect(validator.ports).toEqual([`${validator.environment.PORT}:${validator.environment.PORT}`]);
  });
});
