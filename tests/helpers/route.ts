/** The Response a loader or action throws (a redirect or an error status); fails if none is. */
export async function thrownResponse(promise: Promise<unknown>) {
  try {
    await promise;
  } catch (error) {
    if (error instanceof Response) return error;
    throw error;
  }
  throw new Error("expected a thrown response");
}
