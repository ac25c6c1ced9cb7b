/** Types of scripts/doc-test-parse.mjs for the TypeScript tests that import it. */

export type Shape =
  | { kind: "any" }
  | { kind: "literal"; value: unknown }
  | { kind: "string"; pattern: RegExp; text: string }
  | { kind: "object"; members: [string, Shape][]; open: boolean }
  | { kind: "array"; items: Shape[]; open: boolean };

export type Expectation = {
  status: number | null;
  shape: Shape | null;
  headers: { name: string; value: Shape }[];
  text: string;
};

export type Step = {
  line: number;
  code: string;
  expect: Expectation | null;
  captures: { name: string; path: string }[];
  skip: string | null;
};

export type Block = {
  file: string;
  line: number;
  text: string;
  skip: string | null;
  steps: Step[];
};

export declare function extractBlocks(markdown: string, file: string): Block[];
export declare function splitSteps(lines: string[], file: string, firstLine: number): Step[];
export declare function parseExpectation(text: string): Expectation;
export declare function parseShape(text: string, at: number): { shape: Shape; end: number };
export declare function matchShape(shape: Shape, value: unknown, path?: string): string[];
export declare function pick(value: unknown, path: string): unknown;
