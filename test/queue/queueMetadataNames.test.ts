import { describe, expectTypeOf, it } from 'vitest';
import type { WebhookDeliveryMessage } from '../../src/events/WebhookDeliveryMessage.js';
import type { queueMetadataNames } from '../../src/queue/createQueueHandler.js';
import type { ReconcileMessage } from '../../src/services/ReconcileMessage.js';
import type { ClosedDayRerunMessage } from '../../src/services/reruns/ClosedDayRerunMessage.js';

type MetadataName = (typeof queueMetadataNames)[number];
/** Every top-level property name of a message type, whichever variant of a union it is in. */
type PropertyNames<T> = T extends unknown ? keyof T : never;

describe('queue message types', () => {
  // Checked by the type check `npm test` runs: in Azure such a property would replace the metadata.
  it('name no top-level property like the trigger metadata', () => {
    expectTypeOf<Extract<PropertyNames<ReconcileMessage>, MetadataName>>().toBeNever();
    expectTypeOf<Extract<PropertyNames<ClosedDayRerunMessage>, MetadataName>>().toBeNever();
    expectTypeOf<Extract<PropertyNames<WebhookDeliveryMessage>, MetadataName>>().toBeNever();
  });
});
