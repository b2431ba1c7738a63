/**
 * Entry point of the Azure Functions host (package.json `main`): reads the configuration from
 * the app settings once and registers every function of the table.
 */
import { loadConfig } from './config/loadConfig.js';
import { functionTable } from './functions/functionTable.js';
import { registerFunctions } from './functions/registerFunctions.js';
import { createAppServices } from './services/createAppServices.js';

registerFunctions(functionTable, createAppServices(loadConfig(process.env)));
