import { QueryClient, type InvalidateOptions, type InvalidateQueryFilters } from "@tanstack/react-query";

/**
 * The browser's query cache, whose invalidation after a write always asks again.
 *
 * TanStack's `invalidateQueries` cancels a fetch in flight and starts another only when the query
 * already has data; a first fetch still in flight is awaited instead. That fetch may have been
 * answered before the write (a panel opened a moment before its form was sent), and the page would
 * keep the answer without what was just written. Cancelled first, such a query is fetched again.
 */
export class WriteAwareQueryClient extends QueryClient {
  override async invalidateQueries(filters?: InvalidateQueryFilters, options?: InvalidateOptions): Promise<void> {
    await this.cancelQueries({ ...filters, predicate: (query) => query.state.data === undefined && (filters?.predicate?.(query) ?? true) });
    return super.invalidateQueries(filters, options);
  }
}
