#!/usr/bin/env node
// The `pos-validate` command of the built kit (scripts/buildPartnerKit.mjs bundles it into dist/).
import { main } from './posValidate.js';

main();
