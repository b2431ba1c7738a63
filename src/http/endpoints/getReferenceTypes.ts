import { standardTransactionTypes } from '../../domain/reference/standardTransactionTypes.js';
import type { Endpoint } from '../Endpoint.js';

/** GET /reference/transaction-types (contract §4.9): the versioned standard list. */
export const getReferenceTypes: Endpoint = () => Promise.resolve({ status: 200, body: standardTransactionTypes });
