import { HydrationBoundary } from "@tanstack/react-query";
import { Suspense } from "react";
import { serverQueries } from "@/app/_trpc/server";
import { LoadingState } from "../../_components/ui";
import { runsListOptions, parseSort, runsSelection } from "./runs-input";
import { RunsPage } from "./runs-page";
import { hasListState, withView } from "./view-state";

type SearchParams = Record<string, string | string[] | undefined>;

/**
 * The runs page. Its first reads leave with the page: the server reads the project, its saved views
 * and default view, and the first page of runs with that view applied (as the browser would show it)
 * into the browser's cache, so the list shows as soon as the page has hydrated, without a round trip.
 * The statistics are asked by the browser once the list is in, as before.
 */
export default async function Page({
  params,
  searchParams,
}: {
  params: Promise<{ workspaceId: string; projectId: string }>;
  searchParams: Promise<SearchParams>;
}) {
  const { workspaceId, projectId } = await params;
  const address = new URLSearchParams();
  for (const [key, value] of Object.entries(await searchParams))
    for (const v of Array.isArray(value) ? value : value === undefined ? [] : [value]) address.append(key, v);
  const { queryClient, trpc, dehydrated } = await serverQueries();
  const project = { workspaceId, projectId };
  const firstList = async () => {
    const view = hasListState(address)
      ? null
      : await queryClient.fetchQuery(trpc.views.default.queryOptions(project)).catch(() => undefined);
    // Unknown (the read failed): the browser decides, as it would without this page's help.
    if (view === undefined) return;
    const shown = view ? withView(address, view) : address;
    if (shown.get("view") === "threads") return;
    await queryClient.prefetchInfiniteQuery(
      runsListOptions(trpc, runsSelection(workspaceId, projectId, shown), parseSort(shown.get("sort"))),
    );
  };
  await Promise.all([
    queryClient.prefetchQuery(trpc.projects.get.queryOptions(project)),
    queryClient.prefetchQuery(trpc.views.list.queryOptions(project)),
    queryClient.prefetchQuery(trpc.workspaces.current.queryOptions({ workspaceId })),
    firstList(),
  ]);
  return (
    <HydrationBoundary state={dehydrated()}>
      <Suspense fallback={<LoadingState />}>
        <RunsPage />
      </Suspense>
    </HydrationBoundary>
  );
}
