/**
 * `npm run package`: builds the app and stages exactly what runs in Azure into .deploy/ (host.json,
 * package.json, package-lock.json, the compiled dist/, the JSON Schemas and the production
 * dependencies), then zips it into app.zip for a Flex Consumption deployment:
 *
 *   az functionapp deployment source config-zip -g <resource-group> -n <functionAppName> --src app.zip
 *
 * Options: --out <folder> (default .deploy), --zip <file> (default app.zip), --skip-build.
 * Every dependency is pure JavaScript, so a package built on any OS runs on the Linux host.
 */
import { Buffer } from 'node:buffer';
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import zlib from 'node:zlib';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { values } = parseArgs({
  options: { out: { type: 'string' }, zip: { type: 'string' }, 'skip-build': { type: 'boolean' } },
  strict: true,
});
const out = path.resolve(root, values.out ?? '.deploy');
const zipPath = path.resolve(root, values.zip ?? 'app.zip');
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

if (!values['skip-build']) execFileSync(npm, ['run', 'build', '--silent'], { cwd: root, stdio: 'inherit' });
if (!existsSync(path.join(root, 'dist', 'src', 'index.js'))) throw new Error('dist/src/index.js is missing: build first.');

rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });
for (const entry of ['host.json', 'package.json', 'package-lock.json', 'schemas'])
  cpSync(path.join(root, entry), path.join(out, entry), { recursive: true });
// The compiled app only: the benchmark is not part of what runs in Azure.
cpSync(path.join(root, 'dist', 'src'), path.join(out, 'dist', 'src'), { recursive: true });
// The HQ console's bundle, served by the `console` function from dist/console.
if (!existsSync(path.join(root, 'dist', 'console', 'index.html'))) throw new Error('dist/console/index.html is missing: build first.');
cpSync(path.join(root, 'dist', 'console'), path.join(out, 'dist', 'console'), { recursive: true });
// npm install, not npm ci: the lock file lacks optional platform packages of a dev tool, which npm ci refuses.
execFileSync(npm, ['install', '--omit=dev', '--ignore-scripts', '--no-audit', '--no-fund', '--prefer-offline'], {
  cwd: out,
  stdio: 'inherit',
});

writeFileSync(zipPath, zip(out));
process.stdout.write(
  `staged ${path.relative(root, out)}/ and wrote ${path.relative(root, zipPath)} (${Math.round(statSync(zipPath).size / 1024)} KiB)\n`,
);

/** Every file below `dir`, as [path inside the archive, absolute path]. */
function filesBelow(dir, prefix = '') {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    const inside = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.isDirectory()) return filesBelow(full, inside);
    return entry.isFile() ? [[inside, full]] : [];
  });
}

/** A zip archive (deflate) of a folder, written with zlib alone. */
function zip(dir) {
  const locals = [];
  const centrals = [];
  let offset = 0;
  for (const [name, full] of filesBelow(dir)) {
    const data = readFileSync(full);
    const packed = zlib.deflateRawSync(data);
    const nameBytes = Buffer.from(name, 'utf8');
    const crc = zlib.crc32(data);
    const header = Buffer.alloc(30);
    header.writeUInt32LE(0x04034b50, 0);
    header.writeUInt16LE(20, 4); // version needed
    header.writeUInt16LE(0x0800, 6); // UTF-8 names
    header.writeUInt16LE(8, 8); // deflate
    header.writeUInt32LE(0x00210000, 10); // 1980-01-01 00:00, fixed so builds compare
    header.writeUInt32LE(crc, 14);
    header.writeUInt32LE(packed.length, 18);
    header.writeUInt32LE(data.length, 22);
    header.writeUInt16LE(nameBytes.length, 26);
    locals.push(header, nameBytes, packed);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(0x0314, 4); // made by Unix, 2.0
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(0x0800, 8);
    central.writeUInt16LE(8, 10);
    central.writeUInt32LE(0x00210000, 12);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(packed.length, 20);
    central.writeUInt32LE(data.length, 24);
    central.writeUInt16LE(nameBytes.length, 28);
    central.writeUInt32LE((0o100644 << 16) >>> 0, 38); // regular file, rw-r--r--
    central.writeUInt32LE(offset, 42);
    centrals.push(central, nameBytes);
    offset += header.length + nameBytes.length + packed.length;
  }
  const centralSize = centrals.reduce((sum, b) => sum + b.length, 0);
  const count = centrals.length / 2;
  if (count > 0xffff || offset > 0xffffffff) throw new Error('The package is too large for a plain zip archive.');
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(count, 8);
  end.writeUInt16LE(count, 10);
  end.writeUInt32LE(centralSize, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, ...centrals, end]);
}
