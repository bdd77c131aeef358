import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { describe, it } from 'node:test';
import type { FastifyReply, FastifyRequest, RequestPayload } from 'fastify';
import { ed25519KeyPairFromSeed, ed25519Sign } from '../crypto/ed25519.js';
import { gatewayError, isGatewayError } from './errors.js';
import { EMPTY_SHA256_HEX, header, type SignedParts, signedHooks } from './signed-hooks.js';

const KEY = ed25519KeyPairFromSeed(new Uint8Array(32).fill(7));
const text = (method: string, url: string, bodyHex: string, nonce: string) =>
  new TextEncoder().encode(`${method}\n${url}\n${bodyHex}\n${nonce}`);

interface Parts extends SignedParts {
  readonly who: string;
}

function request(headers: Record<string, string>, method = 'POST', url = '/x'): FastifyRequest {
  return { headers, method, url, raw: { url } } as unknown as FastifyRequest;
}

function signedRequest(body: string | undefined, nonce: string, method = 'POST'): FastifyRequest {
  const bodyHex = body === undefined ? EMPTY_SHA256_HEX : createHash('sha256').update(body).digest('hex');
  const sig = ed25519Sign(KEY.seed, text(method, '/x', bodyHex, nonce));
  return request({ 'x-who': 'alice', 'x-nonce': nonce, 'x-sig': Buffer.from(sig).toString('hex') }, method);
}

function hooksWith(accepted: string[]) {
  return signedHooks<Parts>({
    read(req) {
      const sig = header(req, 'x-sig');
      if (sig === undefined) throw gatewayError('signature_missing', { missing: ['x-sig'] });
      return {
        who: header(req, 'x-who') ?? '',
        publicKey: KEY.publicKey,
        timestampMs: 0,
        nonce: header(req, 'x-nonce') ?? '',
        signature: new Uint8Array(Buffer.from(sig, 'hex')),
      };
    },
    message: (req, p, bodyHex) => text(req.method, req.raw.url ?? req.url, bodyHex, p.nonce),
    missing: () => gatewayError('signature_missing', { missing: ['x-sig'] }),
    invalidSignature: () => gatewayError('request_signature_invalid', { reason: 'signature' }),
    accept(_req, p) {
      if (accepted.includes(p.nonce)) throw gatewayError('nonce_reused');
      accepted.push(p.nonce);
    },
  });
}

async function drain(payload: RequestPayload): Promise<string> {
  let out = '';
  for await (const chunk of payload) out += String(chunk);
  return out;
}

async function refusal(p: Promise<unknown>): Promise<string> {
  try {
    await p;
  } catch (e) {
    if (isGatewayError(e)) return e.code;
    throw e;
  }
  return 'accepted';
}

const reply = {} as FastifyReply;

describe('signedHooks, the hook set of header-signed requests', () => {
  it('hashes the streamed body, verifies the signature over it, then accepts once', async () => {
    const accepted: string[] = [];
    const hooks = hooksWith(accepted);
    const req = signedRequest('{"a":1}', 'n1');
    await hooks.onRequest(req);
    const body = await drain(
      await hooks.preParsing(req, reply, Readable.from(['{"a":', '1}']) as RequestPayload),
    );
    assert.equal(body, '{"a":1}', 'the body passes through unchanged');
    assert.equal(hooks.verified(req), undefined, 'not verified before preValidation');
    await hooks.preValidation(req);
    assert.equal(hooks.verified(req)?.who, 'alice');
    assert.deepEqual(accepted, ['n1']);
    const again = signedRequest('{"a":1}', 'n1');
    await hooks.onRequest(again);
    await drain(await hooks.preParsing(again, reply, Readable.from(['{"a":1}']) as RequestPayload));
    assert.equal(await refusal(hooks.preValidation(again)), 'nonce_reused');
    assert.equal(hooks.verified(again), undefined);
  });

  it('a body other than the signed one is refused before accept: forged requests burn no nonce', async () => {
    const accepted: string[] = [];
    const hooks = hooksWith(accepted);
    const req = signedRequest('{"a":1}', 'n2');
    await hooks.onRequest(req);
    await drain(await hooks.preParsing(req, reply, Readable.from(['{"a":2}']) as RequestPayload));
    assert.equal(await refusal(hooks.preValidation(req)), 'request_signature_invalid');
    assert.deepEqual(accepted, []);
  });

  it('a request without a body is signed as the empty body', async () => {
    const hooks = hooksWith([]);
    const req = signedRequest(undefined, 'n3', 'GET');
    await hooks.onRequest(req);
    await hooks.preValidation(req);
    assert.equal(hooks.verified(req)?.nonce, 'n3');
  });

  it('refuses headers it cannot read, and a request whose headers were never read', async () => {
    const hooks = hooksWith([]);
    assert.equal(await refusal(hooks.onRequest(request({}))), 'signature_missing');
    const skipped = request({});
    const payload = Readable.from(['x']) as RequestPayload;
    assert.equal(await hooks.preParsing(skipped, reply, payload), payload, 'passed through untouched');
    assert.equal(await refusal(hooks.preValidation(skipped)), 'signature_missing');
  });
});
