/** The front door of billing/ for other features: its pure rules and types. */
export { billingInfoSchema, checkoutSchema, planChangeSchema } from './billing'
