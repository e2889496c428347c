// The bare-transport baseline of bench/http.ts: a uWebSockets.js handler that reads a POST body and answers a fixed
// JSON report, nothing else. What the service adds to a request is measured against it, in the same run.
// Usage: node bench/bare-uws.cjs PORT (prints "listening" once it accepts).
const uws = require("@trufflesuite/uws-js-unofficial");

const port = Number(process.argv[2]);
uws
  .App()
  .post("/*", (res) => {
    let aborted = false;
    res.onAborted(() => (aborted = true));
    res.onData((_chunk, isLast) => {
      if (isLast && !aborted) res.cork(() => res.writeHeader("Content-Type", "application/json").end('{"valid":true}'));
    });
  })
  .listen("127.0.0.1", port, (socket) => {
    if (!socket) process.exit(1);
    process.stdout.write("listening\n");
  });
