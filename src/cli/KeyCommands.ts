import { randomBytes } from 'node:crypto';
import { operatorHostKeyName, operatorNamePattern, operatorRoles, type OperatorKeys } from '../hq/services/OperatorKeys.js';
import type { PartnerAdmin } from '../hq/services/PartnerAdmin.js';
import { hashApiKey } from '../services/hashApiKey.js';
import { keyStatus } from '../services/keyStatus.js';
import type { ApiKeyRepository } from '../storage/ApiKeyRepository.js';
import type { OperatorRole } from '../storage/OperatorKeyRepository.js';
import { hostKeyName } from './HostKeys.js';
import type { HqContext, Options } from './HqContext.js';
import { UsageError } from './parseArgs.js';
import { parseExpiry } from './parseExpiry.js';
import { printable } from './printable.js';
import { Refusal } from './Refusal.js';

const hostKeyDelay = 'Azure may take up to a minute before it opens the API.';

/**
 * The HQ tool's `key` and `operator` commands: partner keys and operator keys, each kept in step
 * with a host key of the function app when one is named (Azure's host checks that key first). A
 * key is printed once, when issued; only its hash is stored.
 */
export class KeyCommands {
  constructor(
    private readonly context: HqContext,
    private readonly keys: ApiKeyRepository,
    private readonly admin: PartnerAdmin,
    private readonly operators: OperatorKeys,
  ) {}

  async issue(typed: string, options: Options): Promise<void> {
    const { io, clock } = this.context;
    // What was typed is checked before storage is read: a wrong storage must not answer first.
    const expiresAt = parseExpiry(options.expires, clock());
    const hostKeys = this.context.functionAppKeys(options);
    const partnerId = await this.context.resolvePartner(typed);
    const key = randomBytes(32).toString('base64url');
    const keyId = `key-${randomBytes(4).toString('hex')}`;
    const hostKey = hostKeyName(partnerId, keyId);
    // The host key first: if storing the hash then fails, the key opens nothing the service accepts,
    // and it is taken back; the other order could leave a key the service knows and the host refuses.
    if (hostKeys) await hostKeys.keys.set(hostKey, key);
    try {
      await this.keys.create({ keyHash: hashApiKey(key), keyId, partnerId, createdAt: clock().toISOString(), expiresAt });
    } catch (error) {
      if (hostKeys) await hostKeys.keys.remove(hostKey).catch(() => undefined);
      throw error;
    }
    io.out(`key ${keyId} issued for partner ${printable(partnerId)}${expiresAt ? `, expires ${expiresAt}` : ''}.`);
    if (hostKeys) {
      io.out(`Host key ${hostKey} set on function app ${printable(hostKeys.app)}; ${hostKeyDelay}`);
    } else {
      io.out('No function app named (--function-app/--resource-group): in Azure, issue keys with them so the host knows the key.');
    }
    io.out('It is shown once and stored only as a hash (the host keeps its own copy). Hand it over through a secure channel.');
    io.out(key);
  }

  async revoke(typed: string, keyId: string, options: Options): Promise<void> {
    const { io } = this.context;
    const hostKeys = this.context.functionAppKeys(options);
    const partnerId = await this.context.resolvePartner(typed);
    // The service refuses the key from this moment; the host key goes next.
    if (!(await this.keys.listForPartner(partnerId)).some((k) => k.keyId === keyId)) {
      throw new Refusal(`partner ${printable(typed)} has no key ${printable(keyId)}`);
    }
    await this.admin.revokeKey(partnerId, keyId);
    io.out(`key ${printable(keyId)} of partner ${printable(partnerId)} revoked`);
    if (hostKeys) {
      const hostKey = hostKeyName(partnerId, keyId);
      try {
        await hostKeys.keys.remove(hostKey);
      } catch (error) {
        throw new Refusal(
          `the key is revoked, but deleting host key ${hostKey} failed (${printable(error instanceof Error ? (error.message.split('\n')[0] ?? '') : String(error))}); run the command again`,
        );
      }
      io.out(`host key ${hostKey} deleted from function app ${printable(hostKeys.app)}`);
    }
  }

  async list(typed: string): Promise<void> {
    const { io, clock } = this.context;
    const partnerId = await this.context.resolvePartner(typed);
    io.out('key_id\tstatus\tcreated\texpires');
    for (const k of await this.keys.listForPartner(partnerId)) {
      const expired = k.expiresAt && Date.parse(k.expiresAt) <= clock().getTime();
      io.out(
        `${printable(k.keyId)}\t${expired && k.status === 'ACTIVE' ? 'EXPIRED' : k.status}\t${k.createdAt}\t${k.expiresAt ?? 'never'}`,
      );
    }
  }

  async issueOperator(name: string, options: Options): Promise<void> {
    const { io, clock } = this.context;
    if (!operatorNamePattern.test(name)) {
      throw new UsageError('the operator name must be 1-64 letters, digits, ".", "_" or "-", starting with a letter or digit');
    }
    const role = (options.role ?? 'viewer') as OperatorRole;
    if (!operatorRoles.includes(role)) throw new UsageError('--role must be viewer or admin');
    const expiresAt = parseExpiry(options.expires, clock());
    const hostKeys = this.context.functionAppKeys(options);
    const { key, record } = await this.operators.issue(name, role, expiresAt);
    const hostKey = operatorHostKeyName(name, record.keyId);
    if (hostKeys) {
      try {
        await hostKeys.keys.set(hostKey, key);
      } catch (error) {
        // Without its host key the key opens nothing in Azure: take it back rather than hand it out.
        await this.operators.revoke(name, record.keyId);
        throw error;
      }
    }
    io.out(`operator key ${record.keyId} issued for ${name}, role ${role}${expiresAt ? `, expires ${expiresAt}` : ''}.`);
    io.out(
      hostKeys
        ? `Host key ${hostKey} set on function app ${printable(hostKeys.app)}; ${hostKeyDelay}`
        : `No function app named (--function-app/--resource-group): in Azure, also set it as the host key ${hostKey}.`,
    );
    io.out('It is shown once and stored only as a hash. Keep it in the tool or browser that uses it, nowhere else.');
    io.out(key);
  }

  async listOperators(): Promise<void> {
    const { io, clock } = this.context;
    io.out('operator\tkey_id\trole\tstatus\tcreated\texpires');
    for (const k of await this.operators.list()) {
      io.out(
        `${printable(k.operator)}\t${printable(k.keyId)}\t${k.role}\t${keyStatus(k, clock())}\t${k.createdAt}\t${k.expiresAt ?? 'never'}`,
      );
    }
  }

  async revokeOperator(name: string, keyId: string, options: Options): Promise<void> {
    const { io } = this.context;
    const hostKeys = this.context.functionAppKeys(options);
    if (!(await this.operators.revoke(name, keyId))) throw new Refusal(`operator ${printable(name)} has no key ${printable(keyId)}`);
    const hostKey = operatorHostKeyName(name, keyId);
    io.out(`operator key ${printable(keyId)} of ${printable(name)} revoked`);
    if (hostKeys) {
      await hostKeys.keys.remove(hostKey);
      io.out(`host key ${hostKey} deleted from function app ${printable(hostKeys.app)}`);
    } else {
      io.out(`in Azure also delete the host key ${hostKey}`);
    }
  }
}
