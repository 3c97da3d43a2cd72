/** The front door of trackers/ for the board page: its UI parts. */
export { TrackerBoard } from './tracker-board'
export { TrackerFeatureIssue, TrackerSendRelease } from './issue-controls'
