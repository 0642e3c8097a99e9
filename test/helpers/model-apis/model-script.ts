// What a scripted model does, said once for every model API family: a test lists turns (which prompt,
// which steps), and each family's stand-in says it in its own wire format. A step answers one main
// request of the agent, so a tool call and the text after it are two steps.

export type ModelStep =
  /** Final text, streamed in several deltas; ends the turn. */
  | { say: string }
  /** Calls a kandev MCP tool by its kandev name (`get_task_kandev`), however the family names it. */
  | { callKandev: string; args: Record<string, unknown> }
  /** Runs a shell command with the family's shell tool, in the way that makes the agent ask permission. */
  | { shell: string }
  /** Answers with the MCP tools the model can discover: `TOOLS: a,b` (kandev names) and `OTHER: c`. */
  | { reportTools: true }
  /** Starts streaming and never finishes, until the client goes away (a cancel or a killed agent). */
  | { hang: true };

export interface ModelTurn {
  /** A substring of the operator's prompt; the first turn that matches the latest prompt is played. */
  match: string;
  /** Step i answers the i-th main request after that prompt; past the end the model says FALLBACK. */
  steps: readonly ModelStep[];
}

export const FALLBACK_STEP: ModelStep = { say: 'OK.' };

/** The step that answers main request `index` (from 0) after the operator's prompt `prompt`. */
export function scriptedStep(turns: readonly ModelTurn[], prompt: string, index: number): ModelStep {
  const turn = turns.find((t) => prompt.includes(t.match));
  return turn?.steps[index] ?? FALLBACK_STEP;
}

export interface ToolsReport {
  /** kandev tool names, sorted. */
  kandev: string[];
  /** Any other MCP tools, as the family names them, sorted. */
  other: string[];
}

/** The text a `reportTools` step says. */
export function toolsReportText(report: ToolsReport): string {
  return `TOOLS: ${[...report.kandev].sort().join(',')}\nOTHER: ${[...report.other].sort().join(',')}`;
}

/** A reply that a `reportTools` step produced, read back (undefined when the text is not one). */
export function parseToolsReport(text: string): ToolsReport | undefined {
  const kandev = /^TOOLS: (.*)$/m.exec(text);
  const other = /^OTHER: (.*)$/m.exec(text);
  if (kandev === null || other === null) return undefined;
  const names = (list: string | undefined) => (list ?? '').split(',').filter((n) => n.length > 0);
  return { kandev: names(kandev[1]), other: names(other[1]) };
}
