import type { ServerType } from "@hono/node-server";
import type { IncomingHttpHeaders } from "node:http";
import { errorResponse } from "./envelope.ts";
import { ApiError } from "./errors.ts";
import type { ListenerPolicy } from "./listener-policy.ts";

// The listening server of an emulator: the listener policy (Host, Origin) in front of the fetch handler, on one address.

/** The host of `url`: the bound address, 127.0.0.1 for an any-address bind, IPv6 in brackets. */
export function urlHost(host: string | undefined): string {
  if (!host || host === "0.0.0.0" || host === "::") return "127.0.0.1";
  return host.includes(":") ? `[${host}]` : host;
}

interface NodeEnv {
  incoming?: { headers?: IncomingHttpHeaders };
}

export async function listen(
  fetch: (req: Request, env?: unknown) => Response | Promise<Response>,
  port: number,
  hostname: string,
  policy: ListenerPolicy,
): Promise<{ server: ServerType; port: number }> {
  // The policy guards what the network reaches (every route: a rebound or cross-site page could
  // also drive the API with the well-known fixture keys); in-process calls skip it.
  const guarded = (req: Request, env?: unknown) => {
    const refused = policy.check((env as NodeEnv | undefined)?.incoming?.headers ?? {});
    return refused
      ? errorResponse(new ApiError(refused.status, refused.code, refused.message), "partner", {})
      : fetch(req, env);
  };
  // The node server loads with the first listener, not with the package (issue 38 goal 1).
  const { serve } = await import("@hono/node-server");
  return new Promise((resolve, reject) => {
    const server = serve({ fetch: guarded, port, hostname }, (info) => resolve({ server, port: info.port }));
    server.once("error", reject);
  });
}
