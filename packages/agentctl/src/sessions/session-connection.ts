/** One live MCP client connection of a runtime session, as the registry sees it. */
export interface SessionConnection {
  /** The transport's `mcp-session-id`. */
  readonly id: string;
  /** Sends one `notifications/tools/list_changed` to this client. */
  notifyToolsChanged(): Promise<void>;
  /** Closes the transport; the client must reconnect (and re-authenticate). */
  close(): Promise<void>;
}
