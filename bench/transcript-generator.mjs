// Generates a realistic long session for the benchmark: a main transcript and several subagent transcripts,
// shaped like what Claude Code 2.1.334 mirrors to a session store (one assistant entry per content block
// sharing message.id; tool results as user entries hanging off their call with toolUseResult and
// sourceToolAssistantUUID; uuid-less markers such as last-prompt and cost-state; system api_error retry
// entries and synthetic "API Error" replies; denials marked toolDenialKind). Deterministic: a seeded PRNG.

/** Mulberry32: small, fast, seeded. */
function random(seed) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let value = state;
    value = Math.imul(value ^ (value >>> 15), value | 1);
    value ^= value + Math.imul(value ^ (value >>> 7), value | 61);
    return ((value ^ (value >>> 14)) >>> 0) / 4294967296;
  };
}

const WORDS = (
  'the build test parser session store entry result module function returns value error file line config ' +
  'workspace agent tool call resume transcript spill trim prune chain model token cache context window ' +
  'index branch commit status diff patch source type check lint format bench report'
).split(' ');

const EPHEMERAL = [
  'git status',
  'git status -s',
  'ls -la',
  'git diff --stat',
  'git log --oneline -10',
  'pwd',
  'ls src',
  'wc -l src/*.ts',
];
const WORK = [
  'npm test',
  'npm run build',
  'node scripts/check.mjs',
  'make -j2',
  'npx tsc --noEmit',
  'python3 tools/gen.py',
];
const DENIED = ['rm -rf dist', 'git push --force', 'git reset --hard HEAD~3'];

class Writer {
  constructor(rng, session, agentId = null) {
    this.rng = rng;
    this.session = session;
    this.agentId = agentId;
    this.entries = [];
    this.bytes = 0;
    this.counter = 0;
    this.leaf = null;
    this.replies = 0;
    this.clock = Date.UTC(2026, 0, 1);
  }

  words(count) {
    let out = '';
    for (let index = 0; index < count; index += 1)
      out += (index ? ' ' : '') + WORDS[Math.floor(this.rng() * WORDS.length)];
    return out;
  }

  lines(count, width) {
    const rows = [];
    for (let index = 0; index < count; index += 1)
      rows.push(`${String(index + 1).padStart(5)}\t${this.words(width)}`);
    return rows.join('\n');
  }

  between(low, high) {
    return low + Math.floor(this.rng() * (high - low + 1));
  }

  uuid() {
    this.counter += 1;
    const tail = (this.session.index * 1_000_000 + (this.agentId ? 500_000 : 0) + this.counter)
      .toString(16)
      .padStart(12, '0');
    return `${this.session.prefix}-4000-8000-${tail}`;
  }

  envelope() {
    this.clock += this.between(50, 4000);
    const base = {
      isSidechain: this.agentId !== null,
      userType: 'external',
      entrypoint: 'sdk-ts',
      cwd: '/home/dev/project',
      sessionId: this.session.id,
      version: '2.1.334',
      gitBranch: 'main',
      timestamp: new Date(this.clock).toISOString(),
    };
    if (this.agentId !== null) base.agentId = this.agentId;
    return base;
  }

  push(entry) {
    this.entries.push(entry);
    this.bytes += JSON.stringify(entry).length;
  }

  chained(fields, parent = this.leaf) {
    const uuid = this.uuid();
    this.push({ parentUuid: parent, ...this.envelope(), uuid, ...fields });
    this.leaf = uuid;
    return uuid;
  }

  marker(type, extra = {}) {
    this.push({ type, sessionId: this.session.id, ...extra });
  }

  prompt(text) {
    const uuid = this.chained({
      type: 'user',
      message: { role: 'user', content: [{ type: 'text', text }] },
      promptId: this.uuid(),
    });
    for (let index = 0; index < this.between(2, 5); index += 1) {
      this.chained({
        type: 'attachment',
        attachment: { type: 'context', content: this.words(this.between(40, 200)) },
      });
    }
    return uuid;
  }

  usage() {
    return {
      input_tokens: this.between(1, 20),
      cache_creation_input_tokens: this.between(0, 3000),
      cache_read_input_tokens: this.between(20000, 180000),
      output_tokens: this.between(50, 3000),
      service_tier: 'standard',
    };
  }

  /** One model reply: one assistant entry per block. Returns a map tool id → holder uuid. */
  reply(blocks) {
    this.replies += 1;
    const id = `msg_${this.session.index}_${this.agentId ?? 'main'}_${this.replies}`;
    const usage = this.usage();
    const holders = new Map();
    for (const [index, block] of blocks.entries()) {
      const uuid = this.chained({
        type: 'assistant',
        message: {
          id,
          type: 'message',
          role: 'assistant',
          model: 'claude-opus-5-5',
          content: [block],
          stop_reason: 'tool_use',
          usage,
        },
        requestId: `req_${id}`,
        apiBlockIndex: index,
      });
      if (block.type === 'tool_use') holders.set(block.id, uuid);
    }
    return holders;
  }

  results(holders, results) {
    for (const result of results) {
      const holder = holders.get(result.id);
      this.chained(
        {
          type: 'user',
          message: {
            role: 'user',
            content: [
              {
                type: 'tool_result',
                tool_use_id: result.id,
                content: result.content,
                is_error: result.isError ?? false,
              },
            ],
          },
          toolUseResult: result.toolUseResult ?? {
            stdout: result.content,
            stderr: '',
            interrupted: false,
            isImage: false,
          },
          sourceToolAssistantUUID: holder,
          ...(result.extra ?? {}),
        },
        holder,
      );
    }
  }

  toolId() {
    this.counter += 1;
    return `toolu_${this.session.index}_${this.agentId ?? 'm'}_${this.counter}`;
  }

  /** One model turn with tools; returns the tool calls' kinds for accounting. */
  turn(options = {}) {
    const blocks = [];
    if (this.rng() < 0.6)
      blocks.push({
        type: 'thinking',
        thinking: this.words(this.between(30, 300)),
        signature: 'sig'.repeat(40),
      });
    if (this.rng() < 0.7) blocks.push({ type: 'text', text: this.words(this.between(10, 120)) });
    const calls = [];
    const count = this.rng() < 0.15 ? 2 : 1;
    for (let index = 0; index < count; index += 1) calls.push(this.call(options));
    for (const call of calls) blocks.push(call.use);
    const holders = this.reply(blocks);
    this.results(
      holders,
      calls.map((call) => call.result),
    );
    if (this.rng() < 0.3)
      this.chained({
        type: 'attachment',
        attachment: { type: 'todo', content: this.words(this.between(20, 80)) },
      });
    this.marker('last-prompt', { lastPrompt: 'continue', leafUuid: this.leaf });
  }

  call(options) {
    const id = this.toolId();
    const roll = this.rng();
    if (options.denial) {
      const command = DENIED[this.between(0, DENIED.length - 1)];
      return {
        use: { type: 'tool_use', id, name: 'Bash', input: { command } },
        result: {
          id,
          content: 'PreToolUse:Bash hook error: not allowed on the main thread',
          isError: true,
          toolUseResult: 'Error: denied',
          extra: { toolDenialKind: 'permission-rule' },
        },
      };
    }
    if (roll < 0.3) {
      const command = EPHEMERAL[this.between(0, EPHEMERAL.length - 1)];
      const content = this.lines(this.between(2, 25), this.between(3, 8));
      return { use: { type: 'tool_use', id, name: 'Bash', input: { command } }, result: { id, content } };
    }
    if (roll < 0.55) {
      const command = WORK[this.between(0, WORK.length - 1)];
      const big = this.rng() < 0.25;
      const content = big
        ? this.lines(this.between(60, 420), this.between(5, 10))
        : this.lines(this.between(3, 30), this.between(4, 9));
      return {
        use: { type: 'tool_use', id, name: 'Bash', input: { command, description: this.words(5) } },
        result: { id, content },
      };
    }
    if (roll < 0.8) {
      const path = `/home/dev/project/src/${this.words(1)}-${this.words(1)}.ts`;
      const content = this.lines(this.between(10, 190), this.between(6, 11));
      return {
        use: { type: 'tool_use', id, name: 'Read', input: { file_path: path } },
        result: {
          id,
          content,
          toolUseResult: { type: 'text', file: { filePath: path, content, numLines: 0 } },
        },
      };
    }
    const path = `/home/dev/project/src/${this.words(1)}.ts`;
    const before = this.words(this.between(5, 40));
    const after = this.words(this.between(5, 40));
    return {
      use: {
        type: 'tool_use',
        id,
        name: 'Edit',
        input: { file_path: path, old_string: before, new_string: after },
      },
      result: {
        id,
        content: `The file ${path} has been updated successfully.`,
        toolUseResult: {
          filePath: path,
          oldString: before,
          newString: after,
          structuredPatch: [{ lines: [`-${before}`, `+${after}`] }],
        },
      },
    };
  }

  /**
   * An interrupt: one call cut off mid-run (its result says so), and one reply whose call never got a result
   * before the user typed again (an orphan the load pipeline must heal).
   */
  interrupt() {
    const cut = this.toolId();
    this.results(this.reply([{ type: 'tool_use', id: cut, name: 'Bash', input: { command: 'npm test' } }]), [
      { id: cut, content: '[Request interrupted by user for tool use]', isError: true },
    ]);
    const orphan = this.toolId();
    this.reply([{ type: 'tool_use', id: orphan, name: 'Bash', input: { command: 'make -j2' } }]);
    this.prompt('[Request interrupted by user] Stop that and check the tests first.');
  }

  /** A failed request: retries recorded as system api_error entries, then a synthetic API-error reply. */
  apiFailure() {
    for (let attempt = 1; attempt <= 2; attempt += 1) {
      this.chained({
        type: 'system',
        subtype: 'api_error',
        level: 'error',
        error: { status: 529, formatted: '529 Overloaded' },
        retryAttempt: attempt,
        maxRetries: 2,
      });
    }
    this.chained({
      type: 'assistant',
      message: {
        id: `synthetic_${this.counter}`,
        role: 'assistant',
        model: '<synthetic>',
        content: [{ type: 'text', text: 'API Error: 529 Overloaded.' }],
        usage: { input_tokens: 0, output_tokens: 0 },
      },
      isApiErrorMessage: true,
      error: 'server_error',
    });
  }
}

/**
 * Generates one session: `{ sessionId, main: Entry[], subagents: [{ subpath, entries }], entries, bytes }`
 * with about `targetEntries` entries and `targetBytes` bytes of JSON in total.
 */
export function generateSession({
  targetEntries = 10_000,
  targetBytes = 20 * 1024 * 1024,
  seed = 1,
  subagents = 10,
} = {}) {
  const rng = random(seed);
  const session = {
    index: seed,
    prefix: `${(0x10000000 + seed).toString(16)}-0000`,
    id: `${(0x10000000 + seed).toString(16)}-0000-4000-8000-000000000000`,
  };
  const main = new Writer(rng, session);
  const agents = [];
  // Subagents carry most of the work (the reference measured 94.8% of body text in subagents in a 10-hour
  // run); here about two thirds, so the main transcript still has thousands of entries to rewrite.
  const mainShare = 0.35;
  main.prompt(main.words(120));
  let turns = 0;
  while (main.entries.length < targetEntries * mainShare && main.bytes < targetBytes * mainShare) {
    turns += 1;
    if (turns % 60 === 0) main.prompt(main.words(60));
    if (turns % 97 === 0) main.apiFailure();
    if (turns % 211 === 0) main.interrupt();
    if (turns % 37 === 0 && agents.length < subagents) {
      const agentId = `a${seed}${String(agents.length).padStart(15, '0')}`;
      const id = main.toolId();
      const holders = main.reply([
        {
          type: 'tool_use',
          id,
          name: 'Agent',
          input: {
            description: main.words(4),
            prompt: main.words(80),
            subagent_type: 'worker',
            run_in_background: false,
          },
        },
      ]);
      agents.push({ agentId, toolUseId: id });
      main.results(holders, [
        {
          id,
          content: [{ type: 'text', text: `[Subagent hand-back] ${main.words(150)}` }],
          toolUseResult: { status: 'completed', agentId },
        },
      ]);
      continue;
    }
    main.turn({ denial: turns % 113 === 0 });
  }
  const perAgentEntries = (targetEntries - main.entries.length) / Math.max(1, agents.length);
  const perAgentBytes = (targetBytes - main.bytes) / Math.max(1, agents.length);
  const subagentTranscripts = agents.map(({ agentId }, index) => {
    const writer = new Writer(rng, session, agentId);
    writer.marker('agent_metadata', { agentType: 'worker', toolUseId: agents[index].toolUseId });
    writer.prompt(writer.words(80));
    let subTurns = 0;
    while (writer.entries.length < perAgentEntries && writer.bytes < perAgentBytes) {
      subTurns += 1;
      writer.turn({ denial: false });
      if (subTurns % 150 === 0) writer.apiFailure();
    }
    writer.reply([{ type: 'text', text: writer.words(200) }]);
    return { subpath: `subagents/agent-${agentId}`, entries: writer.entries, bytes: writer.bytes };
  });
  main.reply([{ type: 'text', text: 'Done.' }]);
  main.marker('cost-state', { totalCostUSD: 171.62 });
  const entries = main.entries.length + subagentTranscripts.reduce((sum, sub) => sum + sub.entries.length, 0);
  const bytes = main.bytes + subagentTranscripts.reduce((sum, sub) => sum + sub.bytes, 0);
  return { sessionId: session.id, main: main.entries, subagents: subagentTranscripts, entries, bytes };
}

/**
 * Generates a session shaped like the acceptance round's first trimmed resume: thousands of tool results
 * just over trim's 2,000-character threshold (file reads of 50–70 lines), so the first trimmed load has
 * thousands of spill files to write. `{ sessionId, main, subagents, entries, bytes, results }`; about
 * `targetResults` large results split over the main transcript and `subagents` subagent transcripts.
 */
export function generateSpillHeavySession({ targetResults = 5_800, seed = 7, subagents = 5 } = {}) {
  const rng = random(seed);
  const session = {
    index: seed,
    prefix: `${(0x10000000 + seed).toString(16)}-0000`,
    id: `${(0x10000000 + seed).toString(16)}-0000-4000-8000-000000000000`,
  };
  const perTranscript = Math.ceil(targetResults / (subagents + 1));
  const bulk = (writer) => {
    let results = 0;
    while (results < perTranscript) {
      // Three parallel reads per reply, as a model surveying a code base does.
      const calls = [];
      for (let index = 0; index < 3; index += 1) {
        const id = writer.toolId();
        const path = `/home/dev/project/src/${writer.words(1)}-${writer.words(1)}.ts`;
        const content = writer.lines(writer.between(50, 70), writer.between(6, 8));
        calls.push({
          use: { type: 'tool_use', id, name: 'Read', input: { file_path: path } },
          result: {
            id,
            content,
            toolUseResult: { type: 'text', file: { filePath: path, content, numLines: 0 } },
          },
        });
      }
      const holders = writer.reply(calls.map((call) => call.use));
      writer.results(
        holders,
        calls.map((call) => call.result),
      );
      writer.marker('last-prompt', { lastPrompt: 'continue', leafUuid: writer.leaf });
      results += calls.length;
    }
    return results;
  };
  const main = new Writer(rng, session);
  main.prompt(main.words(120));
  let results = bulk(main);
  const subagentTranscripts = [];
  for (let index = 0; index < subagents; index += 1) {
    const agentId = `s${seed}${String(index).padStart(15, '0')}`;
    const writer = new Writer(rng, session, agentId);
    writer.marker('agent_metadata', { agentType: 'worker', toolUseId: `toolu_spawn_${index}` });
    writer.prompt(writer.words(80));
    results += bulk(writer);
    writer.reply([{ type: 'text', text: writer.words(200) }]);
    subagentTranscripts.push({ subpath: `subagents/agent-${agentId}`, entries: writer.entries });
  }
  main.reply([{ type: 'text', text: 'Done.' }]);
  const entries = main.entries.length + subagentTranscripts.reduce((sum, sub) => sum + sub.entries.length, 0);
  const bytes =
    main.bytes +
    subagentTranscripts.reduce(
      (sum, sub) => sum + sub.entries.reduce((total, entry) => total + JSON.stringify(entry).length, 0),
      0,
    );
  return {
    sessionId: session.id,
    main: main.entries,
    subagents: subagentTranscripts,
    entries,
    bytes,
    results,
  };
}
