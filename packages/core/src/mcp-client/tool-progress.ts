import type { ToolProgress } from '../tools/tool.js';

/** A progress notification's params as the host tells a call's progress: its number, total and message only. */
export function progressOf(p: { progress: number; total?: number; message?: string }): ToolProgress {
  return {
    progress: p.progress,
    ...(p.total === undefined ? {} : { total: p.total }),
    ...(p.message === undefined ? {} : { message: p.message }),
  };
}
