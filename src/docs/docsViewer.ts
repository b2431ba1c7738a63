import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { findProjectRoot } from '../config/findProjectRoot.js';

/** Where the build puts the API reference viewer (a file of the pinned npm package), inside dist/src so it ships. */
export const builtViewerPath = path.join('dist', 'src', 'docs', 'api-reference.js');
/** The same file in the installed package: used when the service runs from source (tests). */
export const packageViewerPath = path.join('node_modules', '@scalar', 'api-reference', 'dist', 'browser', 'standalone.js');

/**
 * The scripts and page of the API reference at /pos/v1/docs. Everything is served by the app
 * itself: the page loads no font, script or style from another host, and its Content-Security-Policy
 * forbids it (the viewer sets inline styles, hence 'unsafe-inline' for styles only).
 */
export interface DocsViewer {
  readonly page: string;
  readonly assets: Readonly<Record<string, { readonly contentType: string; readonly body: string }>>;
  readonly contentSecurityPolicy: string;
}

export function loadDocsViewer(basePath: string): DocsViewer {
  const root = findProjectRoot();
  const viewerFile = [builtViewerPath, packageViewerPath].map((file) => path.join(root, file)).find((file) => existsSync(file));
  if (viewerFile === undefined) throw new Error(`The API reference viewer is missing: run npm run build (it copies ${packageViewerPath}).`);
  const base = `/${basePath}`;
  const init = `Scalar.createApiReference('#app', {
  url: '${base}/openapi.json',
  withDefaultFonts: false,
  agent: { disabled: true },
  hideClientButton: true,
  showDeveloperTools: 'never',
  defaultOpenAllTags: true,
  telemetry: false,
});
`;
  const page = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>POS Ingestion Service: partner API reference</title>
</head>
<body>
<noscript>This page needs JavaScript. The machine-readable document is at <a href="${base}/openapi.json">${base}/openapi.json</a>.</noscript>
<div id="app"></div>
<script src="${base}/docs/api-reference.js"></script>
<script src="${base}/docs/init.js"></script>
</body>
</html>
`;
  return {
    page,
    assets: {
      'api-reference.js': { contentType: 'text/javascript; charset=utf-8', body: readFileSync(viewerFile, 'utf8') },
      'init.js': { contentType: 'text/javascript; charset=utf-8', body: init },
    },
    contentSecurityPolicy: [
      "default-src 'none'",
      "script-src 'self'",
      "style-src 'self' 'unsafe-inline'",
      "img-src 'self' data:",
      "font-src 'self' data:",
      "connect-src 'self'",
      "base-uri 'none'",
      "form-action 'none'",
      "frame-ancestors 'none'",
    ].join('; '),
  };
}
