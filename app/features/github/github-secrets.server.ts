import type Database from 'better-sqlite3'
import { openSecret, sealClearSecrets, sealSecret } from '~/lib/sealed-secret.server'

/**
 * A project's GitHub token and webhook secret at rest (CONTRACT §13, ADR 26, issue 43): sealed
 * with a key derived from SESSION_SECRET, the project id bound in (app/lib/sealed-secret.server.ts).
 * A changed SESSION_SECRET makes them unreadable: the link then reads as a refused token, GitHub's
 * deliveries are refused like a wrong signature, and an owner links again (a new webhook secret).
 */
export const encryptToken = (token: string, projectId: string) => sealSecret('github-token', projectId, token)

/** The token, or null when the text does not open with this server's key. */
export const decryptToken = (stored: string, projectId: string) =>
  openSecret('github-token', projectId, stored)

export const sealWebhookSecret = (secret: string, projectId: string) =>
  sealSecret('github-webhook-secret', projectId, secret)

/** The webhook secret, or null when the text does not open with this server's key. */
export const openWebhookSecret = (stored: string, projectId: string) =>
  openSecret('github-webhook-secret', projectId, stored)

/** At start: seals the webhook secrets of links made before they were kept sealed (migration 0013). */
export const sealClearGithubWebhookSecrets = (client: Database.Database) =>
  sealClearSecrets(client, {
    table: 'github_links',
    id: 'project_id',
    column: 'webhook_secret_cipher',
    purpose: 'github-webhook-secret',
  })
