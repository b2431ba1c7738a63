import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

/** One file of the console bundle, read into memory with what its response needs. */
export interface ConsoleAsset {
  readonly body: Buffer;
  readonly contentType: string;
  readonly etag: string;
  /** File names with a content hash may be cached for good; the page itself is revalidated. */
  readonly immutable: boolean;
}

const contentTypes: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.png': 'image/png',
  '.svg': 'image/svg+xml',
  '.ico': 'image/x-icon',
  '.txt': 'text/plain; charset=utf-8',
};

/** esbuild's `[name]-[hash]` names: the hash is 8 upper-case letters and digits. */
const hashedName = /-[A-Z0-9]{8}\.[a-z]+$/;

/**
 * The built console (`npm run build` writes it to dist/console): a flat folder of a few small files,
 * read once. Only names found in the folder at load time are ever served, so no request path can
 * reach another file.
 */
export class ConsoleAssets {
  readonly #files: ReadonlyMap<string, ConsoleAsset>;

  private constructor(files: ReadonlyMap<string, ConsoleAsset>) {
    this.#files = files;
  }

  /** Reads every servable file of `folder`; an absent folder gives an empty set (the console is not built). */
  static load(folder: string): ConsoleAssets {
    const files = new Map<string, ConsoleAsset>();
    let entries;
    try {
      entries = readdirSync(folder, { withFileTypes: true });
    } catch {
      return new ConsoleAssets(files);
    }
    for (const entry of entries) {
      const contentType = contentTypes[path.extname(entry.name)];
      if (!entry.isFile() || contentType === undefined) continue;
      const body = readFileSync(path.join(folder, entry.name));
      const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 22)}"`;
      files.set(entry.name, { body, contentType, etag, immutable: hashedName.test(entry.name) });
    }
    return new ConsoleAssets(files);
  }

  /** The file named exactly `name` (no folders), if the bundle has it. */
  get(name: string): ConsoleAsset | undefined {
    return this.#files.get(name);
  }
}
