/** Types of ./fake-openai.mjs, the fake chat-completions server of the brain tests. */
export declare const REPLY: string[];
export declare function startFakeOpenAi(): Promise<{ url: string; close(): void }>;
export declare const ANALYSIS: { summary: string; data: Record<string, unknown> };
