# SPDX-License-Identifier: GPL-2.0
"""tests/prom/check's clients of kprofctl serve and of Prometheus.

  clients.py openmetrics < TEXT        parse OpenMetrics strictly
  clients.py query URL EXPR [TIME]     one PromQL instant value on stdout
                                       (at TIME, Unix seconds: before a
                                       target went away)
  clients.py wait URL EXPR SECONDS [PID]  until EXPR has a value
                                       (Prometheus), or PID has ended
  clients.py near SHOW_JSON PATH P VALUE  is VALUE (s) within one
                                       kprofctl bucket of show's pP at PATH?
  clients.py count SHOW_JSON PATH      show's count at PATH
  clients.py bad PORT PID              bad clients of serve, fds and RSS
  clients.py word PORT WORD SECONDS    connect until the peer sends WORD
                                       (a VM guest through QEMU's port
                                       forwarding, which accepts for it)
"""
import json
import os
import socket
import sys
import threading
import time
import urllib.parse
import urllib.request

REQ = b"GET /metrics HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n"


def query(url, expr, at=None):
    args = {"query": expr}
    if at:
        args["time"] = at
    q = urllib.parse.urlencode(args)
    with urllib.request.urlopen("%s/api/v1/query?%s" % (url, q),
                                timeout=10) as r:
        res = json.load(r)["data"]["result"]
    return [float(x["value"][1]) for x in res]


def alive(pid):
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


def wait(url, expr, seconds, pid=None):
    # Prometheus scrapes on its own clock: poll its answer, bounded
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if pid and not alive(pid):
            print("# process %d ended before %s had a value" % (pid, expr))
            return 1
        try:
            if query(url, expr):
                return 0
        except OSError:
            pass
        time.sleep(0.2)
    print("# no value for %s after %s s" % (expr, seconds))
    return 1


def word(port, want, seconds):
    # QEMU accepts on the guest's behalf and closes when the guest
    # refuses: only the guest's word says it was there
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        got = b""
        try:
            with socket.create_connection(("127.0.0.1", port), 10) as s:
                s.settimeout(10)
                while want.encode() not in got:
                    b = s.recv(256)
                    if not b:
                        break
                    got += b
        except OSError:
            pass
        if want.encode() in got:
            return 0
        time.sleep(0.2)
    print("# no %r on port %d after %s s" % (want, port, seconds))
    return 1


def openmetrics():
    from prometheus_client.openmetrics import parser
    n = sum(len(f.samples) for f in
            parser.text_string_to_metric_families(sys.stdin.read()))
    print(n)
    return 0 if n else 1


def pick(show, path):
    """PATH: probe ID, ID/key=LABEL or ID/function=NAME in show's JSON"""
    probes = json.load(open(show))["probes"]
    pid, _, sel = path.partition("/")
    p = [x for x in probes if str(x["id"]) == pid][0]
    if sel.startswith("key="):
        p = [k for k in p["keys"] if k["key"] == sel[4:]][0]
    elif sel.startswith("function="):
        p = [f for f in p["functions"] if f["name"] == sel[9:]][0]
    return p


def near(show, path, pct_key, value):
    """is value (s) within one kprofctl bucket of show's p<pct_key>?"""
    p = pick(show, path)
    pct = "p%s_ns" % pct_key
    want = p[pct]
    v = float(value) * 1e9
    # the bucket holding show's value (a set's function: show --key's)
    b = [x for x in p["buckets"] if x["lo_ns"] <= want < x["hi_ns"]]
    width = b[0]["hi_ns"] - b[0]["lo_ns"]
    print("# show %s %d ns, PromQL %.1f ns, its bucket %d ns wide" %
          (pct, want, v, width))
    return 0 if abs(v - want) <= width else 1


def get(port, headers=None):
    r = urllib.request.Request("http://127.0.0.1:%d/metrics" % port,
                               headers=headers or {})
    with urllib.request.urlopen(r, timeout=30) as a:
        return a.status, a.read()


def fds(pid):
    return len(os.listdir("/proc/%d/fd" % pid))


def rss_kib(pid):
    for line in open("/proc/%d/status" % pid):
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def concurrent(port, full):
    """100 scrapes at once: all whole?"""
    res = []

    def one():
        try:
            res.append(get(port))
        except OSError as e:
            res.append((0, str(e).encode()))
    ts = [threading.Thread(target=one) for _ in range(100)]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    return len(res) == 100 and all(s == 200 and b == full for s, b in res)


def bad(port, pid):
    fails = 0

    def ok(cond, what):
        nonlocal fails
        print("# %s: %s" % ("ok" if cond else "FAIL", what))
        fails += 0 if cond else 1

    status, full = get(port)
    ok(status == 200 and full.endswith(b"\n"), "a first scrape")
    # warm up: malloc's arenas grow to 100 connections at once, then stay
    concurrent(port, full)
    for _ in range(100):
        get(port)
    fd0, rss0 = fds(pid), rss_kib(pid)

    # disconnects mid-answer, with a reset (SO_LINGER 0)
    for _ in range(50):
        s = socket.create_connection(("127.0.0.1", port))
        s.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER,
                     b"\x01\x00\x00\x00\x00\x00\x00\x00")
        s.sendall(REQ)
        s.recv(64)
        s.close()
    # a slow reader: asks, reads nothing yet; others are answered meanwhile
    slow = socket.create_connection(("127.0.0.1", port))
    slow.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 1024)
    slow.sendall(REQ)
    status, body = get(port)
    ok(status == 200 and body == full, "answered beside a slow reader")
    got = b""
    while True:
        chunk = slow.recv(512)
        if not chunk:
            break
        got += chunk
    slow.close()
    ok(got.endswith(full), "the slow reader got it all")

    ok(concurrent(port, full), "100 concurrent scrapes, all whole")

    # 10 000 in a row
    n = int(os.environ.get("PROM_SCRAPES", "10000"))
    t0 = time.monotonic()
    good = sum(1 for _ in range(n) if get(port)[1] == full)
    ok(good == n, "%d of %d scrapes in a row whole (%.1f s)" %
       (good, n, time.monotonic() - t0))
    # a connection's socket may close just after its client saw the end
    end = time.monotonic() + 2
    while fds(pid) > fd0 and time.monotonic() < end:
        time.sleep(0.05)
    fd1, rss1 = fds(pid), rss_kib(pid)
    ok(fd1 <= fd0, "descriptors %d before, %d after" % (fd0, fd1))
    # malloc may keep a little more; a scrape's buffer (11 KiB) leaked
    # per scrape would be 100 MiB
    ok(rss1 - rss0 < 1024, "RSS %d KiB before, %d KiB after" % (rss0, rss1))
    return 1 if fails else 0


def main():
    cmd = sys.argv[1]
    if cmd == "openmetrics":
        return openmetrics()
    if cmd == "query":
        for v in query(sys.argv[2], sys.argv[3], (sys.argv[4:] or [None])[0]):
            print(repr(v))
        return 0
    if cmd == "wait":
        pid = int(sys.argv[5]) if len(sys.argv) > 5 else None
        return wait(sys.argv[2], sys.argv[3], float(sys.argv[4]), pid)
    if cmd == "near":
        return near(sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5])
    if cmd == "count":
        print(pick(sys.argv[2], sys.argv[3])["count"])
        return 0
    if cmd == "word":
        return word(int(sys.argv[2]), sys.argv[3], float(sys.argv[4]))
    if cmd == "bad":
        return bad(int(sys.argv[2]), int(sys.argv[3]))
    return 2


sys.exit(main())
