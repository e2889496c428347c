// The bare-transport baselines of bench/http.ts: a uWebSockets.js handler that reads a POST body and answers, nothing
// else. Plain, it answers a fixed JSON report: what the service adds to a request is measured against it, in the same
// run. With "validate", it answers the service's own report of the body (the validation core of dist/, as the service
// runs it inline for a small body): the floor of any service that validates, without access control, rate limits,
// memory budget or the contract's headers.
// Usage: node bench/bare-uws.cjs PORT [validate] (prints "listening" once it accepts).
const path = require("node:path");
const uws = require("@trufflesuite/uws-js-unofficial");

const port = Number(process.argv[2]);
const validating = process.argv[3] === "validate";

async function answerer() {
  if (!validating) return () => '{"valid":true}';
  const dist = path.join(__dirname, "../dist/runtime");
  const { preloadValidators } = await import(path.join(dist, "core/validate.js"));
  const { validationAnswer } = await import(path.join(dist, "http/validation-answer.js"));
  preloadValidators();
  return (bytes) => validationAnswer(bytes, {}).json;
}

answerer().then((answer) =>
  uws
    .App()
    .post("/*", (res) => {
      let aborted = false;
      const chunks = [];
      res.onAborted(() => (aborted = true));
      res.onData((chunk, isLast) => {
        // uWS reuses the chunk's memory once the callback returns, as the service's body reader copies it.
        chunks.push(Buffer.from(chunk.slice(0)));
        if (isLast && !aborted) {
          const body = answer(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks));
          res.cork(() => res.writeHeader("Content-Type", "application/json").end(body));
        }
      });
    })
    .listen("127.0.0.1", port, (socket) => {
      if (!socket) process.exit(1);
      process.stdout.write("listening\n");
    }),
);
