import { ErrorEnvelope } from '../schemas/common.js';
/** The error statuses a route can answer, each with the error envelope (for docs and serialisation). */
export function errorResponses(...statuses) {
    return Object.fromEntries(statuses.map((status) => [status, ErrorEnvelope]));
}
//# sourceMappingURL=responses.js.map