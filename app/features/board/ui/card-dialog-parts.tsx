import { createContext, useContext, type ComponentType } from 'react'
import type { Feature } from '~/features/map/bundle-types'

/**
 * Parts of the card dialog that other features bring: watching (notifications), a feature's
 * issue and a release's "send" (trackers), the project's sharing (workspaces), the assistant's suggestions. The board page
 * (app/pages/board) puts them in, so the board imports none of those features; a board without
 * them (the public link) shows none.
 */
export type CardDialogParts = {
  FeatureWatch?: ComponentType<{ featureId: string }>
  FeatureIssue?: ComponentType<{ feature: Feature }>
  ReleaseIssues?: ComponentType<{ milestoneId: string }>
  ProjectSharing?: ComponentType<{ projectId: string; basePath: string }>
  /** The assistant's `Suggest` (CONTRACT §16), only where the member may use it. */
  FeatureSuggest?: ComponentType<{ feature: Feature }>
}

const PartsContext = createContext<CardDialogParts>({})

export const CardDialogPartsProvider = PartsContext.Provider

export const useCardDialogParts = () => useContext(PartsContext)
