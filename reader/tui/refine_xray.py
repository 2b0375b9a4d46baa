"""Wiring the X-Ray dialog's refinement to the services: the worker's callables and the dialog's keys."""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from textual.binding import BindingType

if TYPE_CHECKING:
    from reader.services import Services
    from reader.tui.screens.xray_screen import XRayRefiner


def xray_refiner(services: Services, book_id: str, horizon: int) -> XRayRefiner:
    """Refine `book_id` up to `horizon` with the [chat] model, then list its entries again."""
    from reader.tui.screens.xray_screen import XRayRefiner

    def refine(progress: Callable[[int, int], None], cancel: threading.Event) -> list[str]:
        outcome = services.refine.run(book_id, horizon, progress, cancel)  # raises without a model
        return [*outcome.notes, outcome.summary()]

    return XRayRefiner(refine, lambda: services.xray.entries(book_id, horizon))


def xray_bindings() -> Sequence[BindingType]:
    """The X-Ray dialog's keys, for the help screen."""
    from reader.tui.screens.xray_screen import XRayScreen

    return XRayScreen.BINDINGS
