-- Single sign-on through OpenID Connect (issue 37). An account provisioned by the identity provider
-- has no password; its identity at the provider (issuer + subject) is kept so later sign-ins find it
-- even when the e-mail there changes. A membership the provider made (just-in-time provisioning) has
-- its role kept in step with the provider's groups on every sign-in; other memberships are left alone.
ALTER TABLE "users" ALTER COLUMN "password_hash" DROP NOT NULL;

ALTER TABLE "memberships" ADD COLUMN "sso_managed" BOOLEAN NOT NULL DEFAULT false;

CREATE TABLE "user_identities" (
  "issuer" TEXT NOT NULL,
  "subject" TEXT NOT NULL,
  "user_id" UUID NOT NULL REFERENCES "users" ("id") ON DELETE CASCADE,
  "created_at" TIMESTAMPTZ(6) NOT NULL DEFAULT now(),
  "last_sign_in_at" TIMESTAMPTZ(6) NOT NULL DEFAULT now(),
  PRIMARY KEY ("issuer", "subject")
);
CREATE INDEX "user_identities_user_id_idx" ON "user_identities" ("user_id");
