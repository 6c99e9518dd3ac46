// @airlock/web-kit: the server part. A Hono app that serves one user's calls and questions to the page and takes its
// decisions, answers and cancels; the browser part is `@airlock/web-kit/browser`.
export { createWebKit } from './web-kit.js';
export type { WebKit, WebKitOptions } from './web-kit.js';
export type { ExtraEvents, KitEnv, KitServer, ScopeOf } from './serve-kit.js';
export { EventHub } from './event-hub.js';
export type { OpenStream, Viewer } from './event-hub.js';
export { eventStream } from './event-stream.js';
export type { EventMessage, EventStreamOptions, StreamOpening } from './event-stream.js';
export { isKitNews, memoryQuestionBus, sameTenant, tenantKey } from './kit-question-bus.js';
export type { KitBusNews, KitClaim, KitOtherNews, KitQuestionBus, Tenant } from './kit-question-bus.js';
export type { KitSession, KitSessions } from './kit-sessions.js';
export type { KitCall, KitError, KitEventMap, KitEventName } from './kit-events.js';
export { KitSurface } from './kit-surface.js';
export type { KitSignIn, KitSurfaceOptions, QuestionNews } from './kit-surface.js';
export { KitRefusal } from './kit-refusal.js';
export { kitActionRoutes } from './kit-action-routes.js';
export type { KitActionHandler, KitActionPorts, KitActionRoutes } from './kit-action-routes.js';
export { KitRunningCalls } from './kit-running-calls.js';
export type { KitCalls } from './kit-running-calls.js';
export { KitHostQuestions } from './kit-host-questions.js';
export type { KitQuestions } from './kit-host-questions.js';
export { readJsonBody } from './kit-body.js';
