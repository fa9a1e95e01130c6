export { playerRoutes } from './routes.js';
export { startTracker } from './tracker.js';
