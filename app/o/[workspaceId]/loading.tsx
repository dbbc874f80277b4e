import { LoadingState } from "./_components/ui";

export default function Loading() {
  return <LoadingState />;
}
