// A raw HTTP/1.1 client on node:net, for what fetch never does: several requests pipelined in one
// write, a body cut off in the middle, a hang-up at a chosen moment.
import { connect, type Socket } from 'node:net';

/** One request's bytes: `method target`, an Authorization header for `secret`, and `extra` as written. */
export function requestText(method: string, target: string, secret?: string, extra = ''): string {
  const authorization = secret === undefined ? '' : `Authorization: Bearer ${secret}\r\n`;
  return `${method} ${target} HTTP/1.1\r\nHost: 127.0.0.1\r\n${authorization}${extra}\r\n`;
}

/** Connects to `url` and writes `text` in one write; the socket, once written. Whatever arrives is read and dropped. */
export function sendRaw(url: string, text: string): Promise<Socket> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect({ host: hostname, port: Number(port) }, () => {
      socket.write(text, (error) => (error ? reject(error) : resolve(socket)));
    });
    socket.on('data', () => {});
    socket.on('error', () => {});
  });
}
