/**
 * The sign-in page's `?error=` codes (next-auth's and ours) in words. Only known codes are worded:
 * the address bar is something a link can set, so its text is never shown as it is.
 */
export function signInErrorText(code: string | null, provider: string): string | null {
  if (!code) return null;
  switch (code) {
    case "SsoEmailUnverified":
      return `${provider} did not confirm that this e-mail address is yours, so it cannot sign you in or be linked to a Tracelight account. Ask your administrator to verify the address at ${provider}.`;
    case "SsoNoEmail":
      return `${provider} sent no e-mail address: ask your administrator to release the email claim to Tracelight.`;
    case "SsoNoWorkspace":
      return "Single sign-on is not set up completely: the workspace named in OIDC_DEFAULT_WORKSPACE does not exist. Ask your administrator.";
    case "SsoOnly":
      return `Password sign-in is turned off here: sign in with ${provider}.`;
    case "OAuthCallback":
      return `The answer from ${provider} was refused (its token was not valid for Tracelight, had expired, or the sign-in was started elsewhere). Try again; if it keeps failing, ask your administrator.`;
    case "OAuthSignin":
      return `The sign-in with ${provider} could not be started (the identity provider did not answer). Try again later.`;
    case "CredentialsSignin":
      return "Wrong e-mail or password.";
    case "SessionRequired":
      return null;
    default:
      return "The sign-in failed. Try again; if it keeps failing, ask your administrator.";
  }
}
