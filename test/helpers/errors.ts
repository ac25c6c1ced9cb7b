/** Asserting the error envelope (docs/errors.md): status, code, details array, request id. */
import { expect } from "vitest";
import { expectJson } from "./api";

export type ErrorBody = {
  error: { code: string; message: string; details: Record<string, unknown>[]; requestId: string };
};

/** Reads an error answer and asserts the envelope: `status`, `code`, details, the request id. */
export async function expectError(
  response: Response,
  status: number,
  code: string,
): Promise<ErrorBody> {
  const body = await expectJson<ErrorBody>(response, status);
  expect(body.error.code).toBe(code);
  expect(body.error.details).toBeInstanceOf(Array);
  expect(body.error.requestId).toBe(response.headers.get("x-request-id"));
  expect(body.error.requestId).toMatch(/^req_/);
  return body;
}
