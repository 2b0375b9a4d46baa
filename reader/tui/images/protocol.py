"""How this terminal draws pictures, decided once at start-up: Kitty graphics, Sixel, half-block cells,
or none (the alt text in a frame). `[ui] images` in the config overrides the terminal's answers."""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Mapping

KITTY, SIXEL, CELLS, OFF = "kitty", "sixel", "cells", "off"
PROTOCOLS = (KITTY, SIXEL, CELLS, OFF)

KITTY_QUERY = "\x1b_Gi=31,s=1,v=1,a=q,t=d,f=24;AAAA\x1b\\"
"""Kitty's graphics query: a terminal that speaks the protocol answers `ESC _Gi=31;OK ESC \\`."""
DEVICE_ATTRIBUTES = "\x1b[c"
"""DA1: every terminal answers `ESC [?...c`; attribute 4 means Sixel graphics. Sent last, so its answer
also tells that the terminal has answered (or ignored) the Kitty query."""
_KITTY_OK = re.compile(r"\x1b_Gi=31;OK\x1b\\")
_DA1 = re.compile(r"\x1b\[\?([0-9;]*)c")


def choose_protocol(setting: str, answer: str, env: Mapping[str, str]) -> str:
    """The protocol to draw with: `setting` unless "auto", else what the terminal's `answer` to
    KITTY_QUERY + DEVICE_ATTRIBUTES says it supports. Inside tmux or screen, Kitty's protocol does not
    reach the terminal, so it is not chosen there."""
    if setting in PROTOCOLS:
        return setting
    if env.get("TERM", "") == "dumb":
        return OFF
    multiplexed = bool(env.get("TMUX")) or env.get("TERM", "").startswith("screen")
    if _KITTY_OK.search(answer) and not multiplexed:
        return KITTY
    match = _DA1.search(answer)
    if match and "4" in match.group(1).split(";"):
        return SIXEL
    return CELLS


def query_terminal(timeout: float = 0.2) -> str:
    """Ask the terminal (before the app takes over its input) and return its raw answer ("" when not a
    terminal, on Windows, or when it does not answer within `timeout` seconds)."""
    if os.name != "posix" or not (sys.stdin.isatty() and sys.stdout.isatty()):
        return ""
    import select
    import termios
    import time
    import tty

    fd = sys.stdin.fileno()
    saved = termios.tcgetattr(fd)
    answer = b""
    try:
        tty.setcbreak(fd, termios.TCSANOW)
        os.write(sys.stdout.fileno(), (KITTY_QUERY + DEVICE_ATTRIBUTES).encode())
        deadline = time.monotonic() + timeout
        while not _DA1.search(answer.decode("latin-1")):
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([fd], [], [], left)[0]:
                break
            answer += os.read(fd, 1024)
    except OSError:
        pass
    finally:
        termios.tcsetattr(fd, termios.TCSADRAIN, saved)
    return answer.decode("latin-1")


def detect_protocol(setting: str) -> str:
    """The protocol for this run: the setting, or for "auto" the terminal's answer (asked once)."""
    answer = query_terminal() if setting not in PROTOCOLS else ""
    return choose_protocol(setting, answer, os.environ)


DEFAULT_CELL_PIXELS = (10, 20)


def cell_pixels() -> tuple[int, int]:
    """A terminal cell's size in pixels, from the window size the terminal reports (10 x 20 if unknown)."""
    if os.name != "posix" or not sys.stdout.isatty():
        return DEFAULT_CELL_PIXELS
    import fcntl
    import struct
    import termios

    try:
        packed = fcntl.ioctl(sys.stdout.fileno(), termios.TIOCGWINSZ, b"\0" * 8)
        rows, columns, width, height = struct.unpack("HHHH", packed)
    except OSError:
        return DEFAULT_CELL_PIXELS
    if not (rows and columns and width and height):
        return DEFAULT_CELL_PIXELS
    return max(1, width // columns), max(1, height // rows)
