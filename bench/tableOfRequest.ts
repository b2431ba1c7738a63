/**
 * The table a Table-service request addresses, or undefined when it names none (a listing of the
 * account's tables, service properties). Entity requests and queries name it in the path
 * (`/<account>/<table>(...)`); table creation in its JSON body (`{"TableName": ...}`); an
 * entity-group transaction (`/<account>/$batch`) in the URL of every operation it carries, all of
 * one table, so the first is read.
 */
export function tableOfRequest(method: string, url: string, body: Buffer): string | undefined {
  const segments = new URL(url, 'http://proxy').pathname.split('/').filter(Boolean);
  const resource = decodeURIComponent(segments[1] ?? '');
  if (resource === '$batch') return tableOfTransaction(body.toString('latin1'));
  if (resource === 'Tables') return method.toUpperCase() === 'POST' ? tableNameOf(body) : undefined;
  const deleted = /^Tables\('([^']+)'\)$/.exec(resource);
  if (deleted) return deleted[1];
  const name = /^([^(]+)/.exec(resource)?.[1];
  return name === undefined || name === '' ? undefined : name;
}

/** The table of a transaction's first operation: `POST|PUT|MERGE|PATCH|DELETE|GET <url> HTTP/1.1`. */
function tableOfTransaction(text: string): string | undefined {
  const line = /^(?:POST|PUT|MERGE|PATCH|DELETE|GET) (\S+) HTTP\/1\.1\r?$/m.exec(text);
  if (!line?.[1]) return undefined;
  const segments = new URL(line[1], 'http://proxy').pathname.split('/').filter(Boolean);
  return /^([^(]+)/.exec(decodeURIComponent(segments[1] ?? ''))?.[1];
}

function tableNameOf(body: Buffer): string | undefined {
  try {
    const parsed = JSON.parse(body.toString('utf8')) as { TableName?: unknown };
    return typeof parsed.TableName === 'string' ? parsed.TableName : undefined;
  } catch {
    return undefined;
  }
}
