/** The front door of automation/ for other features' server code. */
export { isPrivateAddress, resolveHost } from './webhook-address.server'
