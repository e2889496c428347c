// The container recipe, compose file and Kubernetes manifest, checked where no container runtime is available: the
// manifests against the Kubernetes API schemas, and every setting they pass against the service's own settings.
// (The install step and the health check they run are executed by package.test.ts.)
import { describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import path from "node:path";
import { parse, parseAllDocuments } from "yaml";
import { Deployment } from "kubernetes-models/apps/v1/Deployment";
import { HorizontalPodAutoscaler } from "kubernetes-models/autoscaling/v2/HorizontalPodAutoscaler";
import { ConfigMap } from "kubernetes-models/v1/ConfigMap";
import { Service } from "kubernetes-models/v1/Service";
import { repoRoot } from "../../compiler/paths.js";
import { SETTINGS_DOC } from "../../runtime/http/config.js";
import { dockerfileInstructions } from "./dockerfile.js";
import { nginxTemplateVariables, renderNginxTemplate } from "./nginx-template.js";

const SETTING_NAMES = new Set(SETTINGS_DOC.map((setting) => setting.name));
const MODELS = { "v1/ConfigMap": ConfigMap, "apps/v1/Deployment": Deployment, "v1/Service": Service, "autoscaling/v2/HorizontalPodAutoscaler": HorizontalPodAutoscaler };
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

  it("holds a ConfigMap, a Deployment, a Service and a HorizontalPodAutoscaler, each valid against the Kubernetes API schema", () => {
    expect(manifests.map((manifest) => manifest.kind).sort()).toEqual(["ConfigMap", "Deployment", "HorizontalPodAutoscaler", "Service"]);
    for (const manifest of manifests) expect(() => validateAgainstApi(manifest)).not.toThrow();
  });

  it("the schema check rejects a wrong manifest", () => {
    const broken = structuredClone(byKind("Deployment"));
    broken.spec.replicas = "two";
    expect(() => validateAgainstApi(broken)).toThrow(/replicas must be integer/);
  });

  it("the service listens on loopback with TRANSPORT=uws, nginx in front of it with the deploy/ configuration; probes pass through nginx", () => {
    const pod = byKind("Deployment").spec.template.spec;
    const [container, nginx] = pod.containers;
    const env = new Map<string, Manifest>(container.env.map((variable: Manifest) => [variable.name, variable]));
    for (const name of env.keys()) expect(SETTING_NAMES, `${name} is not a setting of the service`).toContain(name);
    expect(Object.fromEntries(["HOST", "TRANSPORT", "TRUST_PROXY"].map((name) => [name, env.get(name)!.value]))).toEqual({ HOST: "127.0.0.1", TRANSPORT: "uws", TRUST_PROXY: "1" });
    expect(new URL(env.get("PUBLIC_BASE_URL")!.value as string).hostname).not.toMatch(/^(localhost|127\.)/);
    expect(container.ports).toBeUndefined();
    const port = (name: string) => String(nginx.ports.find((candidate: Manifest) => candidate.name === name).containerPort);
    const configMap = byKind("ConfigMap");
    expect(pod.volumes).toContainEqual({ name: expect.any(String), configMap: { name: configMap.metadata.name } });
    expect(nginx.volumeMounts).toContainEqual(expect.objectContaining({ mountPath: "/etc/nginx/conf.d" }));
    expect(configMap.data["default.conf"]).toBe(
      renderNginxTemplate({
        VALIDATOR_ADDRESS: `127.0.0.1:${env.get("PORT")!.value}`,
        METRICS_ADDRESS: `127.0.0.1:${env.get("METRICS_PORT")!.value}`,
        LISTEN_PORT: port("http"),
        METRICS_LISTEN_PORT: port("metrics"),
      }),
    );
    expect(nginx.livenessProbe.httpGet).toEqual({ path: "/healthz", port: "http" });
    expect(nginx.readinessProbe.httpGet).toEqual({ path: "/readyz", port: "http" });
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
    const portNames = deployment.spec.template.spec.containers.flatMap((container: Manifest) => container.ports ?? []).map((port: Manifest) => port.name);
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

  it("the runtime image holds only the installed package, runs as a non-root user on node:http and checks /healthz", () => {
    expect(find("COPY")).toEqual(["--from=build /opt/oscal-validator /opt/oscal-validator"]);
    expect(find("ENV").join(" ")).toMatch(/(^| )TRANSPORT=node( |$)/);
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
  });

  it("publishes only nginx, which fills every variable of the deploy/ template, in front of the service on TRANSPORT=uws", () => {
    const { validator, nginx } = compose.services;
    expect(validator.ports).toBeUndefined();
    expect(validator.environment).toMatchObject({ TRANSPORT: "uws", TRUST_PROXY: "1", PUBLIC_BASE_URL: expect.stringMatching(/^\$\{PUBLIC_BASE_URL:-http/) });
    expect(nginx.volumes).toEqual(["./deploy/nginx/validator.conf.template:/etc/nginx/templates/default.conf.template:ro"]);
    expect(Object.keys(nginx.environment).sort()).toEqual(nginxTemplateVariables());
    expect(nginx.environment.VALIDATOR_ADDRESS).toBe(`validator:${validator.environment.PORT}`);
    expect(nginx.environment.METRICS_ADDRESS).toBe(`validator:${validator.environment.METRICS_PORT}`);
    expect(nginx.ports).toEqual([`${nginx.environment.LISTEN_PORT}:${nginx.environment.LISTEN_PORT}`, `${nginx.environment.METRICS_LISTEN_PORT}:${nginx.environment.METRICS_LISTEN_PORT}`]);
  });
});
