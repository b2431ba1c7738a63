import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

export interface TestCertificates {
  /** The test CA's certificate, to pass as the only extra trusted authority. */
  readonly ca: string;
  /** Key and certificate of a server named by `hostName`, issued by the test CA. */
  readonly server: { readonly key: string; readonly cert: string };
}

/** A throw-away CA and one server certificate (valid one day), made with the openssl CLI. */
export function makeTestCertificates(hostName: string): TestCertificates {
  const dir = mkdtempSync(path.join(tmpdir(), 'webhook-tls-'));
  const file = (name: string): string => path.join(dir, name);
  const openssl = (...args: string[]): void => {
    execFileSync('openssl', args, { stdio: 'ignore' });
  };
  try {
    const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
    writeFileSync(file('ca.ext'), 'basicConstraints=critical,CA:TRUE\nkeyUsage=critical,keyCertSign\n');
    writeFileSync(file('server.ext'), `subjectAltName=DNS:${hostName}\nextendedKeyUsage=serverAuth\n`);
    openssl('req', '-new', ...ec, '-keyout', file('ca.key'), '-out', file('ca.csr'), '-subj', '/CN=webhook test CA');
    openssl(
      'x509',
      '-req',
      '-in',
      file('ca.csr'),
      '-signkey',
      file('ca.key'),
      '-days',
      '1',
      '-extfile',
      file('ca.ext'),
      '-out',
      file('ca.crt'),
    );
    openssl('req', '-new', ...ec, '-keyout', file('server.key'), '-out', file('server.csr'), '-subj', `/CN=${hostName}`);
    openssl(
      'x509',
      '-req',
      '-in',
      file('server.csr'),
      '-CA',
      file('ca.crt'),
      '-CAkey',
      file('ca.key'),
      '-CAcreateserial',
      '-days',
      '1',
      '-extfile',
      file('server.ext'),
      '-out',
      file('server.crt'),
    );
    return {
      ca: readFileSync(file('ca.crt'), 'utf8'),
      server: { key: readFileSync(file('server.key'), 'utf8'), cert: readFileSync(file('server.crt'), 'utf8') },
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
