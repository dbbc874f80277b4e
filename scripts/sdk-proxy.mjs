// A logging reverse proxy for `npm run test:sdk`: 127.0.0.1:<free port> -> the server under test. Every
// request is one line of the log (method, path, status, time); an answer >= 400 also logs the request's
// and the answer's bodies (decompressed), so a failing SDK test can be traced to the call behind it.
// Headers pass as the client sent them, repeated ones included (rawHeaders).
import { createWriteStream } from "node:fs";
import http from "node:http";
import zlib from "node:zlib";

const decoders = {
  gzip: zlib.gunzipSync,
  br: zlib.brotliDecompressSync,
  deflate: zlib.inflateSync,
  zstd: zlib.zstdDecompressSync,
};

const decode = (body, encoding) => {
  try {
    return decoders[encoding]?.(body) ?? body;
  } catch {
    return body;
  }
};

const collect = (stream) =>
  new Promise((resolve, reject) => {
    const chunks = [];
    stream.on("data", (chunk) => chunks.push(chunk));
    stream.on("end", () => resolve(Buffer.concat(chunks)));
    stream.on("error", reject);
  });

/** Starts the proxy in front of `upstream` (a URL); resolves to { port, close }. */
export async function startProxy({ upstream, log }) {
  const target = new URL(upstream);
  const out = createWriteStream(log, { flags: "a" });
  const proxy = http.createServer(async (req, res) => {
    const body = await collect(req);
    const t0 = Date.now();
    const forward = http.request(
      { host: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.rawHeaders },
      async (answer) => {
        const answered = await collect(answer);
        res.writeHead(answer.statusCode, answer.rawHeaders);
        res.end(answered);
        let line = `${new Date().toISOString()} ${req.method} ${req.url} -> ${answer.statusCode} ${Date.now() - t0}ms`;
        if (answer.statusCode >= 400) {
          const type = String(req.headers["content-type"] ?? "");
          const sent = type.includes("json")
            ? decode(body, req.headers["content-encoding"]).toString("utf8").slice(0, 600)
            : `<${type} ${body.length}B>`;
          const received = decode(answered, answer.headers["content-encoding"]).toString("utf8").slice(0, 800);
          line += `\n    REQ ${sent}\n    RES ${received}`;
        }
        out.write(line + "\n");
      },
    );
    forward.on("error", (error) => {
      res.writeHead(502).end(String(error));
      out.write(`ERR ${req.method} ${req.url} ${error}\n`);
    });
    forward.end(body);
  });
  await new Promise((resolve) => proxy.listen(0, "127.0.0.1", resolve));
  return {
    port: proxy.address().port,
    close: () => new Promise((resolve) => proxy.close(() => out.end(resolve))),
  };
}
