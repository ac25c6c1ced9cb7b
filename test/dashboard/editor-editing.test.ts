/**
 * Editing on the workflow canvas (docs/dashboard.md#workflow-editor): where added nodes go and
 * what they are connected from, copies pasted with new keys and their connections, undo and
 * redo, the keyboard shortcuts, the node search, sticky notes to the definition and back, and a
 * webhook's test URL.
 */
import type { Edge } from "@xyflow/react";
import { describe, expect, it } from "vitest";
import { copyOf, pasted, placeAdded } from "../../src/dashboard/screens/workflows/editor/adding";
import { History } from "../../src/dashboard/screens/workflows/editor/history";
import { overlaps, STEP } from "../../src/dashboard/screens/workflows/editor/layout";
import {
  type CanvasNode,
  canvasEdge,
  canvasNode,
  type NodeJson,
} from "../../src/dashboard/screens/workflows/editor/model";
import { matchingTypes } from "../../src/dashboard/screens/workflows/editor/NodeSearch";
import { nextNoteKey, notesOf, toNotes } from "../../src/dashboard/screens/workflows/editor/notes";
import { shortcutOf } from "../../src/dashboard/screens/workflows/editor/shortcuts";

const node = (id: string, json: NodeJson, x: number, y: number): CanvasNode =>
  canvasNode(id, json, { x, y });

const hook = node("n0", { key: "webhook_1", type: "webhook" }, 0, 0);
const check = node("n1", { key: "condition_1", type: "condition", operator: "exists" }, 260, 0);
const yes = node("n2", { key: "set_1", type: "set" }, 520, 0);

describe("adding a node", () => {
  it("goes right of the selected node, connected from it", () => {
    const place = placeAdded([hook], [], "n0", "set", { x: 900, y: 900 });
    expect(place).toEqual({ position: { x: STEP.x, y: 0 }, from: { source: "n0" } });
  });

  it("never lands on another node: added twice in a row from one node, the second goes below", () => {
    const first = placeAdded([hook, yes], [], "n0", "set", { x: 0, y: 0 });
    expect(first.position).toEqual({ x: STEP.x, y: 0 });
    const taken = node("n3", { key: "set_2", type: "set" }, first.position.x, first.position.y);
    const second = placeAdded([hook, yes, taken], [], "n0", "wait", { x: 0, y: 0 });
    expect(overlaps(second.position, taken.position)).toBe(false);
    expect(second.position.x).toBe(STEP.x);
  });

  it("takes a condition's first free branch, and none once both lead somewhere", () => {
    const onTrue = [canvasEdge("n1", "n2", "true")];
    expect(placeAdded([check, yes], onTrue, "n1", "wait", { x: 0, y: 0 }).from).toEqual({
      source: "n1",
      branch: "false",
    });
    expect(placeAdded([check], [], "n1", "wait", { x: 0, y: 0 }).from?.branch).toBe("true");
    const both = [...onTrue, canvasEdge("n1", "n2", "false")];
    expect(placeAdded([check, yes], both, "n1", "wait", { x: 0, y: 0 }).from).toBeUndefined();
  });

  it("connects nothing into a trigger, and with nothing selected goes to a free place in view", () => {
    const trigger = placeAdded([hook], [], "n0", "webhook", { x: 0, y: 0 });
    expect(trigger.from).toBeUndefined();
    expect(overlaps(trigger.position, hook.position)).toBe(false);
    expect(placeAdded([hook], [], null, "set", { x: 600, y: 400 })).toEqual({
      position: { x: 600, y: 400 },
    });
  });
});

describe("copy and paste", () => {
  const edges: Edge[] = [canvasEdge("n0", "n1"), canvasEdge("n1", "n2", "true")];

  it("pastes copies with new keys and ids, connected among themselves, clear of the originals", () => {
    const clip = copyOf([hook, check, yes], edges, new Set(["n1", "n2"]));
    expect(clip.connections).toEqual([{ from: "condition_1", to: "set_1", branch: "true" }]);
    const copies = pasted(clip, [hook, check, yes], 3);
    expect(copies.nodes.map((each) => [each.id, each.data.node.key])).toEqual([
      ["n3", "condition_2"],
      ["n4", "set_2"],
    ]);
    expect(copies.nodes[0]?.data.node).toMatchObject({ type: "condition", operator: "exists" });
    expect(copies.edges).toEqual([canvasEdge("n3", "n4", "true")]);
    for (const copy of copies.nodes) {
      for (const original of [hook, check, yes]) {
        expect(overlaps(copy.position, original.position)).toBe(false);
      }
    }
    expect(copies.nodes.every((each) => each.selected)).toBe(true);
  });

  it("has templates that read a copied node read its copy; other templates stay", () => {
    const reader = node(
      "n3",
      { key: "set_2", type: "set", fields: { a: "{{set_1.x}}", b: "{{ webhook_1.body }}" } },
      0,
      300,
    );
    const clip = copyOf([yes, reader], [], new Set(["n2", "n3"]));
    // Pasted where only set_1 is taken (another workflow): set_1 → set_2 and set_2 → set_3, the
    // template following its node once, not twice.
    const copies = pasted(clip, [hook, yes], 4);
    expect(copies.nodes.map((each) => each.data.node.key)).toEqual(["set_2", "set_3"]);
    expect(copies.nodes[1]?.data.node.fields).toEqual({
      a: "{{set_2.x}}",
      b: "{{ webhook_1.body }}",
    });
  });
});

describe("undo and redo", () => {
  it("goes back and forth through changes; a new change drops what was undone", () => {
    const history = new History<string>();
    history.record("a", "", 0);
    history.record("b", "", 10);
    expect(history.undo("c")).toBe("b");
    expect(history.undo("b")).toBe("a");
    expect(history.undo("a")).toBeUndefined();
    expect(history.redo("a")).toBe("b");
    expect(history.canRedo).toBe(true);
    history.record("b", "", 20);
    expect(history.canRedo).toBe(false);
  });

  it("undoes typing in one setting or one drag at once, but not changes a while apart", () => {
    const history = new History<string>();
    history.record("before typing", "edit:n1", 0);
    history.record("t", "edit:n1", 300);
    history.record("ty", "edit:n1", 600);
    history.record("typed", "edit:n2", 700);
    expect(history.undo("now")).toBe("typed");
    expect(history.undo("typed")).toBe("before typing");
    history.record("x", "drag:n1", 0);
    history.record("y", "drag:n1", 5000);
    expect(history.undo("z")).toBe("y");
  });

  it("keeps at most 100 steps", () => {
    const history = new History<number>();
    for (let i = 0; i < 150; i++) history.record(i);
    let steps = 0;
    while (history.undo(0) !== undefined) steps++;
    expect(steps).toBe(100);
  });
});

describe("shortcuts and search", () => {
  const keys = { ctrlKey: false, metaKey: false, shiftKey: false, altKey: false };
  it("reads Ctrl or Cmd shortcuts, Delete, Backspace and /", () => {
    expect(shortcutOf({ ...keys, key: "z", ctrlKey: true })).toBe("undo");
    expect(shortcutOf({ ...keys, key: "Z", metaKey: true, shiftKey: true })).toBe("redo");
    expect(shortcutOf({ ...keys, key: "y", ctrlKey: true })).toBe("redo");
    expect(shortcutOf({ ...keys, key: "c", metaKey: true })).toBe("copy");
    expect(shortcutOf({ ...keys, key: "v", ctrlKey: true })).toBe("paste");
    expect(shortcutOf({ ...keys, key: "d", ctrlKey: true })).toBe("duplicate");
    expect(shortcutOf({ ...keys, key: "Delete" })).toBe("remove");
    expect(shortcutOf({ ...keys, key: "Backspace" })).toBe("remove");
    expect(shortcutOf({ ...keys, key: "/" })).toBe("search");
    expect(shortcutOf({ ...keys, key: "z" })).toBeUndefined();
    expect(shortcutOf({ ...keys, key: "z", ctrlKey: true, altKey: true })).toBeUndefined();
  });

  it("filters node types by every word typed, by name or type", () => {
    expect(matchingTypes("")).toHaveLength(11);
    expect(matchingTypes("ask")).toEqual(["ask_person"]);
    expect(matchingTypes("cond")).toEqual(["condition"]);
    expect(matchingTypes("http req")).toEqual(["http_request"]);
    expect(matchingTypes("conversation event")).toEqual(["conversation_event"]);
    expect(matchingTypes("nothing like it")).toEqual([]);
  });
});

describe("sticky notes and webhook URLs", () => {
  it("round-trips notes: key, text, position and size, none when the workflow has none", () => {
    const notes = [
      { key: "note_1", text: "# Why\nOrders only.", position: { x: 5, y: -40 } },
      {
        key: "b",
        text: "",
        position: { x: 300, y: 10 },
        size: { width: 300, height: 180 },
      },
    ];
    const shown = notesOf({ notes });
    expect(shown.map((each) => each.id)).toEqual(["note:note_1", "note:b"]);
    expect(toNotes(shown)).toEqual([{ ...notes[0], size: { width: 220, height: 140 } }, notes[1]]);
    expect(notesOf({ notes: [] })).toEqual([]);
    expect(nextNoteKey(shown)).toBe("note_2");
  });
});
