// Server-sent event framing (WHATWG HTML §9.2 "Server-sent events", the `text/event-stream` format).
// Every data event carries `id:` (clients resume with Last-Event-ID),
// `event:` and one compact JSON `data:` line: JSON.stringify escapes CR and LF inside strings, so a
// payload can never break the line framing. Control events (`lagged`, `gone`) carry no `id:` so the
// client's Last-Event-ID stays on the last real event it received.

import type { FastifyRequest } from 'fastify';
import { gatewayError } from './errors.js';

export interface StreamEvent {
  id: number;
  name: string;
  /** JSON-ready value. */
  data: unknown;
  /**
   * The whole frame, when the feed formats each event once for all its subscribers (fan-out: one
   * JSON serialisation per event, and lagging subscribers queue references, not copies).
   */
  frame?: string;
}

const EVENT_NAME = /^[A-Za-z0-9_.:-]{1,64}$/;

function safeName(name: string): string {
  // Names come from our own code, but a bad one must not be able to inject fields.
  return EVENT_NAME.test(name) ? name : 'message';
}

export function formatEvent(e: StreamEvent): string {
  if (e.frame !== undefined) return e.frame;
  return `id: ${e.id}\nevent: ${safeName(e.name)}\ndata: ${JSON.stringify(e.data) ?? 'null'}\n\n`;
}

export function formatControl(name: 'lagged' | 'gone', data: Record<string, unknown>): string {
  return `event: ${name}\ndata: ${JSON.stringify(data)}\n\n`;
}

export function formatRetry(ms: number): string {
  return `retry: ${ms}\n\n`;
}

export const HEARTBEAT_FRAME = ': heartbeat\n\n';

/** Event ids are safe integers (pipeline/event-id.ts: height × 2^24 + position): at most 16 digits. */
const EVENT_ID = /^(?:0|[1-9][0-9]{0,15})$/;

/**
 * The id to resume after: the `Last-Event-ID` header (what EventSource sends on reconnect) or the
 * `last_event_id` query parameter (for clients that cannot set headers). Undefined: start live.
 */
export function lastEventIdOf(req: FastifyRequest): number | undefined {
  const header = req.headers['last-event-id'];
  let text = typeof header === 'string' && header.trim() !== '' ? header.trim() : undefined;
  if (text === undefined) {
    const url = req.raw.url ?? '';
    const q = url.indexOf('?');
    text = q < 0 ? undefined : (new URLSearchParams(url.slice(q + 1)).get('last_event_id') ?? undefined);
  }
  if (text === undefined) return undefined;
  if (!EVENT_ID.test(text) || !Number.isSafeInteger(Number(text)))
    throw gatewayError('invalid_last_event_id', { value: text.slice(0, 32) });
  return Number(text);
}
