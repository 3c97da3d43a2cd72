-- The columns hold sealed text from now on (AES-256-GCM, key derived from SESSION_SECRET, which SQL
-- cannot reach): the server seals the rows still in clear right after this migration, at start
-- (sealClearSecrets, app/lib/sealed-secret.server.ts; issue 43).
ALTER TABLE `webhooks` RENAME COLUMN "secret" TO "secret_cipher";--> statement-breakpoint
ALTER TABLE `github_links` RENAME COLUMN "webhook_secret" TO "webhook_secret_cipher";
