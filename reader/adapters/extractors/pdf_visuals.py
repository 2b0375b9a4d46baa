"""Measuring what is visual on a PDF page while pypdf extracts its text: images, drawings, their area.

pypdf's text extraction walks every operation of the page's content stream (and of the forms it
draws) and hands each one to a visitor together with the current transformation matrix. The meter
below is that visitor: an image is the unit square mapped by the matrix in force at its `Do` (or
inline `BI`), a drawing is made of painted paths. Coverage is counted on a coarse grid of the page so
overlapping figures are not counted twice; paths that touch (a chart's bars and axes, a table's rules)
are grouped, and a group counts with its whole bounding box unless it is a thin line (a rule, an
underline). No second parse of the page is needed.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

GRID = 32
"""Cells per side of the coverage grid (1,024 cells: a cell is about 6 x 8 mm on A4)."""
MAX_RECTS = 256
"""Rectangles kept per kind; further ones are merged into one bounding box."""
BACKGROUND_AREA = 0.9
"""A fill covering this much of the page is a background, not a drawing."""
FRAME_AREA = 0.5
"""A stroked-only path this large is a frame around the text, not a drawing."""
MIN_GROUP_CELLS = 2
"""A group of paths thinner than this many grid cells (either way) is a rule or an underline."""

Matrix = Sequence[float]
Rect = tuple[float, float, float, float]

_IDENTITY: tuple[float, ...] = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)
_PATH_OPS = frozenset((b"m", b"l", b"c", b"v", b"y"))
_FILL_OPS = frozenset((b"f", b"F", b"f*", b"B", b"B*", b"b", b"b*"))
_STROKE_OPS = frozenset((b"S", b"s"))


@dataclass(frozen=True)
class Measured:
    """A page's visual measurements: images drawn and the fractions of the page covered."""

    image_count: int = 0
    image_area: float = 0.0
    drawing_area: float = 0.0
    figure_area: float = 0.0
    """Images and drawings together."""

    def to_json(self) -> list[float]:
        return [self.image_count, self.image_area, self.drawing_area, self.figure_area]

    @classmethod
    def from_json(cls, value: Any) -> Measured | None:
        try:
            count, image, drawing, figure = value
            return cls(int(count), float(image), float(drawing), float(figure))
        except (TypeError, ValueError):
            return None


def multiply(m: Matrix, n: Matrix) -> tuple[float, ...]:
    """m then n (PDF row-vector convention: a point p maps to p·m·n)."""
    return (
        m[0] * n[0] + m[1] * n[2],
        m[0] * n[1] + m[1] * n[3],
        m[2] * n[0] + m[3] * n[2],
        m[2] * n[1] + m[3] * n[3],
        m[4] * n[0] + m[5] * n[2] + n[4],
        m[4] * n[1] + m[5] * n[3] + n[5],
    )


def _bbox(m: Matrix, x0: float, y0: float, x1: float, y1: float) -> Rect:
    """The device-space bounding box of a user-space rectangle under matrix m."""
    xs = []
    ys = []
    for x, y in ((x0, y0), (x1, y0), (x0, y1), (x1, y1)):
        xs.append(m[0] * x + m[2] * y + m[4])
        ys.append(m[1] * x + m[3] * y + m[5])
    return min(xs), min(ys), max(xs), max(ys)


def _numbers(operands: Sequence[Any]) -> list[float]:
    try:
        return [float(value) for value in operands]
    except (TypeError, ValueError):
        return []


def _matrix(value: Any) -> tuple[float, ...]:
    numbers = _numbers(value) if isinstance(value, list) else []
    return tuple(numbers) if len(numbers) == 6 else _IDENTITY


class _Frame:
    """Where the visitor is: the resources names resolve in and the matrix of the enclosing forms."""

    __slots__ = ("key", "matrix", "resources")

    def __init__(self, key: int, resources: Any, matrix: Matrix) -> None:
        self.key = key
        self.resources = resources
        self.matrix = matrix


class PageVisualsMeter:
    """A visitor pair for `page.extract_text(visitor_operand_before=..., visitor_operand_after=...)`."""

    def __init__(self, page: Any) -> None:
        box = page.cropbox
        self.left, self.bottom = float(box.left), float(box.bottom)
        self.width, self.height = float(box.width), float(box.height)
        self.page_area = self.width * self.height
        self.frames = [_Frame(0, _resources(page), _IDENTITY)]
        self.images: list[Rect] = []
        self.drawings: list[Rect] = []
        self.image_count = 0
        self.path: list[float] | None = None
        """[min x, min y, max x, max y] of the path being built, in user space."""

    # --- the visitor -----------------------------------------------------------------------------

    def before(self, operator: bytes, operands: Any, cm: Matrix, tm: Matrix) -> None:
        try:
            self._before(operator, operands, cm)
        except Exception:  # noqa: BLE001 - a strange operand must never stop text extraction
            pass

    def after(self, operator: bytes, operands: Any, cm: Matrix, tm: Matrix) -> None:
        if operator == b"Do" and len(self.frames) > 1:
            key = id(operands)
            # pop to the frame this Do pushed (an inner form that failed may have left its own)
            while len(self.frames) > 1:
                if self.frames.pop().key == key:
                    break

    def _before(self, operator: bytes, operands: Any, cm: Matrix) -> None:
        if operator in _PATH_OPS:
            self._extend_path(_numbers(operands))
        elif operator == b"re":
            numbers = _numbers(operands)
            if len(numbers) == 4:
                x, y, w, h = numbers
                self._extend_path([x, y, x + w, y + h])
        elif operator in _FILL_OPS:
            self._paint(cm, filled=True)
        elif operator in _STROKE_OPS:
            self._paint(cm, filled=False)
        elif operator == b"n":
            self.path = None
        elif operator == b"Do":
            self._do(operands, cm)
        elif operator == b"INLINE IMAGE":
            self._image(cm)

    def _extend_path(self, numbers: list[float]) -> None:
        xs, ys = numbers[0::2], numbers[1::2]
        if not xs or not ys:
            return
        path = self.path
        if path is None:
            self.path = [min(xs), min(ys), max(xs), max(ys)]
        else:
            path[0], path[1] = min(path[0], *xs), min(path[1], *ys)
            path[2], path[3] = max(path[2], *xs), max(path[3], *ys)

    def _paint(self, cm: Matrix, *, filled: bool) -> None:
        path, self.path = self.path, None
        if path is None:
            return
        rect = self._clip(_bbox(self._device(cm), *path))
        if rect is None:
            return
        share = (rect[2] - rect[0]) * (rect[3] - rect[1]) / self.page_area
        if share >= BACKGROUND_AREA or (not filled and share >= FRAME_AREA):
            return
        self._keep(self.drawings, rect)

    def _do(self, operands: Any, cm: Matrix) -> None:
        frame = self.frames[-1]
        xobject = None
        if operands:
            try:
                xobject = frame.resources["/XObject"][operands[0]].get_object()
            except Exception:  # noqa: BLE001 - a missing or broken XObject draws nothing we can measure
                xobject = None
        subtype = xobject.get("/Subtype") if xobject is not None else None
        if subtype == "/Image":
            self._image(cm)
            self.frames.append(_Frame(id(operands), frame.resources, frame.matrix))
        elif subtype == "/Form" and xobject is not None:
            # the form's content sees its own resources and matrix; pypdf restarts its cm at identity
            matrix = multiply(_matrix(xobject.get("/Matrix")), self._device(cm))
            self.frames.append(_Frame(id(operands), _resources(xobject), matrix))
        else:
            self.frames.append(_Frame(id(operands), frame.resources, frame.matrix))

    def _image(self, cm: Matrix) -> None:
        self.image_count += 1
        rect = self._clip(_bbox(self._device(cm), 0.0, 0.0, 1.0, 1.0))
        if rect is not None:
            self._keep(self.images, rect)

    def _device(self, cm: Matrix) -> Matrix:
        outer = self.frames[-1].matrix
        return cm if outer is _IDENTITY else multiply(cm, outer)

    def _clip(self, rect: Rect) -> Rect | None:
        right, top = self.left + self.width, self.bottom + self.height
        x0, y0 = max(rect[0], self.left), max(rect[1], self.bottom)
        x1, y1 = min(rect[2], right), min(rect[3], top)
        if x1 <= x0 or y1 <= y0:
            return None
        return x0, y0, x1, y1

    @staticmethod
    def _keep(rects: list[Rect], rect: Rect) -> None:
        if len(rects) < MAX_RECTS:
            rects.append(rect)
            return
        last = rects[-1]
        rects[-1] = (
            min(last[0], rect[0]),
            min(last[1], rect[1]),
            max(last[2], rect[2]),
            max(last[3], rect[3]),
        )

    # --- the result ------------------------------------------------------------------------------

    def result(self) -> Measured:
        """The measurements after the page's text was extracted with this meter as visitor."""
        if self.page_area <= 0 or not (self.images or self.drawings or self.image_count):
            return Measured(self.image_count)
        images = self._grid(self.images)
        drawings = self._drawing_grid(self.drawings)
        cells = GRID * GRID
        both = sum(1 for a, b in zip(images, drawings, strict=True) if a or b)
        return Measured(
            self.image_count,
            round(sum(images) / cells, 4),
            round(sum(drawings) / cells, 4),
            round(both / cells, 4),
        )

    def _drawing_grid(self, rects: list[Rect]) -> bytearray:
        """Cells inside the bounding boxes of groups of touching paths, thin groups left out."""
        touched = bytearray(GRID * GRID)
        step_x, step_y = self.width / GRID, self.height / GRID
        for x0, y0, x1, y1 in rects:
            c0 = max(0, min(GRID - 1, int((x0 - self.left) / step_x)))
            c1 = max(c0 + 1, min(GRID, -int(-(x1 - self.left) // step_x)))
            r0 = max(0, min(GRID - 1, int((y0 - self.bottom) / step_y)))
            r1 = max(r0 + 1, min(GRID, -int(-(y1 - self.bottom) // step_y)))
            run = b"\x01" * (c1 - c0)
            for row in range(r0, r1):
                touched[row * GRID + c0 : row * GRID + c1] = run
        cells = bytearray(GRID * GRID)
        seen = bytearray(GRID * GRID)
        for start in range(GRID * GRID):
            if not touched[start] or seen[start]:
                continue
            seen[start] = 1
            stack = [start]
            r_min = r_max = start // GRID
            c_min = c_max = start % GRID
            while stack:
                cell = stack.pop()
                row, col = divmod(cell, GRID)
                r_min, r_max = min(r_min, row), max(r_max, row)
                c_min, c_max = min(c_min, col), max(c_max, col)
                for near in (
                    cell - GRID,
                    cell + GRID,
                    cell - 1 if col else -1,
                    cell + 1 if col < GRID - 1 else -1,
                ):
                    if 0 <= near < GRID * GRID and touched[near] and not seen[near]:
                        seen[near] = 1
                        stack.append(near)
            if r_max - r_min + 1 < MIN_GROUP_CELLS or c_max - c_min + 1 < MIN_GROUP_CELLS:
                continue
            run = b"\x01" * (c_max - c_min + 1)
            for row in range(r_min, r_max + 1):
                cells[row * GRID + c_min : row * GRID + c_max + 1] = run
        return cells

    def _grid(self, rects: list[Rect]) -> bytearray:
        """Cells (row-major) whose centre lies inside any rectangle."""
        cells = bytearray(GRID * GRID)
        step_x, step_y = self.width / GRID, self.height / GRID
        for x0, y0, x1, y1 in rects:
            # centre of column c is left + (c + 0.5) * step
            c0 = max(0, int((x0 - self.left) / step_x + 0.5))
            c1 = min(GRID, int((x1 - self.left) / step_x + 0.5))
            r0 = max(0, int((y0 - self.bottom) / step_y + 0.5))
            r1 = min(GRID, int((y1 - self.bottom) / step_y + 0.5))
            if c1 <= c0 or r1 <= r0:
                continue
            run = b"\x01" * (c1 - c0)
            for row in range(r0, r1):
                start = row * GRID
                cells[start + c0 : start + c1] = run
        return cells


def _resources(obj: Any) -> Any:
    """An object's /Resources (inherited for pages), or an empty dict."""
    try:
        getter = getattr(obj, "get_inherited", None)
        resources = getter("/Resources", None) if getter else obj.get("/Resources")
        resources = resources.get_object() if resources is not None else None
    except Exception:  # noqa: BLE001 - broken resources: nothing to resolve
        return {}
    return resources if resources is not None and hasattr(resources, "get") else {}
