import { describe, expect, it } from 'vitest';
import { AnthropicChatModel } from '../anthropic/index.js';
import { OpenAiCompatibleEmbeddingModel } from '../embeddings/open-ai-compatible-embedding-model.js';
import { InvalidArgumentError } from '../errors/index.js';
import { OpenAiChatModel } from '../openai/index.js';
import { resolveProviderConnection } from './provider-environment.js';

const OPENAI = {
  providerLabel: 'OpenAI',
  apiKeyVariable: 'OPENAI_API_KEY',
  baseUrlVariable: 'OPENAI_BASE_URL',
  modelVariable: 'OPENAI_MODEL',
  defaultBaseUrl: 'https://api.openai.com/v1',
  publicHost: 'api.openai.com',
};

function thrown(action: () => unknown): Error {
  try {
    action();
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected a throw');
}

describe('resolveProviderConnection', () => {
  it('takes key, base URL and model from the environment when options omit them', () => {
    const connection = resolveProviderConnection(
      {
        env: {
          OPENAI_API_KEY: 'sk-env',
          OPENAI_BASE_URL: 'http://127.0.0.1:8080/v1/',
          OPENAI_MODEL: 'qwen3',
        },
      },
      OPENAI,
    );
    expect(connection).toEqual({
      apiKey: 'sk-env',
      baseUrl: 'http://127.0.0.1:8080/v1',
      model: 'qwen3',
    });
  });

  it('lets every given option win over its variable', () => {
    const connection = resolveProviderConnection(
      {
        apiKey: 'sk-option',
        baseUrl: 'http://localhost:11434/v1',
        model: 'llama3',
        env: { OPENAI_API_KEY: 'sk-env', OPENAI_BASE_URL: 'http://other/v1', OPENAI_MODEL: 'x' },
      },
      OPENAI,
    );
    expect(connection).toEqual({
      apiKey: 'sk-option',
      baseUrl: 'http://localhost:11434/v1',
      model: 'llama3',
    });
  });

  it('treats blank values as unset, in options and in the environment', () => {
    const connection = resolveProviderConnection(
      { apiKey: '  ', env: { OPENAI_API_KEY: 'sk-env\n', OPENAI_BASE_URL: '', OPENAI_MODEL: '' } },
      OPENAI,
    );
    expect(connection).toEqual({
      apiKey: 'sk-env',
      baseUrl: 'https://api.openai.com/v1',
      model: undefined,
    });
  });

  it('refuses the public host without a key, naming the variable and the option', () => {
    const error = thrown(() => resolveProviderConnection({ env: {} }, OPENAI));
    expect(error).toBeInstanceOf(InvalidArgumentError);
    expect((error as InvalidArgumentError).code).toBe('INVALID_ARGUMENT');
    expect(error.message).toContain('OPENAI_API_KEY');
    expect(error.message).toContain('apiKey option');
    expect(error.message).toContain('OPENAI_BASE_URL');
  });

  it('refuses regional subdomains of the public host without a key too', () => {
    expect(() =>
      resolveProviderConnection(
        { env: { OPENAI_BASE_URL: 'https://eu.api.openai.com/v1' } },
        OPENAI,
      ),
    ).toThrow(InvalidArgumentError);
  });

  it('needs no key for any other host', () => {
    for (const baseUrl of ['http://localhost:11434/v1', 'https://gateway.example/openai/v1']) {
      expect(resolveProviderConnection({ baseUrl, env: {} }, OPENAI).apiKey).toBeUndefined();
    }
  });

  it('rejects a base URL that is not http(s), without echoing it', () => {
    const error = thrown(() =>
      resolveProviderConnection(
        { env: { OPENAI_BASE_URL: 'sk-pasted-into-the-wrong-var' } },
        OPENAI,
      ),
    );
    expect(error).toBeInstanceOf(InvalidArgumentError);
    expect(error.message).toContain('OPENAI_BASE_URL');
    expect(error.message).not.toContain('sk-pasted');
    expect(() => resolveProviderConnection({ baseUrl: 'ftp://host/v1', env: {} }, OPENAI)).toThrow(
      /baseUrl option/,
    );
  });

  it('reads process.env when no env is given', () => {
    const saved = process.env.TOOLLOOP_TEST_KEY;
    process.env.TOOLLOOP_TEST_KEY = 'sk-process';
    try {
      const connection = resolveProviderConnection(
        {},
        { ...OPENAI, apiKeyVariable: 'TOOLLOOP_TEST_KEY' },
      );
      expect(connection.apiKey).toBe('sk-process');
    } finally {
      if (saved === undefined) delete process.env.TOOLLOOP_TEST_KEY;
      else process.env.TOOLLOOP_TEST_KEY = saved;
    }
  });
});

describe('provider models configured from an explicit env', () => {
  it('OpenAiChatModel uses OPENAI_MODEL as its default model and fails fast without a key', () => {
    const model = new OpenAiChatModel({ env: { OPENAI_API_KEY: 'sk-env', OPENAI_MODEL: 'gpt-x' } });
    expect(model.defaultOptions.model).toBe('gpt-x');
    // api.openai.com still picks max_completion_tokens: the resolved URL drives the choice.
    expect(
      model.request({ messages: [], options: { maxTokens: 5 } }, false).max_completion_tokens,
    ).toBe(5);
    expect(() => new OpenAiChatModel({ env: {} })).toThrow(/OPENAI_API_KEY.*apiKey option/);
  });

  it('OpenAiChatModel with OPENAI_BASE_URL of a local server needs no key', () => {
    const model = new OpenAiChatModel({ env: { OPENAI_BASE_URL: 'http://localhost:11434/v1' } });
    expect(model.request({ messages: [], options: { maxTokens: 5 } }, false).max_tokens).toBe(5);
  });

  it('AnthropicChatModel reads ANTHROPIC_* and ignores OPENAI_MODEL', () => {
    const model = new AnthropicChatModel({
      env: { ANTHROPIC_API_KEY: 'sk-ant-env', OPENAI_MODEL: 'gpt-x' },
    });
    expect(model.defaultOptions.model).toBe('claude-sonnet-4-5');
    expect(() => new AnthropicChatModel({ env: { OPENAI_API_KEY: 'sk-openai' } })).toThrow(
      /ANTHROPIC_API_KEY.*apiKey option/,
    );
    expect(
      () => new AnthropicChatModel({ env: { ANTHROPIC_BASE_URL: 'http://127.0.0.1:9/v1' } }),
    ).not.toThrow();
  });

  it('OpenAiCompatibleEmbeddingModel follows the same rule', () => {
    expect(() => new OpenAiCompatibleEmbeddingModel({ model: 'm', env: {} })).toThrow(
      /OPENAI_API_KEY.*apiKey option/,
    );
    const local = new OpenAiCompatibleEmbeddingModel({
      model: 'm',
      env: { OPENAI_BASE_URL: 'http://localhost:11434/v1/' },
    });
    expect(local.baseUrl).toBe('http://localhost:11434/v1');
  });
});
