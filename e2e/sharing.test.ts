import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { Client, RunTree } from "langsmith";
import { call, eventually } from "./harness/http";
import { startServer, type RunningServer } from "./harness/server";

describe("sharing traces publicly", () => {
  let server: RunningServer;
  let client: Client;
  let root: RunTree;
  let child: RunTree;
  before(async () => {
    server = await startServer();
    client = new Client({ apiUrl: server.url, apiKey: server.apiKey });
    root = new RunTree({ name: "agent", run_type: "chain", inputs: { question: "2+2?" }, client, project_name: "e2e-sharing" });
    await root.postRun();
    child = root.createChild({ name: "calculator", run_type: "tool", inputs: { expr: "2+2" } });
    await child.postRun();
    await child.end({ result: 4 });
    await child.patchRun();
    await root.end({ answer: "4" });
    await root.patchRun();
    await client.awaitPendingTraceBatches();
    await eventually(async () => (await call(server, "GET", `/runs/${child.id}/share`)).status === 200);
  });
  after(async () => server?.stop());

  const tokenOf = (url: string) => /\/public\/([^/]+)\/r$/.exec(url)![1];
  const anonymous = (path: string) => fetch(`${server.url}${path}`);

  test("shareRun gives a link anyone can read without a key; sharing again gives the same link", async () => {
    assert.equal(await client.readRunSharedLink(root.id), undefined);
    const url = await client.shareRun(root.id);
    const token = tokenOf(url);
    assert.equal(await client.shareRun(root.id), url);
    assert.equal(await client.readRunSharedLink(root.id), url);

    const shared = await anonymous(`/public/${token}/run`);
    assert.equal(shared.status, 200);
    const tree = await shared.json();
    assert.equal(tree.id, root.id);
    assert.deepEqual(tree.outputs, { answer: "4" });
    assert.deepEqual(
      tree.child_runs.map((c: { name: string }) => c.name),
      ["calculator"],
    );
    assert.equal(tree.session_id, undefined, "the public view does not name the project");

    const runs = await (await anonymous(`/public/${token}/runs`)).json();
    assert.deepEqual(
      runs.map((r: { id: string }) => r.id),
      [root.id, child.id],
    );
    const one = await (await anonymous(`/public/${token}/runs?id=${child.id}`)).json();
    assert.deepEqual(
      one.map((r: { id: string }) => r.id),
      [child.id],
    );
    const viaSdk = await client.listSharedRuns(token, { runIds: [child.id] });
    assert.deepEqual(
      viaSdk.map((r) => r.id),
      [child.id],
      "the SDK's query string without '?' is understood",
    );
  });

  test("public download of the shared trace as a JSON, JSONL or CSV attachment", async () => {
    const token = tokenOf(await client.shareRun(root.id));
    const json = await anonymous(`/public/download/${token}`);
    assert.equal(json.status, 200);
    assert.match(json.headers.get("content-disposition")!, new RegExp(`attachment; filename="trace-${root.id}\\.json"`));
    assert.equal((await json.json()).child_runs.length, 1);
    const jsonl = await anonymous(`/public/download/${token}?format=jsonl`);
    assert.equal((await jsonl.text()).trim().split("\n").length, 2);
    const csv = await anonymous(`/public/download/${token}?format=csv`);
    assert.match(csv.headers.get("content-type")!, /^text\/csv/);
    assert.equal((await csv.text()).trim().split("\r\n").length, 3);
    assert.equal((await anonymous(`/public/download/${token}?format=xml`)).status, 400);
  });

  test("sharing a child run shares its whole trace; revoking a link makes it a 404 at once", async () => {
    const token = tokenOf(await client.shareRun(root.id));
    assert.equal(tokenOf(await client.shareRun(child.id)), token);
    const tree = await (await anonymous(`/public/${token}/run`)).json();
    assert.equal(tree.id, root.id);

    await client.unshareRun(child.id);
    assert.equal((await anonymous(`/public/${token}/run`)).status, 404);
    assert.equal((await anonymous(`/public/${token}/runs`)).status, 404);
    assert.equal((await anonymous(`/public/download/${token}`)).status, 404);
    assert.equal(await client.readRunSharedLink(root.id), undefined);
    const fresh = tokenOf(await client.shareRun(root.id));
    assert.notEqual(fresh, token);
    assert.equal((await anonymous(`/public/${fresh}/run`)).status, 200);
  });

  test("a shared dataset: readSharedDataset and listSharedExamples without a key, download as CSV, revocable", async () => {
    const dataset = await client.createDataset(`e2e-shared-${randomUUID().slice(0, 8)}`, { description: "capitals" });
    await client.createExamples({
      datasetId: dataset.id,
      inputs: [{ q: "Capital of France?" }, { q: "Capital of Japan?" }],
      outputs: [{ a: "Paris" }, { a: 'Tokyo, "the east capital"' }],
      splits: [["test"], ["train"]],
    });
    const { share_token: token } = await client.shareDataset(dataset.id);
    const stranger = new Client({ apiUrl: server.url, apiKey: "not-a-key" });
    const shared = await stranger.readSharedDataset(token);
    assert.equal(shared.id, dataset.id);
    assert.equal(shared.name, dataset.name);
    const examples = await stranger.listSharedExamples(token);
    assert.deepEqual(examples.map((e) => e.outputs?.a).sort(), ["Paris", 'Tokyo, "the east capital"']);

    const csv = await anonymous(`/public/download/${token}?format=csv`);
    assert.equal(csv.status, 200);
    assert.match(csv.headers.get("content-disposition") ?? "", new RegExp(`dataset-${dataset.id}\\.csv`));
    const text = await csv.text();
    assert.match(text, /^id,inputs,outputs,metadata,split,created_at,modified_at\r\n/);
    assert.ok(text.includes('"{""a"":""Tokyo, \\""the east capital\\""""}"'), text);
    assert.equal((await anonymous(`/public/${token}/run`)).status, 404, "a dataset token is not a trace token");

    await client.unshareDataset(dataset.id);
    assert.equal((await anonymous(`/public/${token}/datasets`)).status, 404);
    assert.equal((await anonymous(`/public/${token}/examples`)).status, 404);
  });

  test("unknown runs and tokens are 404; changing a share needs a key", async () => {
    assert.equal((await call(server, "PUT", `/runs/${randomUUID()}/share`, {})).status, 404);
    assert.equal((await call(server, "GET", `/runs/${randomUUID()}/share`)).status, 404);
    assert.equal((await call(server, "DELETE", `/runs/not-a-uuid/share`)).status, 404);
    assert.equal((await anonymous(`/public/${randomUUID()}/run`)).status, 404);
    assert.equal((await anonymous(`/public/${randomUUID()}/nothing`)).status, 404);
    assert.equal((await fetch(`${server.url}/runs/${root.id}/share`, { method: "PUT" })).status, 401);
  });
});
