import { expect, it } from 'vitest'
import { templateTitleFormSchema } from '~/features/templates/template-forms'
import { templateTitleProblem } from '~/features/templates/template-title'

it("Save as template's title check in the board says what the server's schema says", () => {
  for (const title of ['', '   ', 'Shop', '  Shop  ', 'x'.repeat(200), 'x'.repeat(201)]) {
    const parsed = templateTitleFormSchema.safeParse({ title })
    expect(templateTitleProblem(title), JSON.stringify(title)).toBe(
      parsed.success ? null : parsed.error.issues[0]!.message,
    )
  }
})
