/** What the AI clients log through: pino's Logger fits; the domain does not depend on pino. */
export type AiLog = { warn(obj: object, msg: string): void };
