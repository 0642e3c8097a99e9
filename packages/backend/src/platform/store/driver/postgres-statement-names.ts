// PostgreSQL parses and plans a statement sent without a name on every run; for a request's dozen short
// statements that is a measurable share of a source change under load.
// A named statement is parsed once per connection and its plan kept. Which statements get a name:
// - with parameters only: a statement without goes as a simple query, which may hold several statements
//   (the locking BEGIN) and cannot be named;
// - no `*` in its text: a `select *` or `returning *` result changes when a migration adds a column, and
//   PostgreSQL refuses to run a statement prepared before ("cached plan must not change result type"),
//   which is what a replica still running would do while another one migrates;
// - seen before: a one-off text (an `IN (…)` of an unusual length) is not kept on the server;
// - at most `named` in the process: each is kept once per connection on the server, and never dropped.

/** Distinct statements the process names; past it, new texts run unnamed. */
const NAMED_STATEMENTS = 200;
/** Texts seen once, remembered so the second run names them; all forgotten at once when full. */
const SEEN_ONCE = 2_000;

export interface StatementNameLimits {
  named: number;
  seenOnce: number;
}

/** The names statements run under, by SQL text. */
export class StatementNames {
  private readonly names = new Map<string, string>();
  private seenOnce = new Set<string>();

  constructor(private readonly limits: StatementNameLimits = { named: NAMED_STATEMENTS, seenOnce: SEEN_ONCE }) {}

  /** The name `text` runs under, or undefined: it runs unnamed (parsed and planned each time). */
  nameFor(text: string, parameterCount: number): string | undefined {
    const named = this.names.get(text);
    if (named !== undefined) return named;
    if (parameterCount === 0 || text.includes('*') || this.names.size >= this.limits.named) return undefined;
    if (!this.seenOnce.delete(text)) {
      if (this.seenOnce.size >= this.limits.seenOnce) this.seenOnce = new Set();
      this.seenOnce.add(text);
      return undefined;
    }
    const name = `kandev_${this.names.size + 1}`;
    this.names.set(text, name);
    return name;
  }
}
