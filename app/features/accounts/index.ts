/** The front door of accounts/ for other features: its pure rules and types. */
export { contactSchema, nameChangeSchema, setPasswordSchema } from './account-forms'
