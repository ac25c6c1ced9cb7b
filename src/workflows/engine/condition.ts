/**
 * The condition node's operators (docs/api/webhooks.md). Operands are already-resolved template values; the
 * typical use compares a caller's header to a workspace secret (docs/security.md#workspace-secrets), so string equality runs in
 * time that depends only on the lengths.
 */

import type { ConditionOperator } from "../nodes/types";
import { isPlainObject } from "./template";

type Primitive = string | number | boolean | null | undefined;

function isPrimitive(value: unknown): value is Primitive {
  return value === null || (typeof value !== "object" && typeof value !== "function");
}

// Length may leak; content may not: every code unit is compared, with no early exit.
function sameText(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}

/** JSON structural equality: same types, same array order, same key sets (order-free). */
function deepEqual(a: unknown, b: unknown): boolean {
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    return a.every((item, i) => deepEqual(item, b[i]));
  }
  if (isPlainObject(a) && isPlainObject(b)) {
    const keys = Object.keys(a);
    if (keys.length !== Object.keys(b).length) return false;
    return keys.every((key) => Object.hasOwn(b, key) && deepEqual(a[key], b[key]));
  }
  if (typeof a === "string" && typeof b === "string") return sameText(a, b);
  return a === b;
}

function equals(left: unknown, right: unknown): boolean {
  if (isPrimitive(left) && isPrimitive(right)) {
    if (typeof left === "string" && typeof right === "string") return sameText(left, right);
    // typeof null is "object", so null only matches null here; null vs "null" compares as text.
    if (typeof left === typeof right) return left === right;
    return sameText(String(left), String(right));
  }
  if (isPrimitive(left) || isPrimitive(right)) return false;
  return deepEqual(left, right);
}

/** A finite number from a number or a non-blank numeric string; anything else is not a number. */
function asNumber(value: unknown): number | undefined {
  let number: number;
  if (typeof value === "number") number = value;
  else if (typeof value === "string" && value.trim() !== "") number = Number(value);
  else return undefined;
  return Number.isFinite(number) ? number : undefined;
}

function compare(left: unknown, right: unknown, test: (l: number, r: number) => boolean): boolean {
  const l = asNumber(left);
  const r = asNumber(right);
  return l !== undefined && r !== undefined && test(l, r);
}

/**
 * Evaluates `left <operator> right`; never throws. equals: same-type strictly, mixed primitives as
 * text (5 equals "5"), objects structurally; contains: substring or array element; exists: not
 * undefined, null or ""; gt/gte/lt/lte: only for finite numbers or numeric strings.
 */
export function evaluateCondition(
  operator: ConditionOperator,
  left: unknown,
  right: unknown,
): boolean {
  switch (operator) {
    case "equals":
      return equals(left, right);
    case "notEquals":
      return !equals(left, right);
    case "contains":
      if (typeof left === "string") {
        return left.includes(isPrimitive(right) ? String(right) : JSON.stringify(right));
      }
      return Array.isArray(left) && left.some((item) => equals(item, right));
    case "exists":
      return left !== undefined && left !== null && left !== "";
    case "gt":
      return compare(left, right, (l, r) => l > r);
    case "gte":
      return compare(left, right, (l, r) => l >= r);
    case "lt":
      return compare(left, right, (l, r) => l < r);
    case "lte":
      return compare(left, right, (l, r) => l <= r);
  }
}
