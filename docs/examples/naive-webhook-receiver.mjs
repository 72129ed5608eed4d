// A receiver NOT to copy: what `npx emulator receiver-check` catches (docs/webhooks.md "Certify your receiver").
// It checks no signature and no timestamp (anyone can post it events, forever), keeps no record of
// delivery ids (a retry or a parallel duplicate is applied twice) and reads bodies of any size.
// The tests run receiver-check against it and expect exactly those cases to fail.
import { createServer } from "node:http";

const applied = [];

const server = createServer((req, res) => {
  if (req.method === "GET" && req.url === "/applied")
    return res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ applied }));
  let raw = "";
  req.on("data", (c) => (raw += c));
  req.on("end", () => {
    const event = JSON.parse(raw);
    applied.push({ id: event.id, event: event.event });
    res.writeHead(200).end("ok");
  });
});
server.listen(Number(process.env.PORT ?? 3001), "127.0.0.1", () =>
  console.log(`listening on http://127.0.0.1:${server.address().port}`),
);
