#!/usr/bin/env node
// Runs the command compiled by the repository's build (npm run build at the repository root).
import { main } from '../../../dist/packages/partner-kit/src/posValidate.js';

main();
