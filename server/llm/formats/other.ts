import { isObj, isRoleMessage, type Ctx, type Sides } from "./common";
import { outputShapes, readRoleMessage } from "./native";

/**
 * The contract's "other accepted shapes for custom model runs". Input: a list of `{role, content}`
 * objects (content a string), given as the inputs themselves, or under `messages` or `input` (the
 * SDK's `traceable` puts a lone array argument under `input`). Output: `{choices: [{message}]}`,
 * `{message}`, `{role, content}`, or a two-element `[role, content]` array (which the SDK wraps as
 * `{outputs: [...]}`).
 */

const isPair = (m: unknown) => Array.isArray(m) && m.length === 2 && typeof m[0] === "string";
const isMessageLike = (m: unknown) => isRoleMessage(m) || isPair(m);

function inputList(inputs: unknown): { list: unknown[]; path: string } | null {
  if (Array.isArray(inputs) && inputs.some(isMessageLike)) return { list: inputs, path: "inputs" };
  if (!isObj(inputs)) return null;
  for (const key of ["messages", "input"]) {
    const v = inputs[key];
    if (Array.isArray(v) && v.some(isMessageLike)) return { list: v, path: `inputs.${key}` };
  }
  return null;
}

function outputShape(outputs: unknown): boolean {
  const o =
    isObj(outputs) && "outputs" in outputs && Object.keys(outputs).every((k) => k === "outputs" || k === "usage_metadata")
      ? outputs.outputs
      : outputs;
  if (isPair(o)) return true;
  if (!isObj(o)) return false;
  if (Array.isArray(o.choices)) return o.choices.some((c) => isObj(c) && isRoleMessage(c.message));
  return isRoleMessage(o.message) || isRoleMessage(o);
}

export function detectOther(inputs: unknown, outputs: unknown): boolean {
  return inputList(inputs) !== null || outputShape(outputs);
}

export function readOther(inputs: unknown, outputs: unknown, ctx: Ctx): Sides {
  const found = inputList(inputs);
  return {
    input: found ? found.list.flatMap((m, i) => readRoleMessage(m, `${found.path}[${i}]`, ctx)) : [],
    output: outputShapes(outputs, ctx, readRoleMessage),
  };
}
