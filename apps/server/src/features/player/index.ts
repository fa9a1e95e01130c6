export { playerRoutes } from './routes.js';
export { startTracker, type Tracker } from './tracker.js';
