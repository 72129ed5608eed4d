import { describe, expect, it } from "vitest";
import { Journal, JOURNAL_SIZE, maskBody, maskHeaders, maskKey, type JournalEntry } from "../../emulator/ui/journal.ts";

const entry = (i: number, status = 200): Omit<JournalEntry, "id"> => ({
  request_id: `req_${i}`,
  at: "2026-01-15T12:00:00.000Z",
  method: "GET",
  path: `/api/v1/pokemon/cards/c${i}`,
  operation: "cards.get",
  route: "/:game{pokemon|onepiece|azuki}/cards/:id",
  key: "rip_v1_abcd…",
  key_name: null,
  stub: null,
  key_label: i % 2 ? "odd" : "even",
  status,
  error: null,
  credits_cost: 1,
  credits_remaining: 10,
  rate_limit_remaining: 5,
  latency_ms: 1,
  request: { headers: {}, body: null, truncated: false },
  response: { headers: {}, body: null, truncated: false },
});

describe("the request journal", () => {
  it(`keeps the last ${JOURNAL_SIZE} calls, newest first, and filters by key label, status class and path`, () => {
    const j = new Journal();
    for (let i = 1; i <= JOURNAL_SIZE + 5; i++) j.add(entry(i, i % 10 === 0 ? 404 : 200));
    const all = j.list();
    expect(all).toHaveLength(JOURNAL_SIZE);
    expect(all[0]!.request_id).toBe(`req_${JOURNAL_SIZE + 5}`);
    expect(all.at(-1)!.request_id).toBe("req_6");
    expect(j.list({ status: "4xx" }).every((e) => e.status === 404)).toBe(true);
    expect(j.list({ status: "4xx" })).toHaveLength(100);
    expect(j.list({ key: "odd", limit: 3 }).map((e) => e.request_id)).toEqual([
      `req_${JOURNAL_SIZE + 5}`,
      `req_${JOURNAL_SIZE + 3}`,
      `req_${JOURNAL_SIZE + 1}`,
    ]);
    expect(j.list({ path: "/c1005" }).map((e) => e.request_id)).toEqual(["req_1005"]);
  });

  it("masks keys, signatures and secrets in headers and bodies", () => {
    expect(maskKey("rip_v1_abcdefghijklmnopqrstuvwxyz")).toBe("rip_v1_abcd…");
    const h = maskHeaders(
      new Headers({
        "x-api-key": "rip_v1_abcdefghijklmnop",
        "payment-signature": "eyJhbGciOiJIUzI1NiJ9",
        accept: "application/json",
      }),
    );
    expect(h).toEqual({ "x-api-key": "rip_v1_abcd…", "payment-signature": "eyJhbGciOiJ…", accept: "application/json" });
    const body = maskBody(
      JSON.stringify({
        url: "https://x",
        signing_secret: "whsec_0123456789abcdef",
        private_key: "0xdeadbeefcafe",
        receiver_signature: "0x1234567890",
      }),
    );
    expect(body).not.toContain("0123456789abcdef");
    expect(body).not.toContain("deadbeefcafe");
    expect(body).not.toContain("567890");
    expect(body).toContain('"signing_secret":"whse…"');
    expect(body).toContain('"url":"https://x"');
  });

  it("masks any member named like a key, secret, signature, password or token; short values entirely; ids stay", () => {
    const body = maskBody(
      JSON.stringify({
        password: "hunter2",
        access_token: "tok_0123456789",
        webhookSecret: "abcdefghijkl",
        idempotency_key: "k",
        token_id: "42",
        nested: { secret: "s3cr3t-value-long" },
      }),
    );
    expect(JSON.parse(body)).toEqual({
      password: "…",
      access_token: "tok_…",
      webhookSecret: "abcd…",
      idempotency_key: "…",
      token_id: "42",
      nested: { secret: "s3cr…" },
    });
  });

  it("keeps bodies only while a body-showing subscriber (a dashboard) watches; the terminal's line subscriber does not count", () => {
    const j = new Journal();
    const seen: string[] = [];
    const offLine = j.subscribe((e) => seen.push(e.request_id), { bodies: false });
    expect(j.watching).toBe(false);
    const offDash = j.subscribe(() => {});
    expect(j.watching).toBe(true);
    offDash();
    offDash(); // a second call changes nothing
    expect(j.watching).toBe(false);
    j.add(entry(1));
    expect(seen).toEqual(["req_1"]);
    offLine();
    j.add(entry(2));
    expect(seen).toEqual(["req_1"]);
  });
});
