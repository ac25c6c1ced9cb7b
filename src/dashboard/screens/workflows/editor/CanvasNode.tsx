/**
 * A node on the workflow canvas (docs/dashboard.md#workflow-editor): its type, label and key,
 * how many problems it has (the API's from the last save and its schema's now), an input handle
 * unless it is a trigger, and one output, or one per branch its model declares: a condition's true
 * and false, an ask_person's answered and timeout.
 */
import { Handle, type NodeProps, Position } from "@xyflow/react";
import { Fragment, memo, useMemo } from "react";
import {
  branchesOf,
  DEFAULT_NAMES,
  isTriggerNode,
  type NodeType,
} from "../../../../workflows/nodes";
import { checkNode, mergeProblems } from "./fields";
import type { CanvasNode } from "./model";
import { NodeRunBadge } from "./NodeRunBadge";

/** Whether nodes of `type` start executions (and so take no input). */
export const isTrigger = (type: NodeType) => isTriggerNode({ type });

/** The canvas's one node type, registered as `workflow` (model.ts). */
export const WorkflowNodeView = memo(function WorkflowNodeView({ data }: NodeProps<CanvasNode>) {
  const { node, problems } = data;
  const count = useMemo(() => mergeProblems(problems, checkNode(node)).length, [problems, node]);
  return (
    <div className={`wf-node wf-${node.type}${count > 0 ? " has-problems" : ""}`}>
      {isTrigger(node.type) ? null : <Handle type="target" position={Position.Left} />}
      <span className="wf-node-type">
        {DEFAULT_NAMES[node.type]}
        {isTrigger(node.type) ? " · trigger" : ""}
      </span>
      <strong className="wf-node-name">{node.name ?? DEFAULT_NAMES[node.type]}</strong>
      <code className="wf-node-key">{node.key}</code>
      <NodeRunBadge nodeKey={node.key} />
      {count > 0 ? (
        <span className="wf-node-problems">
          {count} {count === 1 ? "problem" : "problems"}
        </span>
      ) : null}
      {branchesOf(node.type).length > 0 ? (
        branchesOf(node.type).map((branch, index) => (
          <Fragment key={branch}>
            <Handle
              type="source"
              id={branch}
              position={Position.Right}
              className={`wf-handle-${branch} wf-handle-${index === 0 ? "first" : "second"}`}
            />
            <span
              className={`wf-branch wf-branch-${index === 0 ? "first" : "second"}`}
              aria-hidden="true"
            >
              {branch}
            </span>
          </Fragment>
        ))
      ) : (
        <Handle type="source" position={Position.Right} />
      )}
    </div>
  );
});
