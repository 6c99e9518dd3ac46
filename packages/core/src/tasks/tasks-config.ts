/** What a host does with tasks. */
export interface TasksConfig {
  /**
   * At start, follow again the open tasks of calls made before a restart. Default true; a one-shot command (the
   * CLI's) passes false, and the tasks stay open for the next host.
   */
  readonly resume?: boolean;
  /** List `airlock__task_status` to the model: how a task it started without waiting stands. Default false. */
  readonly statusTool?: boolean;
  /** Host tool names of `optional` task tools to run as tasks unless the caller says otherwise (`asTask`). */
  readonly runAsTask?: readonly string[];
}
