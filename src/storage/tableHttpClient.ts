import { createDefaultHttpClient, type HttpClient } from '@azure/core-rest-pipeline';

let client: HttpClient | undefined;

/**
 * The HTTP client of the table requests this service builds itself (day listings, transactions).
 * They go through a table client's own pipeline, which signs, retries and times each request;
 * one client for all of them keeps their connections pooled together.
 */
export function tableHttpClient(): HttpClient {
  client ??= createDefaultHttpClient();
  return client;
}
