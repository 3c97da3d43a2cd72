import { describe, expect, it } from 'vitest'
import { alertForFailed } from '~/features/board/board-alerts'
import type { BoardCommandType } from '~/features/board/board-commands'

describe('alertForFailed', () => {
  it("says SPEC §8's alert for the failed command, in sentence case (issue 20)", () => {
    expect(alertForFailed('card.rename')).toBe('Something went wrong when trying to rename.')
    expect(alertForFailed('persona.delete')).toBe('Something went wrong when deleting persona.')
    expect(alertForFailed('persona.update')).toBe('Something went wrong when editing persona.')
    expect(alertForFailed('persona.create')).toBe('Something went wrong when creating persona.')
    expect(alertForFailed('card.delete')).toBe('Something went wrong.')
    expect(alertForFailed(undefined)).toBe('Something went wrong.')
  })

  it('writes every alert as a sentence: a capital first, a full stop last', () => {
    const types: BoardCommandType[] = [
      'card.rename',
      'card.description',
      'feature.move',
      'milestone.move',
      'workflow.move',
      'subworkflow.move',
      'persona.delete',
      'persona.update',
      'persona.create',
      'workflowPersona.delete',
      'workflowPersona.create',
      'comment.delete',
      'comment.edit',
      'comment.create',
    ]
    for (const type of types) expect(alertForFailed(type), type).toMatch(/^[A-Z].*\.$/)
  })
})
