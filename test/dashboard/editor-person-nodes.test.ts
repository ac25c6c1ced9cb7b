/**
 * The editor and the person nodes (docs/dashboard.md#workflow-editor, docs/workflows.md): the
 * palette offers the four types, and an ask_person has two outputs, answered and timeout, taken
 * from its model as a condition's true and false are: edges, added nodes, the connect form's
 * check and the definition saved all carry the branch.
 */
import { describe, expect, it } from "vitest";
import { placeAdded, refusalOf } from "../../src/dashboard/screens/workflows/editor/adding";
import {
  type CanvasNode,
  canvasEdge,
  canvasNode,
  type NodeJson,
  toDefinition,
} from "../../src/dashboard/screens/workflows/editor/model";
import { branchesOf, NODE_TYPES } from "../../src/workflows/nodes";

const node = (id: string, json: NodeJson, x: number): CanvasNode =>
  canvasNode(id, json, { x, y: 0 });
const ask = node("n1", { key: "ask", type: "ask_person", timeoutSeconds: 60 } as NodeJson, 260);
const yes = node("n2", { key: "yes", type: "set" }, 520);
const no = node("n3", { key: "no", type: "set" }, 520);

describe("the person nodes in the editor", () => {
  it("are in the palette's types", () => {
    for (const type of ["create_link", "send_message", "ask_person", "end_conversation"]) {
      expect(NODE_TYPES).toContain(type);
    }
  });

  it("gives ask_person the branches answered and timeout, and the others none", () => {
    expect(branchesOf("ask_person")).toEqual(["answered", "timeout"]);
    expect(branchesOf("condition")).toEqual(["true", "false"]);
    expect(branchesOf("send_message")).toEqual([]);
  });

  it("keeps an ask_person's branch on its edges and in the definition saved", () => {
    const edges = [canvasEdge("n1", "n2", "answered"), canvasEdge("n1", "n3", "timeout")];
    expect(edges.map((edge) => edge.sourceHandle)).toEqual(["answered", "timeout"]);
    expect(toDefinition([ask, yes, no], edges).connections).toEqual([
      { from: "ask", to: "yes", branch: "answered" },
      { from: "ask", to: "no", branch: "timeout" },
    ]);
  });

  it("connects a node added after an ask_person on its first free branch", () => {
    expect(placeAdded([ask], [], "n1", "set", { x: 0, y: 0 }).from).toEqual({
      source: "n1",
      branch: "answered",
    });
    const answered = [canvasEdge("n1", "n2", "answered")];
    expect(placeAdded([ask, yes], answered, "n1", "set", { x: 0, y: 0 }).from?.branch).toBe(
      "timeout",
    );
  });

  it("asks for an ask_person's branch before connecting it", () => {
    expect(refusalOf([ask, yes], [], "n1", "n2", null)).toBe(
      "Choose the ask person's branch: answered or timeout.",
    );
    expect(refusalOf([ask, yes], [], "n1", "n2", "true")).toContain("answered or timeout");
    expect(refusalOf([ask, yes], [], "n1", "n2", "timeout")).toBe("");
  });
});
