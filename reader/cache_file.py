"""Writing a cache file (the saved CSS, the saved dataclass code): whole or not at all, never failing."""

from __future__ import annotations

import os
from pathlib import Path


def write_cache_file(path: Path, data: bytes) -> bool:
    """Write `data` to `path` through a temporary file beside it, replaced at once (a reader never sees half a
    file); False when it cannot be written (a cache: the next run makes it again)."""
    import tempfile  # only when something is written (most runs read their caches and write nothing)

    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
    except OSError:
        return False
    try:
        with os.fdopen(handle, "wb") as file:
            file.write(data)
        os.replace(temporary, path)
    except BaseException as error:
        os.unlink(temporary)
        if isinstance(error, OSError):
            return False
        raise
    return True
