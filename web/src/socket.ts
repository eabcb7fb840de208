// The page's socket: connect, back off, send, dispatch. One WebSocket at a time; a lost
// socket is reopened after 0.5 s, then 1, 2 and at most 5 s (the wait goes back to 0.5 s
// only once the server's hello came: a server that accepts the socket and closes it at
// once must not be hammered). The first frame (the link's key, or the Activity's token) is
// held in memory: a reconnect never needs the address bar.

import type { ActivityFrame } from "./handshake";
import type { ClientFrame, ServerFrame } from "./protocol";

/** `restarting`: the server closed the socket with 1012 (it is restarting). */
export type SocketStatus = "open" | "lost" | "restarting";

export interface SocketHooks {
  frame(frame: ServerFrame): void;
  status(status: SocketStatus): void;
}

const FIRST_RETRY = 500;
const LAST_RETRY = 5000;
const SERVICE_RESTART = 1012;

export class TableSocket {
  private ws: WebSocket | null = null;
  private retry = FIRST_RETRY;
  private stopped = false;

  constructor(private readonly url: string,
              private first: ClientFrame | ActivityFrame,
              private readonly hooks: SocketHooks) {}

  /** Join with `key` from now on (the server moved this page to a new table). */
  rekey(key: string): void {
    if (this.first.type === "join") this.first = { ...this.first, key };
  }

  connect(): void {
    const ws = new WebSocket(this.url);
    this.ws = ws;
    ws.onopen = () => {
      this.hooks.status("open");
      ws.send(JSON.stringify(this.first));
    };
    ws.onmessage = (ev: MessageEvent) => {
      if (typeof ev.data !== "string") return;
      const frame = JSON.parse(ev.data) as ServerFrame;
      if (frame.type === "hello") this.retry = FIRST_RETRY;
      this.hooks.frame(frame);
    };
    ws.onclose = (ev: CloseEvent) => {
      this.ws = null;
      if (this.stopped) return;
      this.hooks.status(ev.code === SERVICE_RESTART ? "restarting" : "lost");
      window.setTimeout(() => { if (!this.stopped) this.connect(); }, this.retry);
      this.retry = Math.min(this.retry * 2, LAST_RETRY);
    };
  }

  /** Send `frame` now; false when the socket is not open (nothing was sent). */
  send(frame: ClientFrame): boolean {
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN) return false;
    this.ws.send(JSON.stringify(frame));
    return true;
  }

  get open(): boolean {
    return this.ws !== null && this.ws.readyState === WebSocket.OPEN;
  }

  /** No more reconnects (the match is over, or the server said this link is done). */
  stop(): void {
    this.stopped = true;
  }
}
