/** Types of scripts/port-option.mjs for the tests that import it. */
export declare function portOption(
  argv: readonly string[],
  envPort: string | undefined,
  fallback: number,
): number;
