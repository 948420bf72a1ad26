/** How a config is refused: every problem named by its field path, in one error. */
import { SvcError } from '../../core/errors.js';

/** One problem of a config, at a field path such as `merchants[0].widgets[1].type`. */
export interface ConfigIssue {
  path: string;
  message: string;
}

/** Why a config was refused: it could not be read, or it was read and is wrong. */
export type ConfigErrorCode = 'invalid_config' | 'unreadable_config';

/**
 * A config the sandbox refuses to start with. The message lists every problem as `path: what is wrong`, so
 * one run shows all there is to fix; a single problem stays on the one line.
 */
export class ConfigError extends SvcError<ConfigErrorCode> {
  readonly issues: readonly ConfigIssue[];

  constructor(code: ConfigErrorCode, source: string, issues: readonly ConfigIssue[]) {
    const text = (issue: ConfigIssue) => (issue.path ? `${issue.path}: ${issue.message}` : issue.message);
    const what = code === 'unreadable_config' ? 'Cannot read the sandbox config' : 'Invalid sandbox config';
    super(
      code,
      issues.length === 1
        ? `${what} (${source}): ${text(issues[0]!)}`
        : `${what} (${source}):\n${issues.map((issue) => `  - ${text(issue)}`).join('\n')}`,
    );
    this.issues = issues;
  }
}

/** A caught error's message, to name in an issue. */
export function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
