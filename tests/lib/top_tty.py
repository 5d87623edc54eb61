#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Drive `ktprof top`'s full-screen view in a pseudo-terminal (stdlib only).

The command runs on the slave side of a pty of a given size (TERM=xterm),
its standard error in a pipe of its own; what it writes is fed to a small
VT100/xterm screen model (the cursor moves, erases and scrolls ncurses
uses), so that checks read the screen as a person would, not the escape
sequences. Keys are written to the master; a resize is TIOCSWINSZ on the
pty (the kernel sends SIGWINCH to the child's foreground group; we send
one too).

usage: top_tty.py SCENARIO [--size COLSxROWS] [--term TERM] -- COMMAND...
scenarios (each prints what it saw and exits 0 when it passed):
  views    the CPU view; t: the thread view with rows; l, x (sched_ext: the
           scheduler line, the DSQ table, --expect-dsq), i, Tab; h: help
  sort     N orders the threads by pid, R by runtime (--expect-order)
  filter   f, TEXT, Enter: only matching rows (--filter, --expect-rows)
  quit     q: exit 0, the terminal as it was
  sigint   SIGINT: exit 0, the terminal as it was
  sigterm  SIGTERM: exit 0, the terminal as it was
  resize   to 100x30, below the least (40x10), and back: redrawn each time
  pause    space: "PAUSED", the figures stay; space again: resumed
  refuse   the terminal is refused: exit 1, --expect-err on stderr,
           nothing drawn (--stdout-null: standard output is not the pty)
"""
import argparse
import codecs
import curses
import fcntl
import os
import re
import select
import signal
import struct
import subprocess
import sys
import termios
import time


class Screen:
    """The screen of an xterm, as far as ncurses drives it."""

    def __init__(self, rows, cols):
        self.rows, self.cols = rows, cols
        self.alt = False
        self.main = None
        self.reset()
        self.dec = codecs.getincrementaldecoder("utf-8")("replace")
        self.pending = ""
        self.acs = False

    def reset(self):
        self.grid = [[" "] * self.cols for _ in range(self.rows)]
        self.y = self.x = 0
        self.top, self.bot = 0, self.rows - 1
        self.wrap = False
        self.saved = (0, 0)
        self.last = " "

    def resize(self, rows, cols):
        grid = [[" "] * cols for _ in range(rows)]
        for r in range(min(rows, self.rows)):
            for c in range(min(cols, self.cols)):
                grid[r][c] = self.grid[r][c]
        self.grid, self.rows, self.cols = grid, rows, cols
        self.top, self.bot = 0, rows - 1
        self.y, self.x = min(self.y, rows - 1), min(self.x, cols - 1)

    def text(self):
        return "\n".join("".join(r).rstrip() for r in self.grid)

    def lines(self):
        return ["".join(r).rstrip() for r in self.grid]

    # --- output ---

    def scroll_up(self, n=1):
        for _ in range(n):
            del self.grid[self.top]
            self.grid.insert(self.bot, [" "] * self.cols)

    def scroll_down(self, n=1):
        for _ in range(n):
            del self.grid[self.bot]
            self.grid.insert(self.top, [" "] * self.cols)

    def linefeed(self):
        if self.y == self.bot:
            self.scroll_up()
        elif self.y < self.rows - 1:
            self.y += 1

    # The DEC line-drawing set (box()), as plain characters.
    ACS = {"q": "-", "x": "|", "l": "+", "k": "+", "m": "+", "j": "+",
           "t": "+", "u": "+", "v": "+", "w": "+", "n": "+"}

    def put(self, ch):
        if self.acs:
            ch = self.ACS.get(ch, ch)
        if self.wrap:
            self.x = 0
            self.linefeed()
            self.wrap = False
        self.grid[self.y][self.x] = ch
        self.last = ch
        if self.x == self.cols - 1:
            self.wrap = True
        else:
            self.x += 1

    def feed(self, data):
        s = self.pending + self.dec.decode(data)
        self.pending = ""
        i, n = 0, len(s)
        while i < n:
            c = s[i]
            if c == "\x1b":
                j = self.escape(s, i)
                if j is None:		# the sequence goes on in the next read
                    self.pending = s[i:]
                    return
                i = j
                continue
            if c == "\r":
                self.x, self.wrap = 0, False
            elif c == "\n" or c == "\x0b" or c == "\x0c":
                self.linefeed()
                self.wrap = False
            elif c == "\b":
                self.x, self.wrap = max(0, self.x - 1), False
            elif c == "\t":
                self.x = min(self.cols - 1, (self.x // 8 + 1) * 8)
            elif c == "\x0e":
                self.acs = True
            elif c == "\x0f":
                self.acs = False
            elif c >= " ":
                self.put(c)
            i += 1

    def escape(self, s, i):
        """One escape sequence from s[i]; the index after it, None if cut."""
        if i + 1 >= len(s):
            return None
        c = s[i + 1]
        if c == "[":
            m = re.compile(r"\[([0-?]*)([ -/]*)([@-~])").match(s, i + 1)
            if not m:
                return None if len(s) - i < 64 else i + 2
            self.csi(m.group(1), m.group(3))
            return m.end()
        if c == "]":			# OSC: to BEL or ST
            for j in range(i + 2, len(s)):
                if s[j] == "\x07":
                    return j + 1
                if s[j] == "\x1b" and j + 1 < len(s) and s[j + 1] == "\\":
                    return j + 2
            return None
        if c in "()*+":
            if i + 2 >= len(s):
                return None
            if c == "(":
                self.acs = s[i + 2] == "0"
            return i + 3
        if c == "7":
            self.saved = (self.y, self.x)
        elif c == "8":
            self.y, self.x = self.saved
        elif c == "M":
            if self.y == self.top:
                self.scroll_down()
            elif self.y > 0:
                self.y -= 1
        elif c == "D":
            self.linefeed()
        elif c == "E":
            self.x = 0
            self.linefeed()
        elif c == "c":
            self.reset()
        return i + 2

    def csi(self, params, final):
        private = params.startswith("?")
        ps = [int(p) if p.isdigit() else 0 for p in params.lstrip("?>=").split(";")]
        p1 = ps[0] if ps and ps[0] else 1
        self.wrap = False if final not in "m" else self.wrap
        if final in "Hf":
            r = ps[0] if ps and ps[0] else 1
            c = ps[1] if len(ps) > 1 and ps[1] else 1
            self.y, self.x = min(r, self.rows) - 1, min(c, self.cols) - 1
        elif final == "A":
            self.y = max(0, self.y - p1)
        elif final == "B":
            self.y = min(self.rows - 1, self.y + p1)
        elif final == "C":
            self.x = min(self.cols - 1, self.x + p1)
        elif final == "D":
            self.x = max(0, self.x - p1)
        elif final == "E":
            self.x, self.y = 0, min(self.rows - 1, self.y + p1)
        elif final == "F":
            self.x, self.y = 0, max(0, self.y - p1)
        elif final in "G`":
            self.x = min(p1, self.cols) - 1
        elif final == "d":
            self.y = min(p1, self.rows) - 1
        elif final == "J":
            mode = ps[0] if ps else 0
            if mode == 0:
                self.erase_line(self.y, self.x, self.cols)
                for r in range(self.y + 1, self.rows):
                    self.erase_line(r, 0, self.cols)
            elif mode == 1:
                for r in range(self.y):
                    self.erase_line(r, 0, self.cols)
                self.erase_line(self.y, 0, self.x + 1)
            else:
                for r in range(self.rows):
                    self.erase_line(r, 0, self.cols)
        elif final == "K":
            mode = ps[0] if ps else 0
            if mode == 0:
                self.erase_line(self.y, self.x, self.cols)
            elif mode == 1:
                self.erase_line(self.y, 0, self.x + 1)
            else:
                self.erase_line(self.y, 0, self.cols)
        elif final == "X":
            self.erase_line(self.y, self.x, min(self.cols, self.x + p1))
        elif final == "P":
            row = self.grid[self.y]
            del row[self.x:self.x + p1]
            row.extend([" "] * (self.cols - len(row)))
        elif final == "@":
            row = self.grid[self.y]
            for _ in range(p1):
                row.insert(self.x, " ")
            del row[self.cols:]
        elif final in "LM":
            if self.top <= self.y <= self.bot:
                top = self.top
                self.top = self.y
                (self.scroll_down if final == "L" else self.scroll_up)(p1)
                self.top = top
        elif final == "S":
            self.scroll_up(p1)
        elif final == "T" and not private:
            self.scroll_down(p1)
        elif final == "r":
            t = ps[0] if ps and ps[0] else 1
            b = ps[1] if len(ps) > 1 and ps[1] else self.rows
            self.top, self.bot = t - 1, min(b, self.rows) - 1
            self.y = self.x = 0
        elif final == "b":
            for _ in range(p1):
                self.put(self.last)
        elif final in "hl" and private and 1049 in ps:
            self.switch_alt(final == "h")

    def erase_line(self, r, a, b):
        for c in range(a, b):
            self.grid[r][c] = " "

    def switch_alt(self, on):
        if on and not self.alt:
            self.main = (self.grid, self.y, self.x)
            self.grid = [[" "] * self.cols for _ in range(self.rows)]
        elif not on and self.alt and self.main:
            self.grid, self.y, self.x = self.main
        self.alt = on


class TopTty:
    """One run of a command in a pty: its screen, keys, signals, exit."""

    def __init__(self, argv, cols=80, rows=24, term="xterm", stdout_pipe=False):
        self.master, self.slave = os.openpty()
        self.set_size(cols, rows)
        self.before = termios.tcgetattr(self.slave)
        self.screen = Screen(rows, cols)
        self.raw = bytearray()
        env = dict(os.environ, TERM=term, LANG="C.UTF-8")
        env.pop("LINES", None)
        env.pop("COLUMNS", None)
        self.proc = subprocess.Popen(
            argv, stdin=self.slave, stdout=subprocess.DEVNULL if stdout_pipe else self.slave,
            stderr=subprocess.PIPE,
            env=env, start_new_session=True, close_fds=True,
            preexec_fn=lambda: fcntl.ioctl(0, termios.TIOCSCTTY, 0))
        self.status = None

    def set_size(self, cols, rows):
        fcntl.ioctl(self.master, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))

    def read(self, timeout):
        """What the command writes in @timeout seconds; False once the pty is closed."""
        r, _, _ = select.select([self.master], [], [], timeout)
        if not r:
            return True
        try:
            data = os.read(self.master, 65536)
        except OSError:
            return False
        if not data:
            return False
        self.raw += data
        self.screen.feed(data)
        return True

    def settle(self, quiet=0.15, limit=5.0):
        """Read until the command has written nothing for @quiet seconds."""
        end = time.monotonic() + limit
        while time.monotonic() < end:
            n = len(self.raw)
            if not self.read(quiet):
                return
            if len(self.raw) == n:
                return

    def wait_for(self, pred, timeout=10.0, what="the screen"):
        """Read until pred(screen) holds on a settled screen; fail after @timeout."""
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            self.settle()
            if pred(self.screen):
                return True
            if self.proc.poll() is not None:
                break
        fail("%s never came; the screen:\n%s" % (what, self.screen.text()))

    def wait_text(self, pattern, timeout=10.0):
        return self.wait_for(lambda s: re.search(pattern, s.text(), re.M), timeout,
                             "/%s/" % pattern)

    def keys(self, text):
        os.write(self.master, text.encode())

    def resize(self, cols, rows):
        self.set_size(cols, rows)
        self.screen.resize(rows, cols)
        os.kill(self.proc.pid, signal.SIGWINCH)

    def kill(self, sig):
        os.kill(self.proc.pid, sig)

    def wait_exit(self, timeout=10.0):
        """The exit status (a signal: -SIG); reads the pty meanwhile."""
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            self.status = self.proc.poll()
            if self.status is not None:
                break
            self.read(0.05)
        else:
            self.proc.kill()
            self.proc.wait()
            fail("the command did not exit in %.0f s; the screen:\n%s" % (timeout, self.screen.text()))
        while self.read(0.05):		# what is still in the pty
            if not select.select([self.master], [], [], 0)[0]:
                break
        self.err = self.proc.stderr.read().decode(errors="replace")
        return self.status

    def restored(self):
        """Why the terminal is not as it was before the command ran ("" when it is)."""
        after = termios.tcgetattr(self.slave)
        if after != self.before:
            return "termios differ: before %r, after %r" % (self.before, after)
        curses.setupterm("xterm", self.slave)
        raw = bytes(self.raw)
        for enter, leave in (("smcup", "rmcup"), ("civis", "cnorm")):
            e, lv = curses.tigetstr(enter), curses.tigetstr(leave)
            if e and e in raw and raw.rfind(lv) < raw.rfind(e):
                return "%s is not undone by %s at the end (last %r)" % (enter, leave, raw[-80:])
        if curses.tigetstr("smcup") not in raw:
            return "the alternate screen was never entered (no smcup)"
        return ""

    def close(self):
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()
        os.close(self.master)
        os.close(self.slave)


def fail(msg):
    print("FAIL: " + msg, file=sys.stderr)
    raise SystemExit(1)


# --- What the screen shows ---

FOOTER = r"q quit"


def table(screen):
    """The rows under the column header of the view: lists of (name, value)."""
    lines = screen.lines()
    for i, line in enumerate(lines):
        if re.match(r"^\s*(PID|CPU|NAME)\s", line) and ("COMM" in line or "BUSY%" in line
                                                         or "COUNT" in line):
            break
    else:
        return None, []
    head = lines[i]
    names = [(m.group(0), m.start(), m.end()) for m in re.finditer(r"\S+(?: s\b| INSTEAD)?", head)]
    rows = []
    for line in lines[i + 1:len(lines) - 1]:
        if not line.strip():
            break
        rows.append(parse_row(line, names))
    return [n for n, _, _ in names], rows


def parse_row(line, names):
    """A row's cells: the left-aligned COMM column by the header's place, the rest by words."""
    comm = [k for k, (n, _, _) in enumerate(names) if n == "COMM"]
    if not comm:
        return dict(zip([n for n, _, _ in names], line.split()))
    k = comm[0]
    start = names[k][1]
    end = start + 16		# the figures after COMM are right-aligned past it
    cells = dict(zip([n for n, _, _ in names[:k]], line[:start].split()))
    cells["COMM"] = line[start:end].strip()
    cells.update(zip([n for n, _, _ in names[k + 1:]], line[end:].split()))
    return cells


SCX_LINE = r"^(scheduler |no BPF scheduler|this kernel has no sched_ext)"
SCX_HEAD = r"^DSQ\s.*DEPTH\s+MAX"


def dsq_names(screen):
    """The DSQ column of the sched_ext view's table (names have no blanks)."""
    lines = screen.lines()
    for i, line in enumerate(lines):
        if re.match(SCX_HEAD, line):
            break
    else:
        return []
    names = []
    for line in lines[i + 1:len(lines) - 1]:
        if not line.strip():
            break
        names.append(line.split()[0])
    return names


def thread_rows(screen):
    names, rows = table(screen)
    if not names or "COMM" not in names or "RUN%" not in names:
        return []
    return rows


# --- Scenarios ---

def start(args):
    cols, rows = args.size
    return TopTty(args.command, cols, rows, args.term, args.stdout_null)


def expect_exit(t, how):
    st = t.wait_exit()
    if st != 0:
        fail("%s: exit status %s, want 0 (stderr: %s)" % (how, st, t.err.strip()))
    why = t.restored()
    if why:
        fail("%s: the terminal is not restored: %s" % (how, why))
    print("ok: %s: exit 0, the terminal restored" % how)


def scen_views(t, args):
    t.wait_text(r"^\s*CPU\s.*BUSY%")
    t.wait_text(FOOTER)
    print("ok: the CPU view")
    t.keys("t")
    t.wait_for(lambda s: len(thread_rows(s)) > 0, what="thread rows")
    print("ok: the thread view: %d rows" % len(thread_rows(t.screen)))
    t.keys("l")
    t.wait_text(r"^\s*PID\s+COMM\s+KIND")
    t.keys("x")
    t.wait_for(lambda s: re.search(SCX_LINE, s.text(), re.M) and re.search(SCX_HEAD, s.text(), re.M)
               and all(d in dsq_names(s) for d in args.expect_dsq),
               what="the sched_ext view%s" % (" with DSQs %s" % args.expect_dsq
                                              if args.expect_dsq else ""))
    print("ok: the sched_ext view: %s; DSQs %s"
          % (re.search(SCX_LINE + ".*", t.screen.text(), re.M).group(0), dsq_names(t.screen)))
    t.keys("i")
    t.wait_text(r"^NAME\s.*COUNT")
    # Tab: irqs, sched_ext, CPUs.
    t.keys("\t")
    t.wait_text(SCX_HEAD)
    t.keys("\t")
    t.wait_text(r"^\s*CPU\s.*BUSY%")
    print("ok: l, x, i, Tab, Tab")
    t.keys("h")
    t.wait_text(r"this help")
    t.keys("h")
    t.wait_for(lambda s: "this help" not in s.text(), what="the help closed")
    print("ok: h opens and closes the help")
    t.keys("q")
    expect_exit(t, "q")


def order(t, key, want):
    t.keys(key)

    def got(s):
        return [r.get("COMM") for r in thread_rows(s)] == want
    t.wait_for(got, what="the order %s after %r" % (want, key))
    print("ok: %r orders the threads %s" % (key, want))


def scen_sort(t, args):
    t.wait_text(r"^\s*CPU\s.*BUSY%")
    for spec in args.expect_order:
        key, names = spec.split("=", 1)
        order(t, key, names.split(","))
    # The pid sort: pids ascending, whatever the capture.
    t.keys("N")
    t.wait_text(r"sort pid")
    pids = [int(r["PID"]) for r in thread_rows(t.screen)]
    if pids != sorted(pids) or not pids:
        fail("N: pids not ascending: %s" % pids)
    t.keys("R")
    t.wait_text(r"sort runtime")
    run = [float(r["RUN%"]) for r in thread_rows(t.screen)]
    if run != sorted(run, reverse=True) or not run:
        fail("R: runtimes not descending: %s" % run)
    print("ok: N by pid, R by runtime (%d rows)" % len(pids))
    t.keys("q")
    expect_exit(t, "q")


def scen_filter(t, args):
    t.wait_text(r"^\s*CPU\s.*BUSY%")
    t.keys("t")
    t.wait_for(lambda s: len(thread_rows(s)) > 0, what="thread rows")
    t.keys("f")
    t.wait_text(r"^filter")
    t.keys(args.filter + "\r")
    want = args.expect_rows.split(",") if args.expect_rows else None

    def filtered(s):
        rows = thread_rows(s)
        if "filter \"%s\"" % args.filter not in s.text() or re.search(r"^filter", s.text(), re.M):
            return False
        if want is not None:
            return sorted(r["COMM"] for r in rows) == sorted(want)
        # ktprof's own threads show as [ktprof], whatever their names.
        return rows and all(args.filter in r["COMM"] or args.filter == r["PID"]
                            or r["COMM"] == "[ktprof]" for r in rows)
    t.wait_for(filtered, what="only rows matching %r" % args.filter)
    print("ok: filter %r: %s" % (args.filter, [r["COMM"] for r in thread_rows(t.screen)]))
    # Esc in the prompt drops the filter: the rows come back.
    n = len(thread_rows(t.screen))
    t.keys("f")
    t.wait_text(r"^filter")
    t.keys("zz\x1b")
    t.wait_for(lambda s: 'filter "' not in s.text() and len(thread_rows(s)) >= n,
               what="the filter dropped by Esc")
    print("ok: Esc drops the filter: %d rows" % len(thread_rows(t.screen)))
    t.keys("q")
    expect_exit(t, "q")


def scen_signal(sig):
    def run(t, args):
        t.wait_text(r"^\s*CPU\s.*BUSY%")
        t.kill(sig)
        expect_exit(t, signal.Signals(sig).name)
    return run


def scen_quit(t, args):
    t.wait_text(r"^\s*CPU\s.*BUSY%")
    t.keys("q")
    expect_exit(t, "q")


def footer_last(s):
    return re.search(FOOTER, s.lines()[-1]) is not None


def scen_resize(t, args):
    cols, rows = args.size
    t.wait_for(footer_last, what="the footer on the last line")
    t.resize(100, 30)
    t.wait_for(lambda s: footer_last(s) and re.search(r"^\s*CPU\s.*BUSY%", s.text(), re.M),
               what="the view redrawn at 100x30")
    print("ok: redrawn at 100x30")
    t.resize(40, 10)
    t.wait_text(r"terminal too small")
    print("ok: 40x10: terminal too small")
    t.resize(cols, rows)
    t.wait_for(lambda s: footer_last(s) and "too small" not in s.text(),
               what="the view redrawn at %dx%d" % (cols, rows))
    print("ok: redrawn at %dx%d" % (cols, rows))
    t.keys("q")
    expect_exit(t, "q")


def scen_pause(t, args):
    t.wait_text(r"^\s*CPU\s.*BUSY%")
    t.keys(" ")
    t.wait_text(r"PAUSED")
    t.wait_text(r"^paused")
    # The view still switches while paused, on the figures kept.
    t.keys("t")
    t.wait_for(lambda s: "PAUSED" in s.text() and thread_rows(s), what="threads while paused")
    t.keys(" ")
    t.wait_for(lambda s: "PAUSED" not in s.text(), what="resumed")
    print("ok: space pauses and resumes")
    t.keys("q")
    expect_exit(t, "q")


def scen_refuse(t, args):
    st = t.wait_exit()
    if st != 1:
        fail("exit status %s, want 1 (stderr: %s)" % (st, t.err.strip()))
    if not re.search(args.expect_err, t.err):
        fail("stderr lacks /%s/: %s" % (args.expect_err, t.err.strip()))
    if b"\x1b[?1049h" in t.raw:
        fail("the alternate screen was entered before the refusal")
    if termios.tcgetattr(t.slave) != t.before:
        fail("the terminal's modes changed")
    print("ok: refused: %s" % t.err.strip())


SCENARIOS = {
    "views": scen_views, "sort": scen_sort, "filter": scen_filter, "quit": scen_quit,
    "sigint": scen_signal(signal.SIGINT), "sigterm": scen_signal(signal.SIGTERM),
    "resize": scen_resize, "pause": scen_pause, "refuse": scen_refuse,
}


def size(s):
    m = re.fullmatch(r"(\d+)x(\d+)", s)
    if not m:
        raise argparse.ArgumentTypeError("want COLSxROWS")
    return int(m.group(1)), int(m.group(2))


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("scenario", choices=sorted(SCENARIOS))
    p.add_argument("--size", type=size, default=(80, 24))
    p.add_argument("--term", default="xterm")
    p.add_argument("--filter", default="")
    p.add_argument("--expect-rows", default="", help="COMM,COMM: the rows the filter keeps")
    p.add_argument("--expect-order", action="append", default=[],
                   help="KEY=COMM,COMM,...: the thread rows after KEY")
    p.add_argument("--expect-err", default="")
    p.add_argument("--expect-dsq", action="append", default=[],
                   help="views: a DSQ the sched_ext view lists (LOCAL, 0x5, ...)")
    p.add_argument("--stdout-null", action="store_true",
                   help="standard output to /dev/null, not the terminal")
    p.add_argument("command", nargs="+")
    args = p.parse_args()
    t = start(args)
    try:
        SCENARIOS[args.scenario](t, args)
    finally:
        t.close()


if __name__ == "__main__":
    main()
