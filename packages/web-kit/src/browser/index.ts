// @airlock/web-kit/browser: binds the elements of @airlock/elements (define them first, by importing that package or
// its bundle) to the kit's server part.
export { connectAirlock } from './connect-airlock.js';
export type { AirlockConnection, ConnectOptions } from './connect-airlock.js';
