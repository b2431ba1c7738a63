import type { Partner } from '../../storage/PartnerRepository.js';
import { ApiError } from '../../errors/ApiError.js';
import type { Partners } from '../../services/ports/Partners.js';

/**
 * The partner an HQ request names, in its path or as a list's `partner_id` filter; 404
 * PARTNER_NOT_FOUND when there is none, so that a mistyped id is never answered as an empty list.
 * Shared by every HQ route that names a partner.
 */
export async function requireKnownPartner(partners: Pick<Partners, 'get'>, partnerId: string): Promise<Partner> {
  const partner = await partners.get(partnerId);
  if (!partner) throw new ApiError('PARTNER_NOT_FOUND');
  return partner;
}
