import { loadDocsViewer, type DocsViewer } from '../../docs/docsViewer.js';
import type { AnonymousEndpoint, EndpointResult } from '../Endpoint.js';

const partnerBasePath = 'pos/v1';
let viewer: DocsViewer | undefined;

/** Read on first use: the viewer script is a few megabytes that only the docs page needs. */
function docsViewer(): DocsViewer {
  return (viewer ??= loadDocsViewer(partnerBasePath));
}

function answer(body: string, contentType: string): EndpointResult {
  return {
    status: 200,
    body,
    contentType,
    headers: {
      'Content-Security-Policy': docsViewer().contentSecurityPolicy,
      'X-Content-Type-Options': 'nosniff',
      'Cache-Control': 'no-cache',
    },
  };
}

/** GET /pos/v1/docs: anonymous, the rendered API reference of the partner API. */
export const getDocsPage: AnonymousEndpoint = () => Promise.resolve(answer(docsViewer().page, 'text/html; charset=utf-8'));

/** GET /pos/v1/docs/{asset}: the page's scripts, from the app itself. */
export const getDocsAsset: AnonymousEndpoint = ({ request }) => {
  const { assets } = docsViewer();
  const name = request.params.asset ?? '';
  const asset = Object.hasOwn(assets, name) ? assets[name] : undefined;
  // An unknown file is answered as the host answers an unknown route: 404 without a body.
  if (asset === undefined) return Promise.resolve({ status: 404, body: '', contentType: 'text/plain; charset=utf-8' });
  return Promise.resolve(answer(asset.body, asset.contentType));
};
