import { ApiError } from '../../src/errors/ApiError.js';

/** The ApiError a service call was refused with; fails when it was accepted or failed otherwise. */
export async function apiRefusal(promise: Promise<unknown>): Promise<ApiError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  throw new Error('the call was accepted');
}
