import type { Metadata } from "next";
import { AuthForm } from "../_auth/auth-form";
import { firstParam, safeCallback } from "../_auth/paths";
import { ssoPageSettings } from "@/server/auth/oidc";

export const dynamic = "force-dynamic";

export const metadata: Metadata = { title: "Sign in" };

export default async function SignInPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const params = await searchParams;
  return (
    <AuthForm
      mode="signin"
      callbackUrl={safeCallback(firstParam(params.callbackUrl))}
      invite={firstParam(params.invite) ?? null}
      sso={ssoPageSettings()}
      error={firstParam(params.error) ?? null}
      acceptAfterSso={firstParam(params.sso) === "1"}
    />
  );
}
