export const JQ_WORKER_MODULE: string;
export function jqWorkerSource(): Promise<string>;
export function jqWorkerModule(): Promise<string>;
