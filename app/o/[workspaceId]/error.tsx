"use client";

import { ErrorState } from "./_components/ui";

/** A page that failed while rendering: say what happened and offer to try again, inside the shell. */
export default function PageError({ error, reset }: { error: Error & { digest?: string }; reset: () => void }) {
  return (
    <div className="page">
      <ErrorState error={error.digest ? new Error(`The page failed to load (reference ${error.digest}).`) : error} retry={reset} />
    </div>
  );
}
