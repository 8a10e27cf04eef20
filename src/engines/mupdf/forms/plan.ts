import type { FieldOption, FormField } from "./fields";

/** What a caller may give for one field: text, a choice, choices, a checkbox state. */
export type FieldInput = string | boolean | string[];

/** One field to set, its value resolved to what the file stores. */
export type FieldChange =
  | { field: FormField; kind: "text" | "choice"; value: string }
  | { field: FormField; kind: "choices"; value: string[] }
  /** A checkbox or radio group: the on-state to select, or "Off". */
  | { field: FormField; kind: "state"; value: string };

export interface FillProblem {
  /** The field's full name as the caller wrote it. */
  name: string;
  message: string;
}

export type FillPlan = { ok: true; changes: FieldChange[] } | { ok: false; problems: FillProblem[] };

/**
 * Checks every value against its field before anything is written, so a
 * call either fills all it was given or nothing: unknown names, read-only
 * fields, values of the wrong kind, choices and states the field does not
 * offer, and text over /MaxLen are each named.
 */
export function planFill(fields: readonly FormField[], values: Record<string, FieldInput>): FillPlan {
  const byName = new Map(fields.map((f) => [f.name, f]));
  const changes: FieldChange[] = [];
  const problems: FillProblem[] = [];
  for (const [name, value] of Object.entries(values)) {
    const field = byName.get(name);
    const outcome = field ? resolve(field, value) : "is not a field of this form (names are full, dotted names as the read tool lists them).";
    if (typeof outcome === "string") problems.push({ name, message: `${JSON.stringify(name)} ${outcome}` });
    else changes.push(outcome);
  }
  return problems.length ? { ok: false, problems } : { ok: true, changes };
}

function resolve(field: FormField, value: FieldInput): FieldChange | string {
  if (field.readOnly) return "is read-only and cannot be filled.";
  switch (field.type) {
    case "text":
      return text(field, value);
    case "combo":
      return combo(field, value);
    case "list":
      return list(field, value);
    case "checkbox":
    case "radio":
      return state(field, value);
    default:
      return `is a ${field.type} field, which holds no value to fill.`;
  }
}

function text(field: FormField, value: FieldInput): FieldChange | string {
  if (typeof value !== "string") return "is a text field: give a string.";
  const length = [...value].length;
  if (field.maxLength !== null && length > field.maxLength) return `allows at most ${field.maxLength} characters; the value has ${length}.`;
  if (!field.multiline && /[\r\n]/.test(value)) return "is a single-line text field: the value must not contain line breaks.";
  return { field, kind: "text", value };
}

/** A choice by its export value or, failing that, its display text. */
function option(options: readonly FieldOption[], given: string): string | null {
  return (options.find((o) => o.value === given) ?? options.find((o) => o.label === given))?.value ?? null;
}

const listing = (options: readonly FieldOption[]) => options.map((o) => JSON.stringify(o.value)).join(", ") || "none";

function combo(field: FormField, value: FieldInput): FieldChange | string {
  if (typeof value !== "string") return "is a combo box: give a string.";
  const chosen = option(field.options, value) ?? (field.editable || value === "" ? value : null);
  if (chosen === null) return `has no option ${JSON.stringify(value)}; its options are ${listing(field.options)}.`;
  return { field, kind: "choice", value: chosen };
}

function list(field: FormField, value: FieldInput): FieldChange | string {
  const given = typeof value === "string" ? [value] : Array.isArray(value) ? value : null;
  if (!given) return "is a list box: give a string, or an array of strings if it allows several choices.";
  if (given.length > 1 && !field.multiSelect) return "allows one choice only: give a single string.";
  const chosen: string[] = [];
  for (const g of given) {
    const v = option(field.options, g);
    if (v === null) return `has no option ${JSON.stringify(g)}; its options are ${listing(field.options)}.`;
    if (!chosen.includes(v)) chosen.push(v);
  }
  return { field, kind: "choices", value: chosen };
}

function state(field: FormField, value: FieldInput): FieldChange | string {
  const states = field.options;
  if (typeof value === "boolean") {
    if (field.type === "radio") return `is a radio group: give the state to select (${listing(states)}) or "Off".`;
    if (value && states.length === 0) return "has no on-state to select.";
    return { field, kind: "state", value: value ? states[0].value : "Off" };
  }
  if (typeof value !== "string")
    return `is a ${field.type === "radio" ? "radio group" : "checkbox"}: give ${field.type === "radio" ? "a state name" : "true, false or its on-state name"}.`;
  if (value === "Off") return { field, kind: "state", value };
  const chosen = option(states, value);
  if (chosen === null) return `has no state ${JSON.stringify(value)}; its states are ${listing(states)} and "Off".`;
  return { field, kind: "state", value: chosen };
}
