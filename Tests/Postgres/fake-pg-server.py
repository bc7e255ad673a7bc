#!/usr/bin/env python3
"""A fake PostgreSQL server for the TLS tests: it declines TLS, asks for the password in clear,
and writes what it received to LOG, one line per event ("tls-request", "startup",
"password <text>"). It never answers a query. Run only inside a network namespace the test made.

    fake-pg-server.py HOST PORT LOG     (LOG.ready appears once it listens)
"""
import signal
import socket
import struct
import sys

host, port, log = sys.argv[1], int(sys.argv[2]), sys.argv[3]
# Started by a test runner whose threads block or ignore SIGTERM, which a child inherits: the
# test's `kill` must stop this server.
signal.signal(signal.SIGTERM, signal.SIG_DFL)
signal.pthread_sigmask(signal.SIG_UNBLOCK, [signal.SIGTERM])


def note(line):
    with open(log, "a") as f:
        f.write(line + "\n")


def exactly(conn, n):
    data = b""
    while len(data) < n:
        chunk = conn.recv(n - len(data))
        if not chunk:
            raise EOFError
        data += chunk
    return data


server = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
server.bind((host, port))
server.listen(8)
# A test killed halfway cannot stop this server: it stops itself once nobody has connected for
# 30 seconds (each test connects within a second or two).
server.settimeout(30)
open(log + ".ready", "w").write("listening\n")
while True:
    try:
        conn, _ = server.accept()
    except socket.timeout:
        sys.exit(0)
    conn.settimeout(30)
    try:
        while True:
            length = struct.unpack("!I", exactly(conn, 4))[0]
            body = exactly(conn, length - 4)
            code = struct.unpack("!I", body[:4])[0]
            if code in (80877103, 80877104):  # SSLRequest, GSSENCRequest: declined
                note("tls-request")
                conn.sendall(b"N")
                continue
            note("startup")
            conn.sendall(b"R" + struct.pack("!II", 8, 3))  # AuthenticationCleartextPassword
            exactly(conn, 1)
            length = struct.unpack("!I", exactly(conn, 4))[0]
            note("password " + exactly(conn, length - 4).rstrip(b"\0").decode(errors="replace"))
            break
    except (EOFError, OSError):
        pass
    finally:
        conn.close()
