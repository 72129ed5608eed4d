// What the SDK-style clients of the tests (test/instant/client.ts, the redemption client of
// test/mystery/redemption-live.test.ts) throw, read the SDK's way: the status, the error code
// from the envelope's `error`, the body; and the terminal state a poll helper stops at.

export class ApiFailure extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    readonly body: Record<string, unknown>,
    readonly headers: Headers = new Headers(),
  ) {
    super(`${status} ${code}: ${String(body.message)}`);
  }
}

export class TerminalStateError<T> extends Error {
  constructor(
    readonly state: string,
    readonly value: T,
  ) {
    super(`terminal state ${state}`);
  }
}

/** The ApiFailure a call rejects with (fails the test when it resolves). */
export async function failure(p: Promise<unknown>): Promise<ApiFailure> {
  try {
    await p;
  } catch (err) {
    if (err instanceof ApiFailure) return err;
    throw err;
  }
  throw new Error("expected an API error");
}
