import { z } from 'zod'

/**
 * Form and API schemas shared by the browser and the server, with SPEC §5's exact texts.
 * conform turns an empty field into `undefined`, which is where the "required" texts show.
 */
export function text(required: string) {
  return z.string({ error: (issue) => (issue.input === undefined ? required : 'Must be text.') })
}

export const RESERVED_WORKSPACE_NAMES = new Set([
  'account',
  'link',
  'v1',
  'api',
  'mcp',
  'healthz',
  'metrics',
  'assets',
  'build',
  'favicon',
])

export const workspaceNameSchema = text('Required.')
  .trim()
  .min(2, 'Minimum 2 characters.')
  .max(200, 'Maximum 200 characters.')
  .regex(/^[a-z0-9]+$/, 'Lowercase alphanumerics only. Spaces not allowed.')

export const personNameSchema = text('Required.')
  .trim()
  .min(1, 'Minimum 1 character.')
  .max(200, 'Maximum 200 characters.')

export const loginSchema = z.object({
  email: text('Email required.').trim().pipe(z.email('Email invalid.')),
  password: text('Password required.')
    .min(6, 'Password minimum 6 characters.')
    .max(200, 'Password maximum 200 characters.'),
})

const signupFields = z.object({
  workspaceName: workspaceNameSchema.optional(),
  name: personNameSchema,
  email: text('Required.').trim().pipe(z.email('Invalid email address.')),
  password: text('Required.').min(6, 'Minimum 6 characters.').max(200, 'Maximum 200 characters.'),
  /** An invitation code, required when sign-up is invite-only. */
  invitation: z.string().max(200).optional(),
})

/**
 * Sign-up: with a first workspace of its own, or through an invitation (`invitation`: the code),
 * which joins the inviting workspace instead, so that form has no workspace field.
 */
export const signupSchema = signupFields.refine((v) => v.invitation || v.workspaceName !== undefined, {
  path: ['workspaceName'],
  message: 'Required.',
  // Shown together with the other fields' errors, not only once they are right.
  when: ({ value }) => typeof value === 'object' && value !== null,
})

/** Server error codes of sign-up (SPEC §8), keyed by the field they belong to. */
export const SIGNUP_FIELD_CODES = {
  workspaceName: 'workspace_invalid',
  name: 'name_invalid',
  email: 'email_invalid',
  password: 'password_invalid',
} as const

export const SIGNUP_ERROR_TEXT: Record<string, string> = {
  email_invalid: 'Email is invalid.',
  workspace_invalid: 'Workspace is invalid.',
  name_invalid: 'Name is invalid.',
  password_invalid: 'Password is invalid.',
  email_taken: 'Email is already registered.',
  workspace_taken: 'Workspace name is already registered.',
}

export const createWorkspaceSchema = z.object({ name: workspaceNameSchema })

export const CREATE_WORKSPACE_ERROR_TEXT: Record<string, string> = {
  name_invalid: 'Name is invalid.',
  workspace_taken: 'The name is already taken.',
}

const projectTitle = text('Title required.')
  .trim()
  .min(1, 'Project minimum 1 character.')
  .max(200, 'Project maximum 200 characters.')

/** Create project dialog (SPEC §5). */
export const createProjectSchema = z.object({ title: projectTitle })

/** Duplicate project dialog: the copy's title, same rules. */
export const duplicateProjectSchema = z.object({ projectId: z.string(), title: projectTitle })
