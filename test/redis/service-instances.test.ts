// Several stateless instances with one Redis, end to end: real service processes (one per transport) on a private
// redis-server, keys made by the real oscal-keys CLI against that server, one key budget shared to the exact count,
// and Redis killed and restarted under the running instances.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { JSON_HEADERS, VALIDATE, VALID_CATALOG, post } from "../http/support/documents.js";
import { awayFromMinuteEdge } from "../http/support/clock.js";
import { oscalKeys } from "../http/support/keys-cli.js";
import { startService, TRANSPORTS, type TestService } from "../http/support/service.js";
import { eventually, privateRedis, type PrivateRedis } from "./redis-fixtures.js";

interface Instances {
  all: TestService[];
  /** Sends the i-th request to instance i mod N, so a run alternates between them. */
  validate(i: number, headers?: Record<string, string>): Promise<Response>;
  stop(): Promise<void>;
}

async function startInstances(redis: PrivateRedis, keyRatePerMinute: number, keyRatePerDay: number): Promise<Instances> {
  const env = {
    REDIS_URL: redis.url,
    REDIS_TIMEOUT_MS: "300",
    WORKERS: "1",
    KEY_RATE_PER_MINUTE: String(keyRatePerMinute),
    KEY_RATE_PER_DAY: String(keyRatePerDay),
  };
  const all = await Promise.all(TRANSPORTS.map((transport) => startService(transport, env)));
  return {
    all,
    validate: (i, headers = {}) => post(all[i % all.length]!.url(VALIDATE), VALID_CATALOG, { ...JSON_HEADERS, ...headers }),
    stop: async () => {
      const codes = await Promise.all(all.map((service) => service.stop()));
      expect(codes).toEqual(all.map(() => 0));
    },
  };
}

async function createKey(redis: PrivateRedis, label: string): Promise<{ key: string; bearer: Record<string, string> }> {
  const key = (await oscalKeys({ REDIS_URL: redis.url }, "create", "--label", label)).stdout.trim();
  return { key, bearer: { Authorization: `Bearer ${key}` } };
}

const statusCounts = (responses: Response[]): Record<number, number> =>
  responses.reduce<Record<number, number>>((counts, { status }) => ({ ...counts, [status]: (counts[status] ?? 0) + 1 }), {});

describe("instances sharing one Redis", () => {
  let redis: PrivateRedis;

  beforeAll(async () => {
    redis = await privateRedis({ persistent: true });
    await redis.start();
  });
  afterAll(async () => {
    redis.resume();
    await redis.kill();
  });

  /** Two instances for the enclosing describe block, with the given key limits. */
  function useInstances(keyRatePerMinute: number, keyRatePerDay: number): () => Instances {
    let instances: Instances;
    beforeAll(async () => {
      instances = await startInstances(redis, keyRatePerMinute, keyRatePerDay);
    });
    afterAll(() => instances.stop());
    return () => instances;
  }

  describe("per-minute key budget", () => {
    const running = useInstances(30, 10_000);

    it("lets exactly the limit through when requests on one key race across instances", async () => {
      const instances = running();
      const { bearer } = await createKey(redis, "race");
      await awayFromMinuteEdge();
      const responses = await Promise.all(Array.from({ length: 80 }, (_, i) => instances.validate(i, bearer)));
      expect(statusCounts(responses)).toEqual({ 200: 30, 429: 50 });
      // Each remaining count from 29 down to 0 was handed out once: the instances drew from one counter.
      const remaining = responses.filter(({ status }) => status === 200).map((response) => Number(response.headers.get("ratelimit-remaining")));
      expect(remaining.sort((a, b) => a - b)).toEqual(Array.from({ length: 30 }, (_, i) => i));
      for (const refused of responses.filter(({ status }) => status === 429)) {
        expect(refused.headers.get("ratelimit-limit")).toBe("30");
        expect(Number(refused.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
        expect(Number(refused.headers.get("retry-after"))).toBeLessThanOrEqual(60);
        expect(((await refused.json()) as { code: string }).code).toBe("ERR_RATE_LIMITED");
      }
      // Anonymous budgets are per client and untouched by the key's.
      expect((await instances.validate(0)).status).toBe(200);
    });

    it("sees keys listed and revoked through the CLI on every instance", async () => {
      const instances = running();
      const { key, bearer } = await createKey(redis, "revoke me");
      const id = key.slice("sk_oscal_".length, "sk_oscal_".length + 16);
      for (let i = 0; i < instances.all.length; i++) expect((await instances.validate(i, bearer)).status).toBe(200);
      expect((await oscalKeys({ REDIS_URL: redis.url }, "list")).stdout).toMatch(new RegExp(`^${id}\\trevoke me\\t\\S+\\t-$`, "m"));

      await oscalKeys({ REDIS_URL: redis.url }, "revoke", id);
      for (let i = 0; i < instances.all.length; i++) {
        const refused = await instances.validate(i, bearer);
        expect(refused.status).toBe(401);
        expect(((await refused.json()) as { code: string }).code).toBe("ERR_INVALID_API_KEY");
      }
    });

    it("answers keyed requests 503 with Retry-After while Redis is down, serves anonymous ones, and recovers without a restart", async () => {
      const instances = running();
      const { bearer } = await createKey(redis, "outage");
      for (let i = 0; i < instances.all.length; i++) expect((await instances.validate(i, bearer)).status).toBe(200);

      await redis.kill();
      for (let i = 0; i < instances.all.length; i++) {
        const refused = await instances.validate(i, bearer);
        expect(refused.status).toBe(503);
        expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
        expect(((await refused.json()) as { code: string }).code).toBe("ERR_KEY_SERVICE_UNAVAILABLE");
        expect((await instances.validate(i)).status).toBe(200);
        expect((await fetch(instances.all[i]!.url("/readyz"))).status).toBe(503);
      }
      await expect(oscalKeys({ REDIS_URL: redis.url }, "list")).rejects.toMatchObject({ code: 1 });

      await redis.start();
      for (let i = 0; i < instances.all.length; i++) {
        await eventually(async () => expect((await instances.validate(i, bearer)).status).toBe(200), 10_000);
        expect((await fetch(instances.all[i]!.url("/readyz"))).status).toBe(200);
      }
    });
  });

  describe("daily key budget", () => {
    const running = useInstances(1000, 25);

    it("refuses past the daily limit across instances until the next UTC midnight", async () => {
      const instances = running();
      const { bearer } = await createKey(redis, "daily");
      // The service's Retry-After lies between the time to midnight before the requests and after the answers (a second
      // either side for rounding), however long a busy machine takes to answer.
      const untilMidnight = (): number => (Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), new Date().getUTCDate() + 1) - Date.now()) / 1000;
      const before = untilMidnight();
      const responses = await Promise.all(Array.from({ length: 40 }, (_, i) => instances.validate(i, bearer)));
      const after = untilMidnight();
      expect(statusCounts(responses)).toEqual({ 200: 25, 429: 15 });
      for (const refused of responses.filter(({ status }) => status === 429)) {
        expect(refused.headers.get("ratelimit-limit")).toBe("25");
        const retryAfter = Number(refused.headers.get("retry-after"));
        expect(retryAfter).toBeGreaterThanOrEqual(Math.floor(after) - 1);
        expect(retryAfter).toBeLessThanOrEqual(Math.ceil(before) + 1);
      }
    });
  });
});
