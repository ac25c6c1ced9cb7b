/** Types of scripts/dev-output.mjs for the TypeScript tests that import it. */

/** One line for `wrangler d1 migrations apply --local`'s output. */
export declare function summariseMigrations(output: string): string;

/** What `npm run dev` shows of each `wrangler dev` line (null: nothing); requests after `started()`. */
export declare function startFilter(): { line(text: string): string | null; started(): void };
