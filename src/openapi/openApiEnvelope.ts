type JsonObject = Record<string, unknown>;

/** What an API's OpenAPI document says around its operations. */
export interface OpenApiParts {
  readonly title: string;
  readonly version: string;
  /** Markdown shown above the operations. */
  readonly description: string;
  /** The API's root as served, e.g. `/pos/v1`: operation paths are relative to it. */
  readonly serverUrl: string;
  readonly tags: readonly { readonly name: string; readonly description: string }[];
  /** The API key every operation takes (unless it says otherwise): its scheme's name and header. */
  readonly security: { readonly scheme: string; readonly header: string; readonly description: string };
  readonly paths: Record<string, JsonObject>;
  readonly webhooks?: Record<string, JsonObject>;
  readonly schemas: Record<string, JsonObject>;
}

/** An OpenAPI 3.1 document of this service's: the partner API's and the HQ API's have the same frame. */
export function openApiEnvelope(parts: OpenApiParts): JsonObject {
  return {
    openapi: '3.1.1',
    info: {
      title: parts.title,
      version: parts.version,
      description: parts.description,
      license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' },
    },
    servers: [{ url: parts.serverUrl, description: 'This service' }],
    security: [{ [parts.security.scheme]: [] }],
    tags: parts.tags,
    paths: parts.paths,
    ...(parts.webhooks === undefined ? {} : { webhooks: parts.webhooks }),
    components: {
      securitySchemes: {
        [parts.security.scheme]: { type: 'apiKey', in: 'header', name: parts.security.header, description: parts.security.description },
      },
      schemas: parts.schemas,
    },
  };
}
