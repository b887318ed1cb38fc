"""tests/pyserve.py DIR - one python3 for all of a test script's python.

tests/lib.sh starts this beside each script, and its py function sends it
the programs the script would have given `python3 -c` or `python3 -`: a
python3 takes 50-100 ms of CPU to start on the CI machine, and the
scripts started thousands of them to read their JSON reports.

The protocol, in DIR.  A client (py, in tests/lib.sh) is a process of
the script, of number PID and start time START (field 22 of its stat:
the pair is no other process's).  It makes the FIFO DIR/PID.START (once:
it stays for the process's next request), writes DIR/PID.START.argv
(sys.argv, each word ended by a NUL; "-c", "-" or the program's file
first), .code (for -c) and .cwd, holds its standard input, output and
error as 5, 6 and 7, writes "PID START\\n" to DIR/req and reads its FIFO
to its end.  A child of this server checks that PID is still that
process, runs the program as python3 would in its place, writes
"STATUS OUT ERR\\n" into the FIFO and ends (so the FIFO's end is the
child's: the next request cannot meet it).  The program's standard input
is the client's, opened again through /proc/PID/fd/5 (for -, the
program is read from it).  Its standard output and error are the
client's too when they are pipes or devices; when they are files, whose
offset a second opening would not share, they are .out and .err beside
the FIFO, and OUT and ERR are 1: the client copies them.  The server ends
with its parent, the script (looked at every second), or when finish
kills it.
"""

import errno
import gc
import io
import json  # noqa: F401  (imported once, for the children)
import os
import runpy
import select
import signal
import stat
import sys
import time
import traceback


def read(path):
    with open(path, "rb") as f:
        return f.read()


def stream_in(pid):
    """The client's standard input (its 5), opened again."""
    try:
        return open("/proc/%d/fd/5" % pid, "rb")
    except OSError:
        return io.BytesIO(b"")


def stream_out(pid, fd, path):
    """The client's output fd (held as fd + 5) opened again, unless it is
    a file (then path, which the client copies).  Returns (file, copied)."""
    proc = "/proc/%d/fd/%d" % (pid, fd + 5)
    try:
        if not stat.S_ISREG(os.stat(proc).st_mode):
            return open(proc, "wb"), False
    except OSError:
        pass
    return open(path, "wb"), True


def client_start(pid):
    """The start time of process pid (field 22 of its stat), as bytes: a
    client is the process of that pid and start, none other."""
    try:
        with open("/proc/%d/stat" % pid, "rb") as f:
            return f.read().rsplit(b")", 1)[1].split()[19]
    except (OSError, IndexError):
        return None


def open_fifo(base, pid, start):
    """The client's FIFO, opened to write once the client opens it to read
    (it does once its request is sent); given up when the client is gone,
    rather than waiting for ever."""
    while True:
        try:
            fd = os.open(base, os.O_WRONLY | os.O_NONBLOCK)
            os.set_blocking(fd, True)
            return fd
        except OSError as e:
            if e.errno != errno.ENXIO:
                raise
        if client_start(pid) != start:
            os._exit(0)
        time.sleep(0.001)


def run(base, pid, start):
    # the client's descriptors first: the client waits in the open of its
    # FIFO, and reads it through its standard input once that is open
    argv = [os.fsdecode(a) for a in read(base + ".argv").split(b"\0")[:-1]]
    inp = stream_in(pid)
    out, out_copied = stream_out(pid, 1, base + ".out")
    err, err_copied = stream_out(pid, 2, base + ".err")
    # then the FIFO, before the program runs: one that ends its process
    # (os._exit) leaves the client reading the FIFO's end, not waiting
    fifo = open_fifo(base, pid, start)
    if argv[0] == "-":
        # python3 -: the program is the standard input, read to its end
        code, inp = inp.read(), io.BytesIO(b"")
    elif argv[0] == "-c":
        code = read(base + ".code")
    else:
        code = None     # python3 FILE
    enc = sys.__stdout__.encoding
    sys.argv = argv
    sys.stdin = io.TextIOWrapper(inp, enc, "surrogateescape")
    sys.stdout = io.TextIOWrapper(out, enc, "surrogateescape")
    sys.stderr = io.TextIOWrapper(err, enc, "backslashreplace", line_buffering=True)
    status = 0
    try:
        os.chdir(read(base + ".cwd").decode("utf-8", "surrogateescape") or "/")
        if code is None:
            # as python3 FILE: the file's folder first on sys.path
            sys.path[0] = os.path.dirname(os.path.abspath(argv[0]))
            runpy.run_path(argv[0], run_name="__main__")
        else:
            exec(compile(code, "<stdin>" if argv[0] == "-" else "<string>", "exec"),
                 {"__name__": "__main__"})
    except SystemExit as e:
        if e.code is None:
            status = 0
        elif isinstance(e.code, int):
            status = e.code & 0xFF
        else:
            print(e.code, file=sys.stderr)
            status = 1
    except BaseException as e:  # pylint: disable=broad-except
        # as python3 prints it: without this file's frame
        traceback.print_exception(type(e), e, e.__traceback__.tb_next)
        status = 1
    finally:
        for f in (sys.stdout, sys.stderr):
            try:
                f.flush()
            except BaseException:  # pylint: disable=broad-except
                pass
    os.write(fifo, b"%d %d %d\n" % (status, out_copied, err_copied))
    os.close(fifo)


def main():
    top = sys.argv[1]
    sys.path[0] = ""    # as for python3 -c: the directory it runs in
    signal.signal(signal.SIGCHLD, signal.SIG_IGN)   # the children reaped
    # what is here now is never collected: a child's collector leaves the
    # pages it shares with this process unwritten (fewer copies on write)
    gc.freeze()
    parent = os.getppid()
    os.chdir("/")
    # read and written: the FIFO is never at its end between clients
    req = os.open(os.path.join(top, "req"), os.O_RDWR)
    buf = b""
    while True:
        ready, _, _ = select.select([req], [], [], 1.0)
        if not ready:
            if os.getppid() != parent:
                return
            continue
        buf += os.read(req, 4096)
        while b"\n" in buf:
            line, buf = buf.split(b"\n", 1)
            # a child a request: requests wait on each other (py A | py
            # B: B reads what A prints), and a program may change what it
            # likes of its process, or end it
            if os.fork() == 0:
                os.close(req)
                signal.signal(signal.SIGCHLD, signal.SIG_DFL)
                try:
                    pid, start = line.split()
                    pid = int(pid)
                    if client_start(pid) == start:
                        run(os.path.join(top, "%d.%s" % (pid, start.decode())), pid, start)
                finally:
                    os._exit(0)


if __name__ == "__main__":
    main()
