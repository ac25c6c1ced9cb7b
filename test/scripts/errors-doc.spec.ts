/**
 * docs/errors.md is checked against the one vocabulary in the source: the envelope codes
 * (ERROR_CODES), the detail codes (DETAIL_CODES), the socket's error frames and close codes
 * (src/conversations/protocol). A code the service can return is never missing from the page, the
 * page names no code the service cannot return, and every detail code written in src/ is listed.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  CLOSE_CODES,
  ClientFrameSchema,
  ServerFrameSchema,
  SocketErrorCodeSchema,
} from "../../src/conversations/protocol";
import { DETAIL_CODES } from "../../src/platform/detail-codes";
import { ERROR_CODES } from "../../src/platform/errors";

const root = join(import.meta.dirname, "../..");
const page = readFileSync(join(root, "docs/errors.md"), "utf8");

/** The rows of the table whose header row starts with `| <first> |`, as lists of cells. */
function table(first: string): string[][] {
  const lines = page.split("\n");
  const start = lines.findIndex((line) => line.startsWith(`| ${first} |`));
  expect(start, `a table headed "${first}" in docs/errors.md`).toBeGreaterThanOrEqual(0);
  const rows: string[][] = [];
  for (const line of lines.slice(start + 2)) {
    if (!line.startsWith("|")) break;
    rows.push(
      line
        .slice(1, -1)
        .split(" | ")
        .map((cell) => cell.trim()),
    );
  }
  return rows;
}

const unquote = (cell: string | undefined) => (cell ?? "").replace(/^`|`$/g, "");

/** Every .ts file under src/ but the browser's own code (its codes are the socket's, read here). */
function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) {
      return name === "dashboard" || name === "client" ? [] : sources(path);
    }
    return path.endsWith(".ts") ? [path] : [];
  });
}

describe("docs/errors.md", () => {
  it("lists every envelope code with its statuses and meaning, and no other", () => {
    const rows = table("Code").map(([code, status, meaning]) => [unquote(code), status, meaning]);
    expect(rows).toEqual(
      expect.arrayContaining(
        Object.entries(ERROR_CODES).map(([code, { status, meaning }]) => [
          code,
          status.join(", "),
          meaning,
        ]),
      ),
    );
    expect(rows).toHaveLength(Object.keys(ERROR_CODES).length);
  });

  it("lists every detail code with its meaning, in the source's order, and no other", () => {
    const rows = table("Detail code").map(([code, meaning]) => [unquote(code), meaning]);
    expect(rows).toEqual(Object.entries(DETAIL_CODES));
  });

  it("lists the socket's error frames and every close code", () => {
    const frames = table("Code").length; // the envelope's table comes first; the frames' second
    expect(frames).toBeGreaterThan(0);
    const socket = page.slice(page.indexOf("## Chat socket"));
    const codes = [...socket.matchAll(/^\| `([a-z_]+)` \|/gm)].map((match) => match[1]);
    expect(codes).toEqual(SocketErrorCodeSchema.options);
    const closes = table("Close code").map(([code, frame]) => [Number(code), unquote(frame)]);
    expect(closes).toEqual(Object.entries(CLOSE_CODES).map(([frame, code]) => [code, frame]));
  });

  it("every detail code written in src/ is a listed one, and every listed one is written there", () => {
    // zod's own issue codes, written where a rule reports an issue to zod (its params say ours).
    const zod = new Set(["custom", "too_big", "too_small", "invalid_type", "invalid_value"]);
    const known = new Set([
      ...Object.keys(DETAIL_CODES),
      ...Object.keys(ERROR_CODES),
      ...SocketErrorCodeSchema.options,
      ...zod,
    ]);
    const found = new Map<string, string>();
    for (const file of sources(join(root, "src"))) {
      if (file.endsWith("detail-codes.ts") || file.endsWith(join("platform", "errors.ts")))
        continue;
      const text = readFileSync(file, "utf8");
      const literals = [
        ...text.matchAll(/\bcode: "([a-z_]+)"/g),
        // validate.ts's `add(field, code, message)`.
        ...(file.endsWith("validate.ts") ? text.matchAll(/\badd\([^,]+, "([a-z_]+)"/g) : []),
        // The node models' `flag(path, code, message)` and `flagTo(ctx)(path, code, message)`.
        ...text.matchAll(/\bflag(?:To\(\w+\))?\(\s*\[[^\]]*\],\s*"([a-z_]+)"/g),
        ...[...text.matchAll(/\bcodes: \{([^}]*)\}/g)].flatMap((m) => [
          ...(m[1] ?? "").matchAll(/: "([a-z_]+)"/g),
        ]),
        ...[...text.matchAll(/\bconst code =([^;]*);/g)].flatMap((m) => [
          ...(m[1] ?? "").matchAll(/[?:] "([a-z_]+)"/g),
        ]),
      ];
      for (const match of literals) found.set(match[1] ?? "", file);
    }
    const unlisted = [...found].filter(([code]) => !known.has(code));
    expect(unlisted).toEqual([]);
    const written = new Set([...found.keys()]);
    // Mapped from zod's issues in src/platform/validation.ts and nodes/problems.ts.
    for (const code of [
      "unknown_field",
      "out_of_range",
      "invalid_option",
      "invalid_format",
      "invalid_value",
    ]) {
      written.add(code);
    }
    const unused = Object.keys(DETAIL_CODES).filter((code) => !written.has(code));
    expect(unused).toEqual([]);
  });
});

describe("README.md's socket frames", () => {
  it("names every frame the protocol defines, each way", () => {
    const readme = readFileSync(join(root, "README.md"), "utf8");
    const start = readme.indexOf("- Socket frames:");
    const section = readme.slice(start, readme.indexOf("\n- ", start + 1));
    const named = new Set([...section.matchAll(/\{"type":"([a-z]+)"/g)].map((m) => m[1]));
    const types = [...ClientFrameSchema.def.options, ...ServerFrameSchema.def.options].map(
      (frame) => frame.def.shape.type.def.values[0],
    );
    expect(types.filter((type) => !named.has(type))).toEqual([]);
  });
});

/** END_REASONS, read from its source (the contract's types need the Workers runtime's). */
const END_REASONS = (() => {
  const contract = readFileSync(join(root, "src/conversations/conversation/contract.ts"), "utf8");
  const list = /export const END_REASONS = \[([^\]]*)\]/.exec(contract)?.[1] ?? "";
  return [...list.matchAll(/"([a-z]+)"/g)].map((m) => m[1]);
})();

describe("docs/events.md's end reasons", () => {
  it("names the conversation's END_REASONS, one word per end, for workflows and for endpoints", () => {
    expect(END_REASONS).toContain("server");
    const events = readFileSync(join(root, "docs/events.md"), "utf8");
    const trigger = events.slice(events.indexOf("(`reason` on `conversation.ended`:"));
    const listed = trigger.slice(0, trigger.indexOf(")", trigger.indexOf("same word")));
    const forWorkflows = [...listed.matchAll(/`([a-z]+)`/g)].map((m) => m[1]);
    expect(forWorkflows.filter((word) => word !== "reason")).toEqual(
      expect.arrayContaining([...END_REASONS]),
    );
    expect(forWorkflows).not.toContain("revoked");
    // The second table naming conversation.ended is the lifecycle events' (the first, workflows').
    const row =
      events.split("\n").findLast((line) => line.startsWith("| `conversation.ended` |")) ?? "";
    const forEndpoints = [...(row.split(" | ")[1] ?? "").matchAll(/`([a-z]+)` \(/g)].map(
      (m) => m[1],
    );
    expect(forEndpoints).toEqual([...END_REASONS]);
  });
});
