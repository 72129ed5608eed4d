import { classifyHost, parseIPv4, parseIPv6 } from "./address-policy.ts";
import { ApiError } from "./errors.ts";

// DNS rebinding guard for the listening server (as Vite's server.allowedHosts):
// a page on evil.example whose name is re-pointed at 127.0.0.1 reaches us with
// `Host: evil.example`, so only hosts that cannot be rebound are answered:
// loopback names and addresses, any IP literal (no DNS involved), and the
// names the user allowed. In-process calls (emu.fetch, msw) never pass here.

export type HostCheck = (hostHeader: string | undefined) => ApiError | null;

/** The host part of a Host header: no port, no brackets, lower case, no trailing dot. */
function hostname(header: string): string {
  let h = header.trim().toLowerCase();
  if (h.startsWith("[")) h = h.slice(1, h.indexOf("]") === -1 ? h.length : h.indexOf("]"));
  else if (h.indexOf(":") === h.lastIndexOf(":") && h.includes(":")) h = h.slice(0, h.indexOf(":"));
  return h.replace(/\.+$/, "");
}

function allowedByDefault(host: string): boolean {
  if (host.includes(":")) return parseIPv6(host) !== null;
  if (parseIPv4(host) !== null) return true;
  return classifyHost(host).class === "loopback";
}

/** `allowed`: exact names, or `.example.test` for a domain and all its subdomains. */
export function hostCheck(allowed: readonly string[] = []): HostCheck {
  const names = allowed.map(hostname).filter(Boolean);
  const verdicts = new Map<string, boolean>();
  const decide = (host: string): boolean =>
    allowedByDefault(host) ||
    names.some((n) => (n.startsWith(".") ? host === n.slice(1) || host.endsWith(n) : host === n));
  return (header) => {
    // HTTP/1.0 without a Host: not a browser.
    if (header === undefined) return null;
    let ok = verdicts.get(header);
    if (ok === undefined) {
      ok = decide(hostname(header));
      // A handful of hosts in practice; the cap only bounds a flood of made-up ones.
      if (verdicts.size > 256) verdicts.clear();
      verdicts.set(header, ok);
    }
    if (ok) return null;
    const host = hostname(header);
    return new ApiError(
      403,
      "host_not_allowed",
      `Host "${host}" is not allowed: the emulator answers only loopback names (localhost, *.localhost, 127.0.0.1, [::1]) and IP addresses, ` +
        `so a web page cannot reach it through DNS rebinding. To allow it, pass allowedHosts: ["${host}"] to createEmulator ` +
        `(or --allowed-host ${host} on the command line).`,
    );
  };
}
