import { describe, it, expect, beforeAll, afterAll } from "vitest";
import request from "supertest";
import { createEmulator, type Emulator } from "../emulator/index.ts";
import { ALL_CHECKS } from "./registry.ts";
import { runSuite, type SuiteResult } from "./runner.ts";
import {
  canonical,
  certificationBundle,
  checksDigest,
  verifyBundle,
  type CertificationBundle,
  type LoggedRequest,
} from "./certify.ts";
import { html } from "./reporters/html.ts";
import { createHash } from "node:crypto";
import { deviations } from "../testing/deviations/index.ts";

// Certification a service can verify: every request of every check is in the
// bundle with the target's X-Request-Id; failures carry a redacted transcript;
// the bundle names the suite version and the checks' digest; verifyBundle
// holds it against the digest and the service's own request log, and catches
// tampering, including a forger who recomputes the sha256.

let emu: Emulator;
/** The service's request log, as the target answered on the wire (X-Request-Id → method, path, status). */
const serviceLog = new Map<string, LoggedRequest>();
let suite: SuiteResult;
let bundle: CertificationBundle;

const IDS = ["pipeline.health-public", "pipeline.auth-401", "pipeline.credit-headers", "webhooks.secret-shown-once"];
const FAILING = "pipeline.credit-headers";

beforeAll(async () => {
  emu = await createEmulator({ seed: 1, clock: "manual", port: 0, plugins: [deviations] });
  const logging = (async (input: string | URL | Request, init?: RequestInit) => {
    const res = await emu.fetch(input, init);
    const url = new URL(input instanceof Request ? input.url : String(input));
    const id = res.headers.get("x-request-id");
    if (id) serviceLog.set(id, { method: init?.method ?? "GET", path: url.pathname + url.search, status: res.status });
    return res;
  }) as typeof fetch;
  // One check fails (a metered answer without its credit headers), so the bundle has a transcript to redact.
  await request(emu.url).post("/_emulator/deviations").send({ name: "no_credit_headers" });
  suite = await runSuite(
    ALL_CHECKS.filter((c) => IDS.includes(c.id)),
    {
      baseUrl: emu.url,
      partnerKey: emu.key("demo"),
      tenantKey: emu.key("tenant"),
      profiles: ["pipeline", "webhooks"],
      mode: "sandbox",
      fetch: logging,
    },
  );
  bundle = certificationBundle(suite, ["partner", "tenant"], false);
});
afterAll(() => emu.close());

/** What a forger does: edits the content and recomputes the sha256. */
function forged(edit: (b: CertificationBundle) => void): CertificationBundle {
  const copy = JSON.parse(JSON.stringify(bundle)) as CertificationBundle;
  edit(copy);
  const { sha256: _old, ...body } = copy;
  return { ...copy, sha256: createHash("sha256").update(canonical(body)).digest("hex") };
}
const lookup = (id: string) => serviceLog.get(id);

describe("the certification bundle", () => {
  it("records every request of every check with the target's X-Request-Id, and the checks' digest", () => {
    expect(suite.results.map((r) => [r.id, r.outcome])).toEqual(
      IDS.map((id) => [id, id === FAILING ? "fail" : "pass"]),
    );
    for (const r of bundle.results) {
      expect(r.requests.length, r.id).toBeGreaterThan(0);
      for (const q of r.requests) {
        expect(q.request_id).toMatch(/^req_/);
        expect(serviceLog.get(q.request_id!)).toMatchObject({ method: q.method, status: q.status });
        expect(q.duration_ms).toBeGreaterThanOrEqual(0);
      }
    }
    expect(bundle.checks_digest).toBe(checksDigest().sha256);
    expect(bundle.checks_files).toContain("checks/pipeline.ts");
    expect(bundle.checks_files).toContain("wire.ts");
    expect(bundle.suite_version).toMatch(/^\d+\.\d+\.\d+/);
  });

  it("keeps a transcript of the failed check only, with keys, signatures and secrets removed", () => {
    const failed = bundle.results.find((r) => r.id === FAILING)!;
    expect(failed.message).toContain("X-Credits-Cost must be on a metered answer");
    expect(failed.transcript?.length).toBe(failed.requests.length);
    expect(failed.transcript![0]).toMatchObject({
      method: "GET",
      status: 200,
      request_headers: { "x-api-key": "[redacted]" },
    });
    expect(bundle.results.filter((r) => r.transcript)).toHaveLength(1);
    const text = JSON.stringify(bundle);
    expect(text).not.toMatch(/rip_v1_[A-Za-z0-9]/);
    expect(text).not.toContain(emu.key("demo"));
    expect(text).not.toContain(emu.key("tenant"));
    // The webhook check saw a signing secret (64 hex); it passed, so no transcript, and records hold no bodies.
    expect(text).not.toMatch(/"signing_secret":"[0-9a-f]{64}"/);
  });

  it("verifies against the published checks digest and the service's request log", async () => {
    expect(await verifyBundle(bundle, { checksDigest: checksDigest().sha256, lookup })).toEqual({
      ok: true,
      problems: [],
    });
  });

  it("detects tampering: an edit without a new sha256, a verdict its results do not support, other checks, a request the service never answered", async () => {
    const edited = { ...bundle, target_url: "https://elsewhere.example" };
    expect((await verifyBundle(edited)).problems).toEqual([
      "sha256 does not match the content: the bundle was edited after it was written",
    ]);

    const verdict = forged((b) => void (b.passed = true));
    expect((await verifyBundle(verdict)).problems[0]).toContain("not every check passed");

    const flipped = forged((b) => {
      const r = b.results.find((x) => x.id === FAILING)!;
      r.outcome = "pass";
      for (const q of r.requests) q.status = 203;
      b.passed = b.results.every((x) => x.outcome === "pass");
    });
    const v = await verifyBundle(flipped, { lookup });
    expect(v.ok).toBe(false);
    expect(v.problems.some((p) => /is logged as GET .* → 200, the bundle says GET .* → 203/.test(p))).toBe(true);

    const invented = forged((b) => void (b.results[0]!.requests[0]!.request_id = "req_invented"));
    expect((await verifyBundle(invented, { lookup })).problems[0]).toContain("is not in the service's logs");

    const copied = forged((b) => void (b.results[1]!.requests[0]!.request_id = b.results[0]!.requests[0]!.request_id));
    expect((await verifyBundle(copied)).problems.some((p) => p.includes("is listed twice"))).toBe(true);

    const otherChecks = forged((b) => void (b.checks_digest = "0".repeat(64)));
    expect((await verifyBundle(otherChecks, { checksDigest: checksDigest().sha256 })).problems[0]).toContain(
      "the checks were changed",
    );
  });

  it("the HTML report shows each profile and check, the requests with their X-Request-Id, and the failure's request/response", () => {
    const page = html(suite);
    expect(page).toContain('<h2 id="profile-pipeline">pipeline</h2>');
    expect(page).toContain('<h2 id="profile-webhooks">webhooks</h2>');
    expect(page).toContain(`<code>${FAILING}</code>`);
    expect(page).toContain("<b>Guards:</b> docs/reference/");
    const failed = suite.results.find((r) => r.id === FAILING)!;
    expect(page).toContain(`<code>${failed.requests[0]!.request_id}</code>`);
    expect(page).toContain("transcript (keys, signatures and secrets removed)");
    expect(page).toMatch(/<pre>HTTP 200\n/);
    expect(page).toContain("x-api-key: [redacted]");
    expect(page).not.toMatch(/rip_v1_[A-Za-z0-9]/);
  });
});
