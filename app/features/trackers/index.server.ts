/** The front door of trackers/ for the composition root and other features' server code. */
export { trackerFollower } from './tracker-outbox.server'
export { trackerProjectField } from './tracker-link.server'
export { startTrackerWorker } from './tracker-worker.server'
