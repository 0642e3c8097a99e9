// The real ACP agents the shipped profiles pin (docs/agent-profiles), and for each what a user adds to
// its profile (an API key) and what the tests add to point it at a model-API stand-in on loopback and
// keep it off the operator's own files (a temp HOME per test; Codex's CODEX_HOME inside it).
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { anthropicMessages } from '../model-apis/anthropic-messages';
import { geminiGenerate } from '../model-apis/gemini-generate';
import { openaiResponses } from '../model-apis/openai-responses';
import type { ModelFamily } from '../model-apis/standin-server';

export interface RealAgentKind {
  /** The profile's file name under docs/agent-profiles, without `.json`. */
  readonly profile: 'claude-agent-acp' | 'codex-acp' | 'gemini-cli';
  readonly family: ModelFamily;
  /** A phrase of the agent's own system prompt: kandev's prompt must come beside it, not instead. */
  readonly ownPromptMarker: string;
  /**
   * Where kandev's system prompt reaches the model: the instructions (ACP systemPrompt, append), or,
   * for an agent without ACP system-prompt support, a preamble on the session's first prompt.
   */
  readonly systemPromptAt: 'instructions' | 'first_prompt';
  /** The profile env a user adds plus the test's pointers at the stand-in. */
  env(standinUrl: string, home: string): Record<string, string>;
  /** What the user's HOME holds before the agent starts. */
  prepareHome(home: string, standinUrl: string): void;
}

const CLAUDE: RealAgentKind = {
  profile: 'claude-agent-acp',
  family: anthropicMessages,
  ownPromptMarker: 'You are Claude Code',
  systemPromptAt: 'instructions',
  env: (url) => ({ ANTHROPIC_API_KEY: 'sk-ant-test-standin', ANTHROPIC_BASE_URL: url }),
  prepareHome: () => undefined,
};

const codexHome = (home: string) => join(home, '.codex');

const CODEX: RealAgentKind = {
  profile: 'codex-acp',
  family: openaiResponses,
  ownPromptMarker: 'You are Codex',
  systemPromptAt: 'instructions',
  env: (_url, home) => ({ OPENAI_API_KEY: 'sk-test-standin', CODEX_HOME: codexHome(home) }),
  prepareHome: (home, url) => {
    mkdirSync(codexHome(home), { recursive: true });
    // Codex 0.166 ignores OPENAI_BASE_URL; plugins off: no plugin sync with github.com / chatgpt.com.
    const toml = `openai_base_url = "${url}/v1"\n\n[features]\nplugins = false\n`;
    writeFileSync(join(codexHome(home), 'config.toml'), toml);
  },
};

const GEMINI: RealAgentKind = {
  profile: 'gemini-cli',
  family: geminiGenerate,
  ownPromptMarker: 'You are an interactive CLI agent specializing in software engineering tasks',
  systemPromptAt: 'first_prompt',
  env: (url) => ({
    GEMINI_API_KEY: 'test-standin',
    GOOGLE_GEMINI_BASE_URL: url,
    // Pinned: the default `auto` routes every turn through a classifier call first.
    GEMINI_MODEL: 'gemini-2.5-flash',
  }),
  prepareHome: (home) => {
    mkdirSync(join(home, '.gemini'), { recursive: true });
    // Usage statistics (play.googleapis.com) have no env switch: the user's settings turn them off.
    const settings = { privacy: { usageStatisticsEnabled: false } };
    writeFileSync(join(home, '.gemini', 'settings.json'), JSON.stringify(settings));
  },
};

export const REAL_AGENTS: readonly RealAgentKind[] = [CLAUDE, CODEX, GEMINI];

/** The Codex rules directory an "allow always" would write to (none may appear: kandev keeps "always"). */
export function codexRulesDir(home: string): string {
  return join(codexHome(home), 'rules');
}
