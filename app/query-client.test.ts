import assert from "node:assert/strict";
import { test } from "node:test";
import { QueryClient, QueryObserver } from "@tanstack/react-query";
import { WriteAwareQueryClient } from "./query-client";

/**
 * A list shown while a write happens: its first fetch was answered before the write and arrives
 * after it. The page must end up with the list as written.
 */
async function listAfterWrite(client: QueryClient): Promise<string[]> {
  const stored: string[] = [];
  let fetches = 0;
  const queryKey = ["feedback", "forThread"];
  const observer = new QueryObserver(client, {
    queryKey,
    queryFn: async () => {
      fetches += 1;
      const answer = [...stored];
      // The first answer is read at once and arrives late; later ones arrive at once.
      if (fetches === 1) await new Promise((resolve) => setTimeout(resolve, 50));
      return answer;
    },
  });
  const settled = new Promise<string[]>((resolve) =>
    observer.subscribe((result) => {
      if (result.data && result.data.length > 0) resolve(result.data);
    }),
  );
  stored.push("thread_quality 1");
  await client.invalidateQueries({ queryKey });
  return Promise.race([
    settled,
    new Promise<string[]>((resolve) => setTimeout(() => resolve(observer.getCurrentResult().data ?? []), 500)),
  ]);
}

test("TanStack's own client keeps a first answer read before the write (why ours differs)", async () => {
  assert.deepEqual(await listAfterWrite(new QueryClient()), []);
});

test("invalidating a query whose first fetch is in flight fetches it again", async () => {
  assert.deepEqual(await listAfterWrite(new WriteAwareQueryClient()), ["thread_quality 1"]);
});

test("a query with data is fetched again once, as TanStack does", async () => {
  const client = new WriteAwareQueryClient();
  let fetches = 0;
  const observer = new QueryObserver(client, { queryKey: ["k"], queryFn: async () => ++fetches });
  const unsubscribe = observer.subscribe(() => undefined);
  await client.fetchQuery({ queryKey: ["k"], queryFn: async () => ++fetches });
  const before = fetches;
  await client.invalidateQueries({ queryKey: ["k"] });
  assert.equal(fetches, before + 1);
  assert.equal(observer.getCurrentResult().data, fetches);
  unsubscribe();
});
