import type { MappingPointer } from '../../storage/MappingRepository.js';

/** Which mapping upload is in effect per partner. */
export interface MappingPointers {
  getPointer(partnerId: string): Promise<MappingPointer | undefined>;
  /** Points at the upload unless one received later is in effect. */
  switchTo(partnerId: string, next: MappingPointer): Promise<'applied' | 'superseded'>;
}
