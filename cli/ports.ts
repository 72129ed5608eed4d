import { createServer } from "node:net";

// A port clash is found before anything starts (the chain deploys in seconds), and names the port.

/** True when something already listens on 127.0.0.1:port (0 is never taken). */
export function portTaken(port: number): Promise<boolean> {
  if (port === 0) return Promise.resolve(false);
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", (err: NodeJS.ErrnoException) => (err.code === "EADDRINUSE" ? resolve(true) : reject(err)));
    probe.listen(port, "127.0.0.1", () => probe.close(() => resolve(false)));
  });
}
