import type { MappingPointer } from '../../../src/storage/MappingRepository.js';
import type { MappingPointers } from '../../../src/services/ports/MappingPointers.js';

/** Mapping pointers in a map, for unit tests of services. */
export class InMemoryMappingPointers implements MappingPointers {
  private readonly pointers = new Map<string, MappingPointer>();

  getPointer(partnerId: string): Promise<MappingPointer | undefined> {
    return Promise.resolve(this.pointers.get(partnerId));
  }

  switchTo(partnerId: string, next: MappingPointer): Promise<'applied' | 'superseded'> {
    const current = this.pointers.get(partnerId);
    if (current && current.batchId !== next.batchId && current.receivedAt > next.receivedAt) return Promise.resolve('superseded');
    if (current?.batchId !== next.batchId) this.pointers.set(partnerId, { ...next });
    return Promise.resolve('applied');
  }
}
