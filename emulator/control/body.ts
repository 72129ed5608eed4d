import { badRequest } from "../pipeline/errors.ts";

// Small validators for control-plane bodies: clear 400s, never a 500.

export function optNumber(body: Record<string, unknown>, name: string, opts: { min?: number; max?: number; integer?: boolean } = {}): number | undefined {
  const v = body[name];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== "number" || !Number.isFinite(v) || (opts.integer && !Number.isInteger(v)))
    throw badRequest("invalid_value", `${name} must be a${opts.integer ? "n integer" : " number"}`);
  if (opts.min !== undefined && v < opts.min) throw badRequest("invalid_value", `${name} must be >= ${opts.min}`);
  if (opts.max !== undefined && v > opts.max) throw badRequest("invalid_value", `${name} must be <= ${opts.max}`);
  return v;
}

export function reqNumber(body: Record<string, unknown>, name: string, opts: { min?: number; max?: number; integer?: boolean } = {}): number {
  const v = optNumber(body, name, opts);
  if (v === undefined) throw badRequest("invalid_value", `${name} is required`);
  return v;
}

export function optString(body: Record<string, unknown>, name: string, allowed?: readonly string[]): string | undefined {
  const v = body[name];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== "string" || v === "") throw badRequest("invalid_value", `${name} must be a non-empty string`);
  if (allowed && !allowed.includes(v)) throw badRequest("invalid_value", `${name} must be one of ${allowed.join(", ")}`);
  return v;
}

export function reqString(body: Record<string, unknown>, name: string, allowed?: readonly string[]): string {
  const v = optString(body, name, allowed);
  if (v === undefined) throw badRequest("invalid_value", `${name} is required`);
  return v;
}

export function optStringArray(body: Record<string, unknown>, name: string): string[] | undefined {
  const v = body[name];
  if (v === undefined || v === null) return undefined;
  if (!Array.isArray(v) || v.some((s) => typeof s !== "string")) throw badRequest("invalid_value", `${name} must be an array of strings`);
  return v as string[];
}
