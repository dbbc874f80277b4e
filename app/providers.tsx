"use client";

import { SessionProvider } from "next-auth/react";
import type { ReactNode } from "react";
import { TrpcQueryProvider } from "./trpc-client";

export function Providers({ children }: { children: ReactNode }) {
  return (
    <SessionProvider>
      <TrpcQueryProvider>{children}</TrpcQueryProvider>
    </SessionProvider>
  );
}
