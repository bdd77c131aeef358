import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { buildProgram } from '../../src/cli/main.js';
import { usageProblems } from './cli-usage.js';
import { blockCommands, isBackground, placeholders, shellBlocks, toranaInvocations } from './extract.js';
import { lastLine, pageScript, TESTNET_READY } from './page-script.js';

const FENCE = '```';
const doc = [
  '# A page', // 1
  '', // 2
  '<!-- doc-example: run -->', // 3
  `${FENCE}sh`, // 4
  '$ torana domain register wonderland   # a comment', // 5
  'torana asset define rose#wonderland \\', // 6
  '  --scale 2', // 7
  '# only a comment', // 8
  'torana events --follow      # in another terminal', // 9
  FENCE, // 10
  '', // 11
  '<!-- doc-example: skip reason="needs a real host" -->', // 12
  `${FENCE}console`, // 13
  '$ torana status --url https://node.example', // 14
  'quorum: 4/4', // 15
  FENCE, // 16
  `${FENCE}sh`, // 17
  'npm ci', // 18
  FENCE, // 19
  FENCE, // 20
  'torana tx history [--limit N]', // 21
  FENCE, // 22
  `${FENCE}json`, // 23
  '{}', // 24
  FENCE, // 25
  '<!-- doc-example: runn -->', // 26
  `${FENCE}bash`, // 27
  'true', // 28
  FENCE, // 29
].join('\n');

describe('doc example extraction', () => {
  const blocks = shellBlocks('p.md', doc);

  it('finds shell blocks and untagged command blocks with their markers', () => {
    assert.deepEqual(
      blocks.map((b) => [b.line, b.lang, b.decision.kind, b.untagged ?? false]),
      [
        [4, 'sh', 'run', false],
        [13, 'console', 'skip', false],
        [17, 'sh', 'none', false],
        [20, '', 'none', true],
        [27, 'bash', 'invalid', false],
      ],
    );
    assert.deepEqual(blocks[1]!.decision, { kind: 'skip', reason: 'needs a real host' });
  });

  it('reads commands: prompts, continuations, comments, background, console output', () => {
    const cmds = blockCommands(blocks[0]!);
    assert.deepEqual(
      cmds.map((c) => [c.line, c.code, c.background]),
      [
        [5, 'torana domain register wonderland', false],
        [6, 'torana asset define rose#wonderland \\\n  --scale 2', false],
        [9, 'torana events --follow', true],
      ],
    );
    assert.deepEqual(
      blockCommands(blocks[1]!).map((c) => c.code),
      ['torana status --url https://node.example'],
    );
  });

  it('finds placeholders outside quotes only', () => {
    assert.deepEqual(placeholders('torana account register <alice public key>@wonderland'), [
      '<alice public key>',
    ]);
    assert.deepEqual(placeholders(`echo '<b>' "<i>" 2>&1 > out.txt < in.txt`), []);
  });

  it('finds the torana commands of a line, wherever they run', () => {
    assert.deepEqual(
      toranaInvocations(
        'A=$(npx torana keys show a --json) && ip netns exec m1 env X=1 torana status --url "http://h:1" | cat',
      ),
      [
        ['keys', 'show', 'a', '--json'],
        ['status', '--url', 'http://h:1'],
      ],
    );
    assert.deepEqual(toranaInvocations('chown -R torana:torana /var/lib/torana; systemctl start torana'), []);
  });

  it('names a command or option the CLI does not declare', () => {
    const program = buildProgram();
    assert.deepEqual(usageProblems(program, ['asset', 'define', 'x#y', '--scale', '2', '--json']), []);
    assert.deepEqual(usageProblems(program, ['controls', 'allow', 'u#w', 'a@w', '[--remove]']), []);
    assert.deepEqual(usageProblems(program, ['--as', 'alice', 'whoami']), []);
    assert.deepEqual(usageProblems(program, ['asset', 'define', 'x#y', '--scal', '2']), [
      '"torana asset define" has no option --scal',
    ]);
    assert.match(usageProblems(program, ['asset', 'defin'])[0]!, /"torana asset defin": no such command/);
    assert.deepEqual(usageProblems(program, ['nosuch']), ['"torana nosuch": no such command']);
  });

  it('writes a page as one bash script that names the line of each command', () => {
    const script = pageScript(blocks);
    assert.equal(spawnSync('bash', ['-n'], { input: script }).status, 0);
    assert.match(script, /@@doc-example p\.md:6'/);
    assert.doesNotMatch(script, /node\.example/, 'a skipped block is not in the script');
    assert.equal(lastLine('@@doc-example p.md:5\nout\n@@doc-example p.md:9\nerror\n'), 'p.md:9');
    const withPlaceholder = shellBlocks(
      'q.md',
      `<!-- doc-example: run -->\n${FENCE}sh\ntorana x <id>\n${FENCE}`,
    );
    assert.throws(() => pageScript(withPlaceholder), /q\.md:3: placeholder <id>/);
  });

  it('runs a local network until the page ends, and waits for it to listen', () => {
    assert.equal(isBackground('npx torana testnet up --dir ./net', 'Ctrl-C stops them'), true);
    assert.equal(isBackground('npx torana testnet init --dir ./net', ''), false);
    const net = shellBlocks(
      'n.md',
      `<!-- doc-example: run -->\n${FENCE}sh\nnpx torana testnet up --dir ./net\n${FENCE}`,
    );
    assert.match(pageScript(net), /__doc_settle \$! .* 120 '\^\[0-9\]\+s {2}\[\^d\]\*leader peer-\[0-9\]'/);
    const ready = new RegExp(TESTNET_READY);
    assert.equal(ready.test('9s  peer-0 h=2 v=0 p=4 | peer-1 h=2 v=0 p=4  leader peer-1'), true);
    assert.equal(ready.test('3s  peer-0 h=1 v=0 p=1 | peer-1 down  leader peer-0'), false);
    assert.equal(ready.test('2s  peer-0 h=1 v=0 p=0 | peer-1 h=1 v=0 p=0  leader ?'), false);
  });

  it("stands the page's paths for the host paths it names, the longest first", () => {
    const hostPaths = shellBlocks(
      'h.md',
      `<!-- doc-example: run -->\n${FENCE}sh\ntorana backup create --dir /var/lib/torana --to /backups/b1\ntorana start --dir /var/lib/torana-new   # in another terminal\n${FENCE}`,
    );
    const script = pageScript(hostPaths, {
      paths: [
        ['/var/lib/torana-new', './new'],
        ['/var/lib/torana', './.torana'],
        ['/backups/', './backups/'],
      ],
    });
    assert.match(script, /^torana backup create --dir \.\/\.torana --to \.\/backups\/b1$/m);
    assert.match(script, /^torana start --dir \.\/new > /m);
    assert.doesNotMatch(script, / \/var\/lib| \/backups/);
  });

  it('fails the script at a failing command and at a failed background command', () => {
    const run = (body: string) => {
      const b = shellBlocks('r.md', `<!-- doc-example: run -->\n${FENCE}sh\n${body}\n${FENCE}`);
      const r = spawnSync('bash', ['-c', pageScript(b)], {
        encoding: 'utf8',
        env: { ...process.env, DOC_EXAMPLE_LOGS: mkdtempSync(join(tmpdir(), 'doc-example-')) },
      });
      return { code: r.status, at: lastLine(r.stderr) };
    };
    assert.deepEqual(run('X=1\necho "$X"'), { code: 0, at: 'end' });
    assert.deepEqual(run('true\nfalse\ntrue'), { code: 1, at: 'r.md:4' });
    assert.deepEqual(run('sh -c "exit 3"   # in another terminal\ntrue'), { code: 1, at: 'r.md:3' });
    // Up (it printed), then failed before the page ended.
    assert.deepEqual(run(`sh -c 'echo up; sleep 0.2; exit 4'   # in another terminal\nsleep 1`), {
      code: 1,
      at: 'r.md:3',
    });
    // Still running at the end: stopped, not a failure.
    assert.deepEqual(run('sh -c "echo up; exec sleep 30"   # in another terminal\ntrue'), {
      code: 0,
      at: 'end',
    });
  });
});

describe('doc example markers with needs', () => {
  const page = [
    '<!-- doc-example: run needs="netns" -->',
    `${FENCE}sh`,
    'ip netns add "$NS"sw',
    FENCE,
    '<!-- doc-example: run needs="docker" -->',
    `${FENCE}sh`,
    'docker ps',
    FENCE,
  ].join('\n');

  it('reads run needs="netns" as a run that needs root and ip netns, and rejects an unknown need', () => {
    const [netns, docker] = shellBlocks('n.md', page);
    assert.deepEqual(netns!.decision, { kind: 'run', needs: 'netns' });
    assert.equal(docker!.decision.kind, 'invalid');
    assert.match((docker!.decision as { problem: string }).problem, /needs is one of netns/);
  });
});
