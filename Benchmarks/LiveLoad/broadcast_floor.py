"""The floor for a change shown on N pages: one pre-encoded WebSocket frame written to N
sockets, and nothing else. Run by `fanout_floor.py` beside Scenery and pyview-web, on the
same machine in the same run; not part of Scenery.

    python3 Benchmarks/LiveLoad/broadcast_floor.py --port 8790

A client opens a WebSocket at any path (the handshake is the only parsing the server does).
`POST /broadcast?bytes=N` writes one text frame of N bytes to every open socket: the frame
is encoded once per size, then handed to each socket's transport, as a server that shares
one encoded change between its pages would do at best. It answers once every write is
queued. The server's CPU per socket per broadcast is what `fanout_floor.py` reads from
/proc.
"""
import argparse
import asyncio
import base64
import hashlib
import struct

GUID = b"258EAFA5-E914-47DA-95CA-C5AB0DC85B11"


def frame(size):
    """A final, unmasked text frame of `size` bytes (the payload: `x` repeated)."""
    if size < 126:
        header = struct.pack("!BB", 0x81, size)
    elif size < 65536:
        header = struct.pack("!BBH", 0x81, 126, size)
    else:
        header = struct.pack("!BBQ", 0x81, 127, size)
    return header + b"x" * size


class Floor:
    def __init__(self):
        self.sockets = set()
        self.frames = {}

    def broadcast(self, size):
        encoded = self.frames.get(size) or self.frames.setdefault(size, frame(size))
        for transport in self.sockets:
            transport.write(encoded)
        return len(self.sockets)


class Connection(asyncio.Protocol):
    def __init__(self, floor):
        self.floor, self.buffer, self.transport, self.upgraded = floor, b"", None, False

    def connection_made(self, transport):
        self.transport = transport

    def data_received(self, data):
        if self.upgraded:
            # Clients send nothing but their closing frame: answered with one, then closed.
            if data and data[0] & 0x0F == 0x8:
                self.transport.write(b"\x88\x00")
                self.transport.close()
            return
        self.buffer += data
        if b"\r\n\r\n" not in self.buffer:
            return
        head = self.buffer.split(b"\r\n\r\n", 1)[0].decode("latin-1").split("\r\n")
        request, headers = head[0], {line.split(":", 1)[0].strip().lower(): line.split(":", 1)[1].strip() for line in head[1:] if ":" in line}
        if request.startswith("POST /broadcast"):
            size = int(request.split("bytes=", 1)[1].split()[0])
            count = self.floor.broadcast(size)
            body = str(count).encode()
            self.transport.write(b"HTTP/1.1 200 OK\r\nContent-Length: %d\r\nConnection: close\r\n\r\n%s" % (len(body), body))
            self.transport.close()
            return
        key = headers.get("sec-websocket-key", "").encode()
        if not key:  # a plain request (is the server up?): answered, not upgraded
            self.transport.write(b"HTTP/1.1 204 No Content\r\nConnection: close\r\n\r\n")
            self.transport.close()
            return
        accept = base64.b64encode(hashlib.sha1(key + GUID).digest())
        self.transport.write(b"HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: " + accept + b"\r\n\r\n")
        self.upgraded = True
        self.floor.sockets.add(self.transport)

    def connection_lost(self, exc):
        self.floor.sockets.discard(self.transport)


async def serve(port):
    floor = Floor()
    server = await asyncio.get_running_loop().create_server(lambda: Connection(floor), "127.0.0.1", port, backlog=4096)
    async with server:
        await server.serve_forever()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--port", type=int, default=8790)
    asyncio.run(serve(parser.parse_args().port))
