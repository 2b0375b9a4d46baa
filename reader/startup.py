"""Process-wide settings: every knob reader turns on Python, Textual or litellm, and why.

Each is applied at the start-up of what it concerns, by the caller named below, and each was
measured before it was added. Nothing else in reader changes process-wide state, with one
exception kept where it belongs:

- `reader.app.knowledge.concept_map._collector_paused` turns the cyclic collector off while a
  concept map is built (at import, in a worker thread). It stays there because it must bracket
  exactly that build: the build makes millions of short-lived objects without cycles, and each
  collection they trigger walks the whole heap, which in the app is large (measured: 15% of the
  build in a bare process, more in the app). It turns the collector back on when done, and does
  nothing when the collector is already off. The app layer may not import this module (it also
  touches Textual), hence the pointer instead of a function here.

This module imports neither Textual nor litellm at the top: the first two settings must be in
place before those are imported.
"""

from __future__ import annotations

import gc
import os
from typing import Any

TEXTUAL_FPS = "240"
"""Textual repaints at most TEXTUAL_FPS times a second and waits for the next frame slot after a key
press; at its default of 60 that wait alone is up to 17 ms of every page turn. At 240 a page turn
repaints at once (animations still run at 60)."""


def before_textual() -> None:
    """Set TEXTUAL_FPS (unless the user did), before Textual is imported: it reads the variable once.

    Called by `reader.tui` on package import, which precedes every Textual import in reader.
    """
    os.environ.setdefault("TEXTUAL_FPS", TEXTUAL_FPS)


def before_litellm() -> None:
    """LITELLM_LOCAL_MODEL_COST_MAP: litellm otherwise fetches its model price map from GitHub on
    import. Measured offline (no DNS): the import took 5.6 s instead of 5.0 s, retrying the fetch
    and printing three warnings over the terminal; a slow network waits longer. The copy bundled
    with litellm is enough for capabilities and context windows. Called right before litellm's one
    (lazy) import."""
    os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")


def configure_litellm(litellm: Any) -> None:
    """Quiet, no telemetry, and no retries behind our back, right after litellm's import.

    litellm's OpenAI embedding path reads `max_retries or DEFAULT_MAX_RETRIES`, so max_retries=0
    still let the OpenAI client retry twice (a rate-limited batch took three requests per attempt,
    tests/test_scripted_server.py); reader retries and reports itself. The constant is declared
    Final but read at call time, so setting it works.
    """
    litellm.suppress_debug_info = True
    litellm.set_verbose = False
    litellm.telemetry = False
    setattr(litellm, "DEFAULT_MAX_RETRIES", 0)  # noqa: B010 - declared Final, but read at call time


def pause_collector() -> None:
    """gc.disable() for the start-up of a command or of the app, until `freeze_startup_heap`.

    Start-up allocates some 60,000 objects that live as long as the process (modules, classes,
    compiled CSS, the first screen's widgets), and every young-generation collection on the way
    walks them again. Measured on this machine (min of 8 fresh processes): importing Textual and
    reader's start-up modules took 358 ms with the collector on, 297 ms with it off. Called by the
    `reader` program's entry point (`reader.cli.main.run`, before the command's modules are imported;
    reader used as a library in Python, tests included, is left alone) and again by
    `reader.cli.app_commands.run_app` before the app's modules; `main` turns it back on before a
    command runs, the app once its first screen is up.
    """
    gc.disable()


def resume_collector() -> None:
    """The collector back on, after gc.freeze(): what start-up made lives as long as the process, and the
    first collection would otherwise walk all of it (measured: 13 ms, right before a command runs)."""
    gc.freeze()
    gc.enable()


def freeze_startup_heap() -> None:
    """gc.freeze() and the collector back on once the app's first screen is up: the page, and the
    library and the chat filled and laid out (ReaderApp._resume_collector); see `pause_collector`.

    What start-up made (modules, the chat stack, the library, the first page) lives as long as the
    app; a full collection walks every tracked object, and on this heap one took 60-120 ms, often in
    the middle of opening a dialog. Frozen objects are skipped; objects made later are collected as
    usual. Undone by `thaw_heap` when the app unmounts.
    """
    resume_collector()


def thaw_heap() -> None:
    gc.unfreeze()


def release_closed_screens() -> None:
    """Clear Textual's class-wide `StylesCache.get_inner_outer` memo after a screen is popped.

    Textual 8 memoises it per widget with an `lru_cache` (Textualize/textual#6665), which keeps the
    style cache of every widget ever shown alive, with its rendered lines: about 1,000 strips more
    after each X-Ray opened and closed, which every full garbage collection walks (after a dozen
    openings one took 44 ms instead of 6, inside the next opening). The memo holds two styles per
    widget, cheap to make again. Called by the app's pop_screen.
    """
    from textual._styles_cache import StylesCache

    StylesCache.get_inner_outer.cache_clear()


def release_picture_styles() -> None:
    """Clear the memos that turn a style or a colour into escape codes (Textual's `Strip.render_ansi`,
    16,384 entries, and Rich's `Color.get_ansi_codes` and `Color.downgrade`, 1,024 each) once a page of
    pictures drawn in half-block cells is left.

    Each cell of such a picture has a style of its own (two colours), so the memos fill with the styles of
    pictures no longer on screen, and every full garbage collection walks them with their colours.
    Measured over 200 illustrated page turns: 2,554 styles and 2,048 colours were held at the end, and the
    full collections took 1.1 s in all (up to 96 ms each); cleared as each page of pictures was left,
    0.6 s (up to 38 ms). The styles on screen are memoised again by the next frame (a few hundred
    microseconds). Called by the page viewer's picture widget (reader.tui.images.illustrated_text).
    """
    from rich.color import Color
    from textual.strip import Strip

    Strip.render_ansi.cache_clear()
    Color.get_ansi_codes.cache_clear()
    Color.downgrade.cache_clear()


IDLE_COLLECT_FROM = 8
"""Collections of the middle generation since the last full one from which `collect_if_due` runs a full
one (the collector itself runs it after 10, in whatever the app is doing then)."""


def collect_if_due() -> bool:
    """A full collection now, when the collector would soon run one anyway; whether it ran.

    Called when the app is idle with a page on screen (a reader reads it for seconds): the collection
    then runs while nobody waits, not inside the next page turn. Each full collection walks every
    object made since start-up (20-60 ms with a few pictures drawn); measured over 200 page turns of an
    illustrated book (a picture on every page), 23 of them ran, about one turn in nine, most inside a
    turn. Keys held down never leave the app idle, and collections then run as before.
    """
    if gc.isenabled() and gc.get_count()[2] >= IDLE_COLLECT_FROM:
        gc.collect()
        return True
    return False
