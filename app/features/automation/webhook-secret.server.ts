import type Database from 'better-sqlite3'
import { openSecret, sealClearSecrets, sealSecret } from '~/lib/sealed-secret.server'

/**
 * An endpoint's signing secret at rest (issue 43): sealed with a key derived from SESSION_SECRET,
 * the endpoint's id bound in (app/lib/sealed-secret.server.ts). The server opens it for each
 * signature. After SESSION_SECRET changed it no longer opens: nothing is sent, the delivery log
 * says why (UNREADABLE_SECRET), and an owner deletes the endpoint and adds it again.
 */
export const sealWebhookSecret = (secret: string, webhookId: string) =>
  sealSecret('webhook-secret', webhookId, secret)

/** The `whsec_…` secret, or null when the text does not open with this server's key. */
export const openWebhookSecret = (stored: string, webhookId: string) =>
  openSecret('webhook-secret', webhookId, stored)

export const UNREADABLE_SECRET =
  'The signing secret cannot be read: SESSION_SECRET changed since this webhook was added. Delete the webhook and add it again.'

/** At start: seals the secrets of endpoints added before they were kept sealed (migration 0013). */
export const sealClearWebhookSecrets = (client: Database.Database) =>
  sealClearSecrets(client, {
    table: 'webhooks',
    id: 'id',
    column: 'secret_cipher',
    purpose: 'webhook-secret',
  })
