/**
 * The `human` MCP server a {@link HumanChannel} gives its agents (docs/human-channel.md): `ask` blocks until
 * the human answers or the channel falls through; `inbox` never blocks and hands over what the human typed
 * unasked. The server runs in this process (`createSdkMcpServer`), so a question and its answer never leave
 * it. Its tool-call timeout is set past the channel's own, so the channel's fall-through text — not an MCP
 * timeout error — is what the model reads when nobody answers.
 *
 * @module
 */
import { z } from 'zod';

import { createSdkMcpServer, tool, type McpServerConfig } from '../agent/claude-sdk.js';
import { loadPrompt } from '../internal/load-prompt.js';
import type { HumanChannel } from './human-channel.js';
import type { Mail } from './mail.js';

// Defined in human-tool-names.ts; passed on here because the public API exports them from this module.
export { ASK_TOOL, INBOX_TOOL } from '../guards/human-tool-names.js';

/** The inbox tool's reply when nothing is waiting. */
export const INBOX_EMPTY = loadPrompt('inbox-empty');

const ASK_DESCRIPTION = loadPrompt('ask-tool');

const INBOX_DESCRIPTION = loadPrompt('inbox-tool');

/**
 * The longest tool-call timeout there is: Node's timers hold at most 2^31 − 1 ms (about 24.8 days); a larger
 * value overflows and fires at once. A channel that waits forever (`--timeout never`) gets this.
 */
export const LONGEST_TIMEOUT_MS = 2_147_483_647;

/** The server's tool-call timeout: the channel's own timeout plus a minute, so the channel always wins. */
export function serverTimeoutMs(timeoutS: number | null): number {
  if (timeoutS === null) return LONGEST_TIMEOUT_MS;
  return Math.min(LONGEST_TIMEOUT_MS, Math.max(0, timeoutS) * 1000 + 60_000);
}

/** The inbox tool's reply for `taken` (in order); `amended` tells whether each is already in the brief. */
export function inboxReply(
  taken: readonly Mail[],
  amendPath: string | null,
  amended: (mail: Mail) => boolean,
): string {
  if (taken.length === 0) return INBOX_EMPTY;
  const list = taken.map((mail, index) => `${index + 1}. ${mail.text}`);
  const saved =
    amendPath !== null && taken.every(amended)
      ? `These messages are already appended to the brief (${amendPath}), so they survive the step boundary.`
      : 'These messages are not saved in the brief: they will not survive the step boundary, so act on them now ' +
        'or write down what matters.';
  return [`The human sent ${taken.length} message(s), oldest first:`, ...list, '', saved].join('\n');
}

/** The abort signal the MCP layer passes to a tool handler (aborted when the call is cancelled). */
function signalOf(extra: unknown): AbortSignal | null {
  const signal = (extra as { signal?: unknown } | null | undefined)?.signal;
  return signal instanceof AbortSignal ? signal : null;
}

/** `{ human: <server> }` for `channel`; a new server on every call (one server serves one query at a time). */
export function humanMcpServers(channel: HumanChannel): Record<string, McpServerConfig> {
  const ask = tool(
    'ask',
    ASK_DESCRIPTION,
    {
      question: z.string().describe('The question, in a sentence or two.'),
      options: z.array(z.string()).optional().describe('Possible answers, most likely first.'),
    },
    async (input, extra) => {
      const signal = signalOf(extra);
      const settled = await channel.ask(input.question, {
        options: input.options ?? [],
        ...(signal === null ? {} : { signal }),
      });
      return { content: [{ type: 'text', text: settled.answer }] };
    },
    { alwaysLoad: true },
  );
  const inbox = tool('inbox', INBOX_DESCRIPTION, {}, () => {
    const taken = channel.takeMail();
    return Promise.resolve({
      content: [
        { type: 'text', text: inboxReply(taken, channel.amendPath, (mail) => channel.wasAmended(mail)) },
      ],
    });
  });
  return {
    human: createSdkMcpServer({
      name: 'human',
      version: '1.0.0',
      tools: [ask, inbox],
      // Deferred behind tool search, a tool the prompt tells the model to call would first need a search.
      alwaysLoad: true,
      timeout: serverTimeoutMs(channel.timeoutS),
    }),
  };
}
