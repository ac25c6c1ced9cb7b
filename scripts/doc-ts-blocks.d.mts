/** Types of scripts/doc-ts-blocks.mjs for the TypeScript tests that import it. */
export type TsBlock = { file: string; line: number; code: string; check: boolean; run: boolean };
export declare function tsBlocks(markdown: string, file: string): TsBlock[];
export declare function docFiles(root: string): string[];
export declare function projectTsBlocks(root: string): TsBlock[];
export declare function asCommonJs(code: string): string;
