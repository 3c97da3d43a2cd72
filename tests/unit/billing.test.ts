import { describe, expect, it } from 'vitest'
import {
  billingInfoSchema,
  checkoutSchema,
  planChangeSchema,
  subscriptionFromStripe,
  totalPrice,
} from '~/features/billing/billing'
import { editorCount, seatLimit, seatRefusal } from '~/features/map/plan'

const messages = (result: { success: boolean; error?: { issues: { message: string }[] } }) =>
  result.success ? [] : result.error!.issues.map((i) => i.message)

describe('editor count of the plan form (SPEC §5)', () => {
  it('needs at least one editor and not fewer than the workspace has', () => {
    const schema = checkoutSchema(3)
    expect(messages(schema.safeParse({ plan: 'basic', quantity: '0' }))).toContain(
      'At least one editor is required',
    )
    expect(messages(schema.safeParse({ plan: 'basic', quantity: '' }))).toEqual([
      'At least one editor is required',
    ])
    expect(messages(schema.safeParse({ plan: 'basic', quantity: 2 }))).toEqual([
      'Need to have at least 3 editors.',
    ])
    expect(messages(schema.safeParse({ plan: 'basic', quantity: '2.5' }))).toContain('Must be an integer.')
    expect(schema.parse({ plan: 'basic', quantity: ' 3 ' })).toEqual({ plan: 'basic', quantity: 3 })
    expect(schema.safeParse({ plan: 'gold', quantity: 3 }).success).toBe(false)
  })

  it('a workspace with no editors still buys one', () => {
    expect(messages(checkoutSchema(0).safeParse({ plan: 'pro', quantity: 0 }))).toEqual([
      'At least one editor is required',
    ])
  })

  it('cancel needs no count; a paid plan does', () => {
    expect(planChangeSchema(4).parse({ plan: 'cancel' })).toMatchObject({ plan: 'cancel' })
    expect(messages(planChangeSchema(4).safeParse({ plan: 'basic', quantity: 3 }))).toEqual([
      'Need to have at least 4 editors.',
    ])
    expect(planChangeSchema(4).parse({ plan: 'pro', quantity: 4 })).toEqual({ plan: 'pro', quantity: 4 })
  })
})

describe('seats', () => {
  it('counts EDITOR, ADMIN and OWNER as editors', () => {
    expect(editorCount(['VIEWER', 'EDITOR', 'ADMIN', 'OWNER', 'VIEWER'])).toBe(3)
  })

  it('limits only paid plans in hosted mode', () => {
    expect(seatLimit({ level: 'BASIC', numberOfEditors: 2 }, 'hosted')).toBe(2)
    expect(seatLimit({ level: 'TRIAL', numberOfEditors: 1 }, 'hosted')).toBeNull()
    expect(seatLimit({ level: 'PRO', numberOfEditors: 1 }, 'selfhosted')).toBeNull()
  })

  it('refuses only what goes over the limit', () => {
    expect(seatRefusal(2, 1, 1)).toBeNull()
    expect(seatRefusal(2, 2, 1)).toMatch(/pays for 2 editors/)
    expect(seatRefusal(1, 1, 1)).toMatch(/pays for 1 editor and/)
    expect(seatRefusal(2, 5, 0)).toBeNull() // a demotion or a viewer never needs a seat
    expect(seatRefusal(null, 99, 1)).toBeNull()
  })
})

describe('the subscription that follows Stripe', () => {
  const now = new Date('2026-11-22T12:00:00Z')
  const facts = {
    status: 'active',
    priceId: 'price_pro',
    quantity: 4,
    periodStart: 1_790_000_000,
    periodEnd: 1_792_592_000,
    cancelAtPeriodEnd: false,
    endedAt: null,
  }
  const prices = { basic: 'price_basic', pro: 'price_pro' }

  it('maps price to level and copies the period, status and quantity', () => {
    expect(subscriptionFromStripe(facts, prices, now)).toEqual({
      level: 'PRO',
      externalStatus: 'active',
      numberOfEditors: 4,
      fromDate: new Date(1_790_000_000_000).toISOString(),
      expirationDate: new Date(1_792_592_000_000).toISOString(),
      cancelAtPeriodEnd: false,
    })
    expect(subscriptionFromStripe({ ...facts, priceId: 'price_basic' }, prices, now).level).toBe('BASIC')
  })

  it('a cancelled subscription ends when Stripe ended it', () => {
    const ended = subscriptionFromStripe(
      { ...facts, status: 'canceled', cancelAtPeriodEnd: true, endedAt: 1_791_000_000 },
      prices,
      now,
    )
    expect(ended).toMatchObject({
      externalStatus: 'canceled',
      expirationDate: new Date(1_791_000_000_000).toISOString(),
      cancelAtPeriodEnd: false,
    })
  })
})

describe('billing information', () => {
  it('needs a valid billing e-mail; VAT is free text', () => {
    expect(messages(billingInfoSchema.safeParse({ externalBillingEmail: 'x', euVat: '' }))).toEqual([
      'Invalid email address',
    ])
    expect(messages(billingInfoSchema.safeParse({ euVat: '' }))).toEqual(['Required.'])
    expect(billingInfoSchema.parse({ externalBillingEmail: ' a@b.eu ', euVat: ' FR 12 345 ' })).toEqual({
      externalBillingEmail: 'a@b.eu',
      euVat: 'FR 12 345',
    })
  })

  it('totals price × editors in dollars', () => {
    expect(totalPrice(9, 3)).toBe(27)
    expect(totalPrice(9.99, 3)).toBe(29.97)
  })
})
