#!/usr/bin/env python3
"""Latency and memory figures of the Hub front end (not run by CI).

Usage: measure.py ENGINE [N]
Prints: launch->ready, pong latency and stop->done latency during a
2-thread search (median and worst of N), resident memory at the default
tt-size after init and after a 1 s search.
"""
import statistics
import subprocess
import sys
import time


def start(engine):
    return subprocess.Popen([engine, "hub"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, text=True, bufsize=1)


def send(p, line):
    p.stdin.write(line + "\n")
    p.stdin.flush()


def until(p, word):
    while True:
        line = p.stdout.readline()
        if not line:
            raise RuntimeError("engine closed stdout")
        if line.split(" ", 1)[0].strip() == word:
            return line


def rss_kib(p):
    with open(f"/proc/{p.pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return -1


def show(name, xs):
    xs = [x * 1000 for x in xs]
    print(f"{name}: median {statistics.median(xs):.2f} ms, worst {max(xs):.2f} ms (n={len(xs)})")


def main():
    engine = sys.argv[1]
    n = int(sys.argv[2]) if len(sys.argv) > 2 else 100
    ready = []
    for _ in range(n):
        t = time.perf_counter()
        p = start(engine)
        send(p, "hub")
        send(p, "init")
        until(p, "ready")
        ready.append(time.perf_counter() - t)
        send(p, "quit")
        p.wait()
    show("launch -> ready", ready)

    p = start(engine)
    send(p, "set-param name=threads value=2")
    send(p, "init")
    until(p, "ready")
    print(f"resident memory after init: {rss_kib(p) / 1024:.1f} MiB")
    send(p, "pos start")
    send(p, "level infinite")
    send(p, "go analyze")
    time.sleep(1.0)
    print(f"resident memory after 1 s of 2-thread search: {rss_kib(p) / 1024:.1f} MiB")
    pong = []
    for _ in range(n):
        t = time.perf_counter()
        send(p, "ping")
        until(p, "pong")
        pong.append(time.perf_counter() - t)
        time.sleep(0.005)
    show("pong during 2-thread search", pong)
    send(p, "stop")
    until(p, "done")
    stop = []
    for i in range(n):
        send(p, "go analyze")
        time.sleep(0.05 + 0.1 * (i % 3))
        t = time.perf_counter()
        send(p, "stop")
        until(p, "done")
        stop.append(time.perf_counter() - t)
    show("stop -> done during 2-thread search", stop)
    send(p, "quit")
    p.wait()


if __name__ == "__main__":
    main()
