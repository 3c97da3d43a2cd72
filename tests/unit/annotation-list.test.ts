import { describe, expect, it } from 'vitest'
import { annotationList, ANNOTATIONS } from '~/features/map/vocabulary'

describe("a card's annotations as a list", () => {
  it('is empty for none, in the board order whatever order they were written in, without unknown names', () => {
    expect(annotationList('')).toEqual([])
    expect(annotationList([...ANNOTATIONS].reverse().join(','))).toEqual([...ANNOTATIONS])
    expect(annotationList(`${ANNOTATIONS[1]},NOT_ONE,${ANNOTATIONS[0]}`)).toEqual([
      ANNOTATIONS[0],
      ANNOTATIONS[1],
    ])
    expect(annotationList(`${ANNOTATIONS[0].toLowerCase()}`)).toEqual([])
  })
})
