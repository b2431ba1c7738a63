import { ConfigError } from '../../src/config/ConfigError.js';
import { loadConfig, type Settings } from '../../src/config/loadConfig.js';

/** Every problem loadConfig reports for these settings; empty when it accepts them. */
export function problemsOf(settings: Settings): readonly string[] {
  try {
    loadConfig(settings);
    return [];
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
}
