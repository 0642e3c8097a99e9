// Session ids are UUIDs (RFC 9562, any case): the backend mints them with randomUUID, and agentctl
// registers no other id, since it becomes the MCP URL path and a field of every log line.
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isSessionId(value: string): boolean {
  return UUID.test(value);
}
