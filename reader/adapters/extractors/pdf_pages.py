"""Page text (and visual measurements) for PDFs: in this process, or in workers that open the file themselves."""

from __future__ import annotations

import json
import logging
import os
import queue
import subprocess
import sys
import tempfile
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any, NamedTuple

from pypdf import PdfReader

from reader.adapters.extractors.pdf_fonts import FontMeter, PageFonts
from reader.adapters.extractors.pdf_visuals import Measured, PageVisualsMeter
from reader.adapters.extractors.text_cleanup import normalize_text
from reader.domain.extracted import ExtractedChapter

PageTexts = list[str | None]
"""Text per page as pypdf lays it out in lines; None where the page could not be read."""
PageMeasures = list[Measured | None]
"""Visual measurements per page; None where they were not taken or the page could not be read."""
PageFontSizes = list[PageFonts | None]
"""Font sizes per page; None where the page could not be read."""


@dataclass
class RawPdf:
    """A PDF as read, before its structure is found: raw page text in lines and what the file declares."""

    texts: PageTexts
    labels: list[str]
    declared_labels: bool
    chapters: list[ExtractedChapter]
    skipped_entries: int
    title: str
    author: str
    language: str = ""
    measures: PageMeasures | None = None
    fonts: PageFontSizes = field(default_factory=list)
    repaired: str = ""
    """The warning that the file was damaged and PDFium read it ("" when pypdf did)."""


_PROJECT_ROOT = Path(__file__).resolve().parents[3]
_WORKER_MODULE = "reader.adapters.extractors.pdf_pages"

log = logging.getLogger(__name__)


@contextmanager
def quiet_pypdf() -> Iterator[None]:
    """Keep pypdf's log messages about sloppy files off the terminal while we read."""
    logger = logging.getLogger("pypdf")
    level = logger.level
    logger.setLevel(logging.CRITICAL + 1)
    try:
        yield
    finally:
        logger.setLevel(level)


def page_text(reader: PdfReader, index: int) -> str | None:
    """The clean text of one page ('' when it has no text layer, None when it cannot be read)."""
    text = page_content(reader, index, measure=False).text
    return None if text is None else normalize_text(text)


class PageRead(NamedTuple):
    """One page as read: its text in lines (None when unreadable), visuals and font sizes."""

    text: str | None
    measured: Measured | None
    fonts: PageFonts | None


def page_content(reader: PdfReader, index: int, *, measure: bool) -> PageRead:
    """One page's text in lines, its font sizes and, with `measure`, its visuals, from a single pass."""
    fonts = FontMeter()
    try:
        page = reader.pages[index]
        meter = _meter(page) if measure else None
        if meter is None:
            return PageRead(page.extract_text(visitor_text=fonts.visit) or "", None, fonts.result())
        text = page.extract_text(
            visitor_operand_before=meter.before, visitor_operand_after=meter.after, visitor_text=fonts.visit
        )
    except Exception:  # any failure inside pypdf leaves this one page blank
        return PageRead(None, None, None)
    try:
        measured = meter.result()
    except Exception:  # noqa: BLE001 - the measurements are a bonus; the text is what counts
        measured = None
    return PageRead(text or "", measured, fonts.result())


def _meter(page: Any) -> PageVisualsMeter | None:
    """A visuals meter for the page, or None when the page's boxes cannot be read (the text still can)."""
    try:
        return PageVisualsMeter(page)
    except Exception:  # noqa: BLE001 - a broken /CropBox or /MediaBox: no measurements
        return None


def extract_in_process(
    reader: PdfReader,
    indexes: list[int],
    texts: PageTexts,
    report: Callable[[int], None],
    measures: PageMeasures | None = None,
    fonts: PageFontSizes | None = None,
) -> None:
    """Fill `texts` (and `measures` and `fonts`, when given) for the given page indexes with this process's reader."""
    for index in indexes:
        read = page_content(reader, index, measure=measures is not None)
        texts[index] = read.text
        if measures is not None:
            measures[index] = read.measured
        if fonts is not None:
            fonts[index] = read.fonts
        report(1)


def split_ranges(count: int, workers: int) -> list[tuple[int, int]]:
    """`workers` contiguous page ranges covering [0, count)."""
    size = -(-count // workers)
    return [(start, min(start + size, count)) for start in range(0, count, size)]


def usable_cpus() -> int:
    """CPUs this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def _start_worker(job: dict[str, Any], stderr: IO[bytes]) -> subprocess.Popen[bytes]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(_PROJECT_ROOT), env.get("PYTHONPATH", "")) if p)
    process = subprocess.Popen(
        [sys.executable, "-P", "-m", _WORKER_MODULE],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=stderr,
        env=env,
    )
    assert process.stdin is not None
    # The job (with the password) goes through stdin, never the command line.
    process.stdin.write(json.dumps(job).encode())
    process.stdin.close()
    return process


Event = tuple[int, PageRead]


def _pump(process: subprocess.Popen[bytes], events: queue.Queue[Event | None]) -> None:
    """Forward a worker's (index, text, measurements, font sizes) lines to the queue; None when it stops."""
    assert process.stdout is not None
    try:
        for line in process.stdout:
            record = json.loads(line)
            read = PageRead(
                record["t"], Measured.from_json(record.get("v")), PageFonts.from_json(record.get("f"))
            )
            events.put((int(record["i"]), read))
    except (ValueError, KeyError, TypeError, OSError):
        pass
    finally:
        events.put(None)


def extract_in_workers(
    path: Path,
    password: str | None,
    count: int,
    workers: int,
    texts: PageTexts,
    done: list[bool],
    report: Callable[[int], None],
    measures: PageMeasures | None = None,
    fonts: PageFontSizes | None = None,
) -> None:
    """Fill `texts` (and `measures` and `fonts`, when given) from `workers` processes, each reading a range of pages.

    Pages received are marked in `done`; the caller reads any others itself (a worker that fails to start
    or dies is only logged). Exceptions from `report` propagate. Every worker is gone on return.
    """
    processes: list[subprocess.Popen[bytes]] = []
    events: queue.Queue[Event | None] = queue.Queue()
    try:
        stderr_file = tempfile.TemporaryFile()
    except OSError as error:
        log.info("cannot start PDF workers (%s); reading pages in-process", error)
        return
    with stderr_file as stderr:
        try:
            try:
                for start, stop in split_ranges(count, workers):
                    job = {
                        "path": str(path),
                        "password": password,
                        "start": start,
                        "stop": stop,
                        "measure": measures is not None,
                    }
                    processes.append(_start_worker(job, stderr))
            except (OSError, ValueError, subprocess.SubprocessError) as error:
                log.info("cannot start PDF workers (%s); reading pages in-process", error)
            pumps = [threading.Thread(target=_pump, args=(p, events), daemon=True) for p in processes]
            for pump in pumps:
                pump.start()
            running = len(pumps)
            while running:
                event = events.get()
                if event is None:
                    running -= 1
                    continue
                index, read = event
                if 0 <= index < count and not done[index]:
                    texts[index], done[index] = read.text, True
                    if measures is not None:
                        measures[index] = read.measured
                    if fonts is not None:
                        fonts[index] = read.fonts
                    report(1)
        finally:
            for process in processes:
                if process.poll() is None:
                    process.kill()
                process.wait()
                if process.stdout is not None:
                    process.stdout.close()
            if any(process.returncode for process in processes):
                stderr.seek(0)
                tail = stderr.read()[-2000:].decode("utf-8", "replace")
                log.info("a PDF worker failed (exit codes %s): %s", [p.returncode for p in processes], tail)


def _worker_main() -> None:
    """Worker process: read a job from stdin, write one JSON line per page (text, measurements) to stdout."""
    logging.getLogger("pypdf").setLevel(logging.CRITICAL + 1)
    job = json.loads(sys.stdin.buffer.read())
    out = sys.stdout
    with open(job["path"], "rb") as handle:
        reader = PdfReader(handle)
        if reader.is_encrypted:
            reader.decrypt(job["password"] or "")
        for index in range(job["start"], job["stop"]):
            read = page_content(reader, index, measure=bool(job.get("measure")))
            record: dict[str, Any] = {"i": index, "t": read.text}
            if read.measured is not None:
                record["v"] = read.measured.to_json()
            if read.fonts is not None:
                record["f"] = read.fonts.to_json()
            out.write(json.dumps(record) + "\n")
            out.flush()


if __name__ == "__main__":
    _worker_main()
