// The targets a benchmark is held to. Each benchmark prints one line per target in exactly this form;
// `npm run bench` repeats every such line at the end, so a run ends with the verdict.
export const TARGET_LINE = /^target: .+ = .+ \(goal .+\) (pass|FAIL)$/;

/** Prints `target: <name> = <figure> (goal <goal>) pass|FAIL` and returns whether it passed. */
export function reportTarget(name, figure, goal, passed) {
  console.log(`target: ${name} = ${figure} (goal ${goal}) ${passed ? 'pass' : 'FAIL'}`);
  return passed;
}

/** A ratio as printed in target lines: `x0.37`. */
export function ratio(value) {
  return `x${value.toFixed(2)}`;
}

/** Milliseconds as printed in target lines: `4.21 ms`. */
export function ms(value) {
  return `${value.toFixed(2)} ms`;
}
