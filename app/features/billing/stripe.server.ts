import type Stripe from 'stripe'
import { BILLING_TEXT } from './billing'
import { refuse } from '~/lib/errors'
import { getEnv } from '~/lib/env.server'
import { singleton } from '~/lib/singleton.server'

/** The SDK itself, once loaded: a self-hosted server never loads it (ADR 23). */
let stripeSdk: typeof Stripe | undefined

/**
 * The Stripe SDK client, created on first use in hosted mode only. `STRIPE_API_URL` points it
 * at another host (tests use a local fake Stripe over HTTP).
 */
export async function getStripe(): Promise<Stripe> {
  const env = getEnv()
  if (env.APP_MODE !== 'hosted' || !env.STRIPE_SECRET_KEY) {
    throw refuse.unavailable('billing_unconfigured', BILLING_TEXT.notConfigured)
  }
  const key = env.STRIPE_SECRET_KEY
  const sdk = (stripeSdk ??= (await import('stripe')).default)
  return singleton('stripe', () => {
    const target = env.STRIPE_API_URL ? new URL(env.STRIPE_API_URL) : null
    return new sdk(key, {
      maxNetworkRetries: 2,
      timeout: 15_000,
      appInfo: { name: 'Storymap' },
      ...(target
        ? {
            host: target.hostname,
            port: Number(target.port || (target.protocol === 'https:' ? 443 : 80)),
            protocol: target.protocol === 'https:' ? 'https' : 'http',
          }
        : {}),
    })
  })
}

/** The provider's own message for a failed call (SPEC §8: checkout errors show it). */
export function stripeErrorMessage(error: unknown): string | null {
  // No SDK loaded: no error can have come from it.
  return stripeSdk && error instanceof stripeSdk.errors.StripeError ? error.message : null
}
