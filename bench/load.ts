import { Agent, request } from "node:http";

// A small closed-loop load generator: `concurrency` workers on keep-alive
// connections, for `durationMs`.

export interface LoadResult {
  requests: number;
  rps: number;
  p50: number;
  p99: number;
  errors: number;
}

function get(agent: Agent, url: URL, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(url, { agent, headers }, (res) => {
      res.resume();
      res.on("end", () => resolve(res.statusCode ?? 0));
    });
    req.on("error", reject);
    req.end();
  });
}

export async function load(base: string, paths: string[], headers: Record<string, string>, concurrency: number, durationMs: number): Promise<LoadResult> {
  const agent = new Agent({ keepAlive: true, maxSockets: concurrency });
  const urls = paths.map((p) => new URL(p, base));
  const latencies: number[] = [];
  let errors = 0;
  let i = 0;
  const end = performance.now() + durationMs;
  const worker = async () => {
    while (performance.now() < end) {
      const url = urls[i++ % urls.length];
      const t0 = performance.now();
      try {
        if ((await get(agent, url, headers)) >= 400) errors++;
      } catch {
        errors++;
      }
      latencies.push(performance.now() - t0);
    }
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: concurrency }, worker));
  const elapsed = performance.now() - started;
  agent.destroy();
  latencies.sort((a, b) => a - b);
  const q = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))] ?? 0;
  return { requests: latencies.length, rps: (latencies.length / elapsed) * 1000, p50: q(0.5), p99: q(0.99), errors };
}
