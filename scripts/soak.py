#!/usr/bin/env python3
"""Load generator for `chaosclock serve` on loopback (issue 68).

Usage: scripts/soak.py SECONDS OUT_DIR [--bin PATH] [--tables DIR]
                       [--clients 32] [--restart] [--limits]

Starts `serve` (its access log on, to OUT_DIR/server.log), drives it with
CLIENTS keep-alive clients for SECONDS with the mix below, and every 10 s
writes the server's RSS, open file descriptors, and each route's p50/p99
latency and status counts to OUT_DIR/soak.csv; then draws OUT_DIR/soak.svg
and checks, scaled to the duration (the hour's figures in brackets):
  - RSS after the first 1/12 (5 min) grows by at most 10%;
  - file descriptors stay flat (within 8 of the first sample after warm-up,
    the clients' own 32 connections aside);
  - each route's p99 in the last 1/6 (10 min) is within 2x of its p99 in
    1/12..1/4 (minutes 5 to 15), or under 20 ms (each window's p99: the
    median of its 10-second p99s);
  - no 5xx but 503 from the solve queue; no connection reset, and no
    request closed without an answer;
  - every 200 has a complete (Content-Length), parseable JSON body.
--restart: then SIGTERM in the middle of a 20 s load and a restart: every
  request in flight completes or is refused cleanly (a refused connect or a
  503 saying the server stops); none is reset or closed without an answer
  after it was sent, no body is truncated, and the restarted server
  answers a fixed list of requests byte for byte as before.
--limits: then the operator's limits: with --max-connections 64, 300 idle
  connections: the server's sockets never pass 64 (sampled every few ms)
  and a new request is answered within 0.5 s while they are held (the
  idlest make room); a client that sends one byte a second is dropped at
  the header timeout (--header-timeout 2).
The mix: table answers (10 slots when DIR holds n10-always, else 6),
12-slot book answers (/api/fair-start), 8-slot solves in memory, puzzles,
engine moves, bad requests. Exit code 0 when every check holds.
"""

import argparse
import http.client
import json
import os
import random
import signal
import socket
import subprocess
import sys
import threading
import time

SAMPLE_EVERY = 10.0


def start_server(binary, tables, log, extra=()):
    args = [binary, "serve", "--bind", "127.0.0.1:0", "--tables", tables, *extra]
    proc = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=log, stdin=subprocess.DEVNULL)
    line = proc.stdout.readline().decode()
    if not line.startswith("listening on http://"):
        raise SystemExit(f"soak: the server did not start: {line!r}")
    host, port = line.strip()[len("listening on http://"):-1].rsplit(":", 1)
    return proc, host, int(port)


def get_once(host, port, path, timeout=300):
    conn = http.client.HTTPConnection(host, port, timeout=timeout)
    conn.request("GET", path)
    r = conn.getresponse()
    body = r.read()
    conn.close()
    return r.status, body


def proc_sample(pid):
    rss = 0
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                rss = int(line.split()[1])
    fds = len(os.listdir(f"/proc/{pid}/fd"))
    return rss, fds


def socket_count(pid):
    n = 0
    for fd in os.listdir(f"/proc/{pid}/fd"):
        try:
            if os.readlink(f"/proc/{pid}/fd/{fd}").startswith("socket:"):
                n += 1
        except OSError:
            pass
    return n


class Mix:
    """The requests, by route, drawn at random."""

    def __init__(self, host, port, tables):
        n10 = os.path.isdir(os.path.join(tables, "n10-always"))
        self.table_slots = 10 if n10 else 6
        # Positions covered by the tables, from seeded fair starts and
        # the moves after them; 8-slot ones for the solves in memory.
        self.table_pos = self.positions(host, port, self.table_slots)
        self.solve_pos = self.positions(host, port, 8)

    @staticmethod
    def positions(host, port, slots):
        out = []
        for seed in range(1, 13):
            status, body = get_once(host, port, f"/api/fair-start?slots={slots}&seed={seed}")
            if status == 200:
                out.append(json.loads(body)["position"])
        return out or ["2,1,4,3,6,5"]

    def draw(self, rng):
        k = rng.random()
        esc = lambda p: p.replace(";", "%3B")
        if k < 0.35:
            return "table", f"/api/position?pos={esc(rng.choice(self.table_pos))}"
        if k < 0.55:
            return "book", f"/api/fair-start?slots=12&seed={rng.randrange(1, 1000)}"
        if k < 0.65:
            return "solve", f"/api/position?pos={esc(rng.choice(self.solve_pos))}"
        if k < 0.75:
            return "puzzle", f"/api/puzzle?slots=8&seed={rng.randrange(1, 1000)}"
        if k < 0.90:
            pos = esc(rng.choice(self.solve_pos))
            level = rng.randrange(1, 9)
            return "engine", f"/api/engine-move?pos={pos}&level={level}&seed={rng.randrange(1000)}"
        bad = rng.choice(["/api/position?pos=1,1", "/nope", "/api/position?pos=x&pos=y"])
        return "bad", bad


class Stats:
    def __init__(self):
        self.lock = threading.Lock()
        self.window = {}  # route -> list of (latency, status)
        self.resets = 0
        self.bad_bodies = 0
        self.refused = 0  # connects refused
        self.closed = 0  # requests sent, the connection closed without an answer
        self.errors = []

    def add(self, route, latency, status):
        with self.lock:
            self.window.setdefault(route, []).append((latency, status))

    def take(self):
        with self.lock:
            w, self.window = self.window, {}
        return w


def client(host, port, mix, stats, stop, seed, counting=True):
    rng = random.Random(seed)
    conn = None
    while not stop.is_set():
        route, path = mix.draw(rng)
        t = time.monotonic()
        try:
            if conn is None:
                conn = http.client.HTTPConnection(host, port, timeout=600)
            conn.request("GET", path)
            r = conn.getresponse()
            body = r.read()
            length = r.getheader("content-length")
            if length is not None and int(length) != len(body):
                stats.bad_bodies += 1
                stats.errors.append(f"truncated body on {path}")
            elif r.status == 200:
                try:
                    json.loads(body)
                except ValueError:
                    stats.bad_bodies += 1
                    stats.errors.append(f"unparseable 200 body on {path}")
            stats.add(route, time.monotonic() - t, r.status)
            if r.getheader("connection", "").lower() == "close":
                conn.close()
                conn = None
        except ConnectionRefusedError:
            # A connect refused (the listener closed): clean.
            stats.refused += 1
            conn = None
            time.sleep(0.05)
        except http.client.IncompleteRead as e:
            stats.bad_bodies += 1
            stats.errors.append(f"incomplete body on {path}: {e!r}")
            conn = None
        except http.client.RemoteDisconnected:
            # (Before ConnectionResetError, of which it is a subclass.) The
            # request was sent and the server closed the connection without
            # an answer: a keep-alive connection closed as the request went
            # out. The client cannot tell whether it was done.
            stats.closed += 1
            stats.errors.append(f"closed without an answer on {path}")
            conn = None
        except (ConnectionResetError, BrokenPipeError) as e:
            stats.resets += 1
            stats.errors.append(f"{type(e).__name__} on {path}")
            conn = None
        except OSError as e:
            stats.errors.append(f"{type(e).__name__}: {e} on {path}")
            conn = None
            time.sleep(0.05)


def pct(values, q):
    if not values:
        return 0.0
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))]


def soak(args, binary):
    os.makedirs(args.out, exist_ok=True)
    log = open(os.path.join(args.out, "server.log"), "wb")
    proc, host, port = start_server(binary, args.tables, log)
    mix = Mix(host, port, args.tables)
    stats = Stats()
    stop = threading.Event()
    threads = [
        threading.Thread(target=client, args=(host, port, mix, stats, stop, i), daemon=True)
        for i in range(args.clients)
    ]
    for t in threads:
        t.start()
    rows = []
    start = time.monotonic()
    csv = open(os.path.join(args.out, "soak.csv"), "w")
    csv.write("seconds,rss_kib,fds,route,count,p50_ms,p99_ms,statuses\n")
    while time.monotonic() - start < args.seconds:
        time.sleep(SAMPLE_EVERY - (time.monotonic() - start) % SAMPLE_EVERY)
        secs = round(time.monotonic() - start)
        rss, fds = proc_sample(proc.pid)
        for route, got in sorted(stats.take().items()):
            lat = [l for l, _ in got]
            codes = {}
            for _, s in got:
                codes[s] = codes.get(s, 0) + 1
            row = (secs, rss, fds, route, len(got), 1000 * pct(lat, 0.5), 1000 * pct(lat, 0.99), codes)
            rows.append(row)
            text = " ".join(f"{k}:{v}" for k, v in sorted(codes.items()))
            csv.write(f"{secs},{rss},{fds},{route},{len(got)},{row[5]:.2f},{row[6]:.2f},{text}\n")
        csv.flush()
        print(f"[{secs:5d} s] rss {rss / 1024:.0f} MiB, fds {fds}, "
              f"{sum(r[4] for r in rows if r[0] == secs)} requests", flush=True)
    stop.set()
    for t in threads:
        t.join(timeout=30)
    proc.send_signal(signal.SIGTERM)
    code = proc.wait(timeout=60)
    return rows, stats, code


def check(rows, stats, seconds, code):
    fails = []
    samples = sorted({r[0] for r in rows})
    warm = seconds / 12
    after = [r for r in rows if r[0] > warm]
    by_t = {r[0]: (r[1], r[2]) for r in rows}
    later = [t for t in samples if t > warm]
    if later:
        rss0 = by_t[later[0]][0]
        rss_max = max(by_t[t][0] for t in later)
        growth = (rss_max - rss0) / rss0
        print(f"RSS after warm-up: {rss0 / 1024:.0f} -> max {rss_max / 1024:.0f} MiB "
              f"({100 * growth:+.1f}%)")
        if growth > 0.10:
            fails.append(f"RSS grew {100 * growth:.1f}% after warm-up")
        fds = [by_t[t][1] for t in later]
        print(f"fds after warm-up: {min(fds)} to {max(fds)}")
        if max(fds) - fds[0] > 8:
            fails.append(f"fds grew from {fds[0]} to {max(fds)}")
    routes = sorted({r[3] for r in rows})
    for route in routes:
        early = [r[6] for r in after if r[3] == route and warm < r[0] <= seconds / 4]
        late = [r[6] for r in after if r[3] == route and r[0] > seconds * 5 / 6]
        codes = {}
        for r in rows:
            if r[3] == route:
                for k, v in r[7].items():
                    codes[k] = codes.get(k, 0) + v
        # The median of the 10-second p99s of each window: one slow
        # sample (a build next door) does not decide.
        e, l = pct(early, 0.5), pct(late, 0.5)
        print(f"{route:7s} p99 early {e:8.1f} ms, late {l:8.1f} ms; statuses {codes}")
        if e and l and l > 2 * e and l > 20:
            fails.append(f"{route}: p99 {l:.1f} ms late against {e:.1f} ms early")
        for k in codes:
            if k >= 500 and k != 503:
                fails.append(f"{route}: {codes[k]} answers {k}")
    if stats.resets or stats.closed:
        fails.append(f"{stats.resets} connection resets, {stats.closed} requests closed "
                     f"without an answer: {stats.errors[:3]}")
    if stats.bad_bodies:
        fails.append(f"{stats.bad_bodies} bad bodies: {stats.errors[:3]}")
    if code != 0:
        fails.append(f"the server exited {code} after SIGTERM")
    return fails


def svg(rows, path):
    """RSS (MiB) and each route's p99 (ms, log scale) against time."""
    if not rows:
        return
    w, h, pad = 900, 520, 60
    t_max = max(r[0] for r in rows) or 1
    colours = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b"]
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" '
           f'font-family="sans-serif" font-size="12">',
           f'<rect width="{w}" height="{h}" fill="white"/>']
    import math
    half = (h - 3 * pad) / 2

    def x(t):
        return pad + (w - 2 * pad) * t / t_max

    # RSS, top half.
    by_t = sorted({(r[0], r[1]) for r in rows})
    rss_max = max(v for _, v in by_t) / 1024 * 1.1
    pts = " ".join(f"{x(t):.1f},{pad + half - half * v / 1024 / rss_max:.1f}" for t, v in by_t)
    out.append(f'<text x="{pad}" y="{pad - 10}">server RSS (MiB), 0 to {rss_max:.0f}</text>')
    out.append(f'<rect x="{pad}" y="{pad}" width="{w - 2 * pad}" height="{half}" fill="none" stroke="#999"/>')
    out.append(f'<polyline fill="none" stroke="#000" stroke-width="2" points="{pts}"/>')
    # p99 per route, bottom half, log scale 0.1 ms .. 100 s.
    top = 2 * pad + half
    lo, hi = math.log10(0.1), math.log10(100000)

    def y(ms):
        v = (math.log10(max(ms, 0.1)) - lo) / (hi - lo)
        return top + half - half * v

    out.append(f'<text x="{pad}" y="{top - 10}">p99 latency per route (ms, log scale 0.1 to 100,000)</text>')
    out.append(f'<rect x="{pad}" y="{top}" width="{w - 2 * pad}" height="{half}" fill="none" stroke="#999"/>')
    for ms in [1, 10, 100, 1000, 10000]:
        out.append(f'<text x="{pad - 50}" y="{y(ms) + 4:.1f}">{ms}</text>')
    for i, route in enumerate(sorted({r[3] for r in rows})):
        c = colours[i % len(colours)]
        pts = " ".join(f"{x(r[0]):.1f},{y(r[6]):.1f}" for r in rows if r[3] == route)
        out.append(f'<polyline fill="none" stroke="{c}" stroke-width="1.5" points="{pts}"/>')
        out.append(f'<text x="{w - pad + 5}" y="{top + 15 * (i + 1)}" fill="{c}">{route}</text>')
    out.append(f'<text x="{w / 2 - 30}" y="{h - 15}">seconds, 0 to {t_max}</text>')
    out.append("</svg>")
    with open(path, "w") as f:
        f.write("\n".join(out) + "\n")


def restart_check(args, binary):
    """SIGTERM in the middle of a load, then a restart: byte-identical."""
    fails = []
    log = open(os.path.join(args.out, "server-restart.log"), "wb")
    proc, host, port = start_server(binary, args.tables, log, ["--grace", "30"])
    mix = Mix(host, port, args.tables)
    rng = random.Random(68)
    fixed = [mix.draw(rng)[1] for _ in range(60)]
    fixed = [p for p in fixed if "engine-move" not in p or "seed=" in p]
    before = [get_once(host, port, p) for p in fixed]
    stats, stop = Stats(), threading.Event()
    threads = [threading.Thread(target=client, args=(host, port, mix, stats, stop, 100 + i),
                                daemon=True) for i in range(args.clients)]
    for t in threads:
        t.start()
    time.sleep(10)
    t0 = time.monotonic()
    proc.send_signal(signal.SIGTERM)
    code = proc.wait(timeout=60)
    print(f"restart: SIGTERM under load: exit {code} after {time.monotonic() - t0:.2f} s")
    stop.set()
    for t in threads:
        t.join(timeout=30)
    window = stats.take()
    answered = sum(len(v) for v in window.values())
    stopping = sum(1 for v in window.values() for _, status in v if status == 503)
    print(f"restart: {answered} answered ({stopping} of them 503, the server stopping), "
          f"{stats.refused} connects refused, {stats.closed} requests closed without an "
          f"answer, {stats.resets} resets, {stats.bad_bodies} truncated or bad bodies")
    if stats.resets or stats.closed:
        fails.append(f"restart: {stats.resets} resets, {stats.closed} closed without an answer: "
                     f"{stats.errors[:3]}")
    if stats.bad_bodies:
        fails.append(f"restart: {stats.bad_bodies} bad bodies: {stats.errors[:3]}")
    if code != 0:
        fails.append(f"restart: exit {code}")
    proc2, host, port = start_server(binary, args.tables, log)
    after = [get_once(host, port, p) for p in fixed]
    same = sum(1 for a, b in zip(before, after) if a == b)
    print(f"restart: {same} of {len(fixed)} fixed requests byte-identical after the restart")
    if same != len(fixed):
        diff = [p for p, a, b in zip(fixed, before, after) if a != b][:3]
        fails.append(f"restart: answers differ: {diff}")
    proc2.send_signal(signal.SIGTERM)
    proc2.wait(timeout=60)
    return fails


def limits_check(args, binary):
    """--max-connections under 300 idle connections; a slow client."""
    fails = []
    log = open(os.path.join(args.out, "server-limits.log"), "wb")
    extra = ["--max-connections", "64", "--header-timeout", "2"]
    proc, host, port = start_server(binary, args.tables, log, extra)
    # The listener and the runtime's own (its signal pipe).
    base = socket_count(proc.pid)
    most = [base]
    sampling = threading.Event()

    def sample():
        while not sampling.is_set():
            most[0] = max(most[0], socket_count(proc.pid))
            time.sleep(0.002)

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    idle = []
    for _ in range(300):
        s = socket.create_connection((host, port))
        idle.append(s)
    time.sleep(0.5)
    waits = []
    for _ in range(3):
        t = time.monotonic()
        status, _ = get_once(host, port, "/healthz", timeout=30)
        waits.append((status, time.monotonic() - t))
    sampling.set()
    sampler.join()
    closed = 0
    for s in idle:
        s.setblocking(False)
        try:
            closed += s.recv(1) == b""
        except BlockingIOError:
            pass
        except OSError:
            closed += 1
    slowest = max(w for _, w in waits)
    print(f"limits: 300 idle connections: the server held at most {most[0] - base} connections "
          f"(--max-connections 64); /healthz answered {[st for st, _ in waits]}, the slowest "
          f"after {slowest:.3f} s; {closed} of the idle connections closed to make room")
    if most[0] - base > 64:
        fails.append(f"limits: {most[0] - base} connections over --max-connections 64")
    if any(st != 200 for st, _ in waits) or slowest > 0.5:
        fails.append(f"limits: /healthz {waits} while 300 idle connections were held")
    for s in idle:
        s.close()
    # One byte a second.
    s = socket.create_connection((host, port))
    req = f"GET /healthz HTTP/1.1\r\nHost: {host}:{port}\r\n\r\n".encode()
    t = time.monotonic()
    dropped = None
    for b in req:
        try:
            s.send(bytes([b]))
        except OSError:
            dropped = time.monotonic() - t
            break
        s.settimeout(1.0)
        try:
            if s.recv(1) == b"":
                dropped = time.monotonic() - t
                break
        except socket.timeout:
            pass
    print(f"limits: a one-byte-a-second client was dropped after {dropped} s "
          f"(--header-timeout 2)")
    if dropped is None or dropped > 2 + 2:
        fails.append(f"limits: the slow client was not dropped at the header timeout ({dropped})")
    proc.send_signal(signal.SIGTERM)
    proc.wait(timeout=60)
    return fails


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("seconds", type=float)
    p.add_argument("out")
    p.add_argument("--bin", default=None)
    p.add_argument("--tables", default=None)
    p.add_argument("--clients", type=int, default=32)
    p.add_argument("--restart", action="store_true")
    p.add_argument("--limits", action="store_true")
    args = p.parse_args()
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    binary = args.bin or os.path.join(root, "target", "release", "chaosclock")
    os.makedirs(args.out, exist_ok=True)
    if args.tables is None:
        args.tables = os.path.join(args.out, "tables")
        if not os.path.isdir(os.path.join(args.tables, "n6-always")):
            subprocess.run([binary, "generate", "--slots", "6", "--tables", args.tables],
                           check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    rows, stats, code = soak(args, binary)
    svg(rows, os.path.join(args.out, "soak.svg"))
    fails = check(rows, stats, args.seconds, code)
    print(f"connects refused: {stats.refused}; requests closed without an answer: "
          f"{stats.closed}; resets: {stats.resets}")
    if args.restart:
        fails += restart_check(args, binary)
    if args.limits:
        fails += limits_check(args, binary)
    for f in fails:
        print(f"FAIL: {f}")
    print("soak: all checks hold" if not fails else f"soak: {len(fails)} checks failed")
    sys.exit(1 if fails else 0)


if __name__ == "__main__":
    main()
