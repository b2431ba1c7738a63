import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { defineConfig } from 'vitest/config';

/**
 * The test files that run `npm run build`, which rewrites dist/ and docs/openapi.json: other files
 * read those (the docs page, the OpenAPI document), and two builds at once would write the same
 * files. They run after everything else, one at a time.
 */
const buildingFiles = ['test/deploy/packageApp.test.ts', 'test/localhost/npmStart.test.ts'];

/**
 * `expect.poll` gives up after 1 s by default: too soon for a loaded machine to save, re-read and
 * render (a console action in the browser, a queue message handled). A poll that succeeds returns
 * at once, so a longer bound costs only a failing test its time.
 */
const timeouts = { testTimeout: 60_000, hookTimeout: 60_000, expect: { poll: { timeout: 15_000 } } };

/**
 * Files that take far longer than their size suggests (they start browsers, child processes and
 * emulators of their own), slowest first. Without the durations vitest keeps from earlier runs (a
 * fresh clone, CI) it starts the largest files first, and one of these left to the end runs alone
 * while the other workers are idle.
 */
const slowFiles = [
  'test/reliability/hostileInput.test.ts',
  'test/bench/benchSmoke.test.ts',
  'test/console/consoleBrowser.test.ts',
  'test/console/consoleKeyboard.test.ts',
  'test/e2e/reportingMonth.test.ts',
  'test/localhost/localHost.test.ts',
];

class SlowFilesFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (file: TestSpecification): number => {
      const index = slowFiles.indexOf(relative(file.project.config.root, file.moduleId).replaceAll('\\', '/'));
      return index < 0 ? slowFiles.length : index;
    };
    // Array.prototype.sort is stable: the rest keep vitest's order.
    return sorted.sort((a, b) => rank(a) - rank(b));
  }
}

export default defineConfig({
  test: {
    sequence: { sequencer: SlowFilesFirst },
    projects: [
      {
        test: {
          name: 'suite',
          include: ['test/**/*.test.ts'],
          exclude: buildingFiles,
          // One storage emulator for the whole run; every test file starts its own service on it.
          globalSetup: ['test/support/globalSetup.ts'],
          // Most files spend their time waiting on storage, queues, delays and child processes, not
          // on a core: more files at once than the two cores (vitest's default here would be one),
          // but not so many that the tests' deadlines and timing bounds starve.
          maxWorkers: 3,
          // A worker keeps the modules it loaded for its next file instead of loading the service
          // again for each: that load took more CPU than many files' tests. Every file starts its
          // own service on storage of its own, and the support code keeps no state that a later
          // file could trip over (fresh business dates wrap round, see partnerFlow.ts).
          isolate: false,
          ...timeouts,
        },
      },
      {
        test: {
          name: 'build',
          include: buildingFiles,
          maxWorkers: 1,
          sequence: { groupOrder: 1 },
          ...timeouts,
        },
      },
    ],
  },
});
