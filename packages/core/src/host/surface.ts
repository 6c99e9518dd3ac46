import type { SignInAsker } from '../auth/sign-in-request.js';
import type { ElicitationAsker } from '../elicitation/elicitation-request.js';
import type { PermissionAsker } from '../permissions/permission-request.js';

/**
 * Who answers the user-facing questions: a console, a CLI, the gateway or a test each implement it. With no surface
 * attached the host fails closed: every permission request is denied with a reason saying no one could be asked.
 * Each service of the host sees only the part it asks through.
 */
export interface Surface extends PermissionAsker, ElicitationAsker, SignInAsker {}
