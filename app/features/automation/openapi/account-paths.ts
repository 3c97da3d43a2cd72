import { z } from 'zod'
import { contactSchema, nameChangeSchema, setPasswordSchema } from '~/features/accounts'
import { inviteSchema as inviteInput, levelChangeSchema } from '~/features/workspaces'
import { createTokenSchema } from '~/features/automation/api-tokens'
import { billingInfoSchema, checkoutSchema, planChangeSchema } from '~/features/billing'
import { createWorkspaceSchema, loginSchema, signupSchema } from '~/lib/validation'
import type { PathSpecs } from './operations'
import {
  acceptedInvitationSchema,
  accountSchema,
  appStateSchema,
  checkoutSessionSchema,
  emptySchema,
  invitationSchema,
  inviteSchema,
  memberSchema,
  subscriptionSchema,
  tokenSchema,
  workspaceSchema,
  workspaceTokenSchema,
} from './schemas'

const sessionCookie = 'Sets the session cookie.'

/** Sign-up, log-in and the signed-in account (SPEC §7 "Account and authentication", CONTRACT §10 tokens). */
export const ACCOUNT_PATHS: PathSpecs = {
  '/v1/users/signup': {
    post: {
      tag: 'Account',
      summary: 'Sign up',
      description: sessionCookie,
      access: 'public',
      body: signupSchema,
      ok: accountSchema,
      errors: {
        403: '`signup_closed` (sign-up by invitation only), or `password_login_disabled` (the server allows single sign-on only).',
        409: '`email_taken` or `workspace_taken`.',
        429: 'Too many attempts.',
      },
    },
  },
  '/v1/users/login': {
    post: {
      tag: 'Account',
      summary: 'Log in',
      description: sessionCookie,
      access: 'public',
      body: loginSchema,
      ok: accountSchema,
      errors: {
        401: '`login_failed`.',
        403: '`password_login_disabled`: the server allows single sign-on only.',
        429: 'Too many attempts.',
      },
    },
  },
  '/v1/users/logout': {
    post: {
      tag: 'Account',
      summary: 'Log out',
      description: 'Ends the session on the server.',
      access: 'public',
      ok: emptySchema,
    },
  },
  '/v1/users/invite/{key}': {
    get: {
      tag: 'Members',
      summary: 'What an invitation offers',
      access: 'public',
      ok: invitationSchema,
      errors: { 404: 'No such invitation, or it expired.' },
    },
    post: {
      tag: 'Members',
      summary: 'Accept an invitation',
      access: 'account',
      ok: acceptedInvitationSchema,
      errors: {
        403: 'The invitation is for another address (`invitation_email_mismatch`), or tokens may not call this.',
        404: 'No such invitation, or it expired.',
      },
    },
  },
  '/v1/users/verify/{key}': {
    post: {
      tag: 'Account',
      summary: 'Confirm an e-mail address',
      access: 'public',
      ok: accountSchema,
      errors: { 400: '`key_invalid`: no such key, or it expired.' },
    },
  },
  '/v1/users/reset/{email}': {
    post: {
      tag: 'Account',
      summary: 'Send a password reset link',
      description: 'Answers the same whether or not the address has an account.',
      access: 'public',
      ok: emptySchema,
      errors: { 400: '`email_invalid`.', 429: 'Too many attempts.' },
    },
  },
  '/v1/users/setpassword': {
    post: {
      tag: 'Account',
      summary: 'Set a new password with a reset key',
      access: 'public',
      body: setPasswordSchema,
      ok: emptySchema,
      errors: { 400: '`key_invalid` (no such key, or it expired), or `password_invalid`.' },
    },
  },
  '/v1/users/contact': {
    post: {
      tag: 'Account',
      summary: 'Write to the team behind this server',
      access: 'public',
      body: contactSchema,
      ok: emptySchema,
      errors: { 429: 'Too many messages.' },
    },
  },
  '/v1/account/app': {
    get: {
      tag: 'Account',
      summary: 'Everything the signed-in app starts with',
      access: 'account',
      ok: appStateSchema,
    },
  },
  '/v1/account/nameupdate': {
    post: {
      tag: 'Account',
      summary: 'Change your name',
      access: 'account',
      body: nameChangeSchema,
      ok: accountSchema,
    },
  },
  '/v1/account/emailupdate/{email}': {
    post: {
      tag: 'Account',
      summary: 'Change your e-mail address',
      description: 'A confirmation link goes to the new address.',
      access: 'account',
      ok: emptySchema,
      errors: { 400: '`email_invalid`.', 409: '`email_taken`.' },
    },
  },
  '/v1/account/resend': {
    post: {
      tag: 'Account',
      summary: 'Send the confirmation e-mail again',
      access: 'account',
      ok: emptySchema,
    },
  },
  '/v1/account/delete': {
    post: {
      tag: 'Account',
      summary: 'Delete your account',
      access: 'account',
      ok: emptySchema,
      errors: { 403: 'You are the last owner of a workspace with other members, or a token called.' },
    },
  },
  '/v1/account/workspaces': {
    post: {
      tag: 'Workspace',
      summary: 'Create a workspace',
      access: 'account',
      body: createWorkspaceSchema,
      ok: workspaceSchema,
      errors: { 409: '`workspace_taken`.' },
    },
  },
  '/v1/account/tokens': {
    get: {
      tag: 'API tokens',
      summary: 'Your API tokens',
      access: 'account',
      ok: z.object({ tokens: z.array(tokenSchema.extend({ workspaceName: z.string() })) }),
    },
    post: {
      tag: 'API tokens',
      summary: 'Make an API token',
      description: 'The secret (`smp_…`) is in this answer only; the server keeps a hash.',
      access: 'account',
      body: createTokenSchema,
      status: 201,
      ok: z.object({
        token: tokenSchema,
        secret: z.string().meta({ description: 'Send as `Authorization: Bearer smp_…`.' }),
      }),
      errors: { 403: 'Not a member of that workspace, or a token called.' },
    },
  },
  '/v1/account/tokens/{id}': {
    delete: {
      tag: 'API tokens',
      summary: 'Revoke one of your API tokens',
      access: 'account',
      ok: emptySchema,
      errors: { 404: 'No such token of yours.' },
    },
  },
}

const ownerOrAdmin = 'Only owners and admins.'

/** A workspace's members, invitations, settings and plan (SPEC §7 "Workspace"). */
export const WORKSPACE_PATHS: PathSpecs = {
  '/v1/members': {
    get: {
      tag: 'Members',
      summary: "The workspace's members",
      access: 'workspace',
      ok: z.array(memberSchema),
    },
  },
  '/v1/members/{id}/level': {
    post: {
      tag: 'Members',
      summary: "Change a member's level",
      description: ownerOrAdmin,
      access: 'workspace',
      write: true,
      body: levelChangeSchema,
      ok: emptySchema,
    },
  },
  '/v1/members/{id}': {
    delete: {
      tag: 'Members',
      summary: 'Remove a member',
      description: `${ownerOrAdmin} Their API tokens are revoked.`,
      access: 'workspace',
      write: true,
      ok: emptySchema,
    },
  },
  '/v1/invites': {
    get: {
      tag: 'Members',
      summary: 'Pending invitations',
      description: ownerOrAdmin,
      access: 'workspace',
      ok: z.array(inviteSchema),
    },
    post: {
      tag: 'Members',
      summary: 'Invite someone by e-mail',
      description: ownerOrAdmin,
      access: 'workspace',
      write: true,
      body: inviteInput,
      ok: inviteSchema,
      errors: { 429: 'Too many invitations.' },
    },
  },
  '/v1/invites/{id}': {
    delete: {
      tag: 'Members',
      summary: 'Cancel an invitation',
      access: 'workspace',
      write: true,
      ok: emptySchema,
    },
  },
  '/v1/invites/{id}/resend': {
    post: {
      tag: 'Members',
      summary: 'Send an invitation again',
      access: 'workspace',
      write: true,
      ok: inviteSchema,
    },
  },
  '/v1/leave': {
    post: {
      tag: 'Workspace',
      summary: 'Leave the workspace',
      access: 'workspace',
      write: true,
      ok: emptySchema,
    },
  },
  '/v1/delete': {
    post: {
      tag: 'Workspace',
      summary: 'Delete the workspace',
      description: 'Owners only.',
      access: 'workspace',
      sessionOnly: true,
      write: true,
      ok: emptySchema,
    },
  },
  '/v1/settings/allow-external-sharing': {
    post: {
      tag: 'Sharing',
      summary: 'Allow or stop public links in this workspace',
      description: ownerOrAdmin,
      access: 'workspace',
      write: true,
      body: z.object({ value: z.boolean() }),
      ok: workspaceSchema,
    },
  },
  '/v1/settings/general-info': {
    post: {
      tag: 'Billing',
      summary: 'Billing e-mail and EU VAT number',
      description: 'Owners, hosted mode.',
      access: 'workspace',
      write: true,
      body: billingInfoSchema,
      ok: workspaceSchema,
    },
  },
  '/v1/subscription/checkoutsession': {
    post: {
      tag: 'Billing',
      summary: 'Start paying for a plan',
      description: 'Owners, hosted mode. The browser goes on to `url`.',
      access: 'workspace',
      write: true,
      body: checkoutSchema(1),
      ok: checkoutSessionSchema,
      errors: { 502: 'The payment provider failed.' },
    },
  },
  '/v1/subscription/change': {
    post: {
      tag: 'Billing',
      summary: 'Change or cancel a paid plan',
      description: 'Owners, hosted mode.',
      access: 'workspace',
      write: true,
      body: planChangeSchema(1),
      ok: subscriptionSchema,
      errors: { 502: 'The payment provider failed.' },
    },
  },
  '/v1/subscription/webhook': {
    post: {
      tag: 'Billing',
      summary: "Stripe's events",
      description: 'Called by Stripe; authenticated by the `Stripe-Signature` header.',
      access: 'public',
      body: z.looseObject({ id: z.string(), type: z.string() }),
      ok: z.looseObject({}),
      errors: { 400: 'No valid `Stripe-Signature`.', 404: 'Not in self-hosted mode.' },
    },
  },
  '/v1/workspace/tokens': {
    get: {
      tag: 'API tokens',
      summary: "Every member's API tokens of the workspace",
      description: ownerOrAdmin,
      access: 'workspace',
      sessionOnly: true,
      ok: z.object({ tokens: z.array(workspaceTokenSchema) }),
    },
  },
  '/v1/workspace/tokens/{id}': {
    delete: {
      tag: 'API tokens',
      summary: "Revoke a member's API token",
      description: ownerOrAdmin,
      access: 'workspace',
      sessionOnly: true,
      write: true,
      ok: emptySchema,
    },
  },
}
