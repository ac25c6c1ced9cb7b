/** Types of scripts/dev-output.mjs for the TypeScript tests that import it. */

/** One line for `wrangler d1 migrations apply --local`'s output. */
export declare function summariseMigrations(output: string): string;

/** Which of `wrangler dev`'s lines `npm run dev` shows; request lines only after `started()`. */
export declare function startFilter(): { show(line: string): boolean; started(): void };
