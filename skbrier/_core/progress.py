"""The one progress display of skbrier: one labelled line per run on stderr.

A run (``skbrier report``, one :func:`~skbrier.report.calibration_report`, a
bootstrap) opens a :func:`task`; the tasks opened inside it (the steps of a
report, the resamples of a bootstrap, the tasks of a dask computation) do
not draw bars of their own but extend the same line, which says what is
being done and how much remains::

    skbrier report 2/3: model_b | calibration report 5/10: lowess | 0:12

The display is drawn only when standard error is a terminal or when it is
asked for (``SKBRIER_PROGRESS=1``, ``skbrier report --progress``,
:func:`force_progress`), and never when silenced (``skbrier --quiet``,
:func:`quiet`, ``SKBRIER_QUIET=1``; silence wins).  On a terminal the line is
redrawn in place (at most ten times a second) and erased at the end; off a
terminal each new step is written as a line of its own (no carriage returns
in log files).  Otherwise every call here is a no-op costing a few attribute
lookups.

Library code uses it as::

    with task("bootstrap", total=n_resamples) as t:
        for chunk in chunks:
            ...
            t.update(len(chunk))

    with task("calibration report", total=3) as t:
        t.step("intervals")
        ...

and dask computations as ``with dask_tasks(): dask.compute(...)``.
"""

from __future__ import annotations

import contextlib
import os
import sys
import threading
import time
from collections.abc import Iterator
from contextvars import ContextVar
from typing import Any

__all__ = [
    "NO_TASK",
    "Task",
    "dask_tasks",
    "force_progress",
    "message",
    "progress",
    "progress_enabled",
    "quiet",
    "task",
]

_QUIET: ContextVar[bool] = ContextVar("skbrier_quiet", default=False)
_FORCE: ContextVar[bool] = ContextVar("skbrier_force_progress", default=False)
_DISPLAY: ContextVar[_Display | None] = ContextVar("skbrier_display", default=None)

# counted work shorter than this many units is not worth showing on its own
MIN_TOTAL = 2
#: seconds between two redraws of the line (terminal) or two lines (log)
_TTY_INTERVAL = 0.1
_LOG_INTERVAL = 5.0


@contextlib.contextmanager
def _setting(var: ContextVar[bool], value: bool) -> Iterator[None]:
    """``var`` set to ``value`` inside the block."""
    token = var.set(bool(value))
    try:
        yield
    finally:
        var.reset(token)


def quiet(silent: bool = True) -> contextlib.AbstractContextManager[None]:
    """Silence (``silent=True``) or re-enable the progress display inside the block."""
    return _setting(_QUIET, silent)


def force_progress(force: bool = True) -> contextlib.AbstractContextManager[None]:
    """Draw the display even when stderr is not a terminal (``--progress``, tests)."""
    return _setting(_FORCE, force)


def _env_flag(name: str) -> bool:
    return os.environ.get(name, "") not in ("", "0")


def _is_tty() -> bool:
    stream = sys.stderr
    try:
        return stream is not None and stream.isatty()
    except (AttributeError, ValueError):
        return False


def progress_enabled() -> bool:
    """Whether a display would be drawn now."""
    if _QUIET.get() or _env_flag("SKBRIER_QUIET"):
        return False
    if _FORCE.get() or _env_flag("SKBRIER_PROGRESS"):
        return sys.stderr is not None
    return _is_tty()


class _Level:
    """One nesting level of the line: a sequence of named steps or counted units."""

    __slots__ = ("desc", "done", "label", "total")

    def __init__(self, desc: str, total: int | None) -> None:
        self.desc = desc
        self.total = total
        self.done = 0
        self.label = ""

    def text(self) -> str:
        if self.label:  # steps: the one running is number done
            of = f" {self.done}/{self.total}" if self.total else ""
            return f"{self.desc}{of}: {self.label}" if self.desc else self.label
        if self.total:
            return f"{self.desc} {min(self.done, self.total)}/{self.total}"
        return self.desc


class _Display:
    """The line of one run: the stack of open levels, drawn on stderr."""

    def __init__(self) -> None:
        self.levels: list[_Level] = []
        self.tty = _is_tty()
        self.start = time.monotonic()
        # a log gets its first line at the first step, a terminal at once
        self.last = -1e9 if self.tty else self.start
        self.shown = ""
        self.width = 0
        self.lock = threading.Lock()
        self.dask_computations = 0

    def line(self) -> str:
        parts = [lv.text() for lv in self.levels if lv.text()]
        secs = int(time.monotonic() - self.start)
        parts.append(f"{secs // 60}:{secs % 60:02d}")
        return " | ".join(parts)

    def draw(self, force: bool = False, step: bool = False) -> None:
        """Redraw the line: ``step`` (a new step) always; ``force`` at once on a
        terminal (throttled in a log); otherwise throttled."""
        with self.lock:
            now = time.monotonic()
            interval = _TTY_INTERVAL if self.tty else _LOG_INTERVAL
            urgent = step or (force and self.tty)
            if not urgent and now - self.last < interval:
                return
            text = self.line()
            if text == self.shown and not self.tty:
                return
            self.last, self.shown = now, text
            try:
                if self.tty:
                    pad = " " * max(0, self.width - len(text))
                    sys.stderr.write(f"\r{text}{pad}")
                    self.width = len(text)
                else:
                    sys.stderr.write(text + "\n")
                sys.stderr.flush()
            except (OSError, ValueError, AttributeError):  # a closed stream
                pass

    def clear(self) -> None:
        if self.tty and self.width:
            try:
                sys.stderr.write("\r" + " " * self.width + "\r")
                sys.stderr.flush()
            except (OSError, ValueError, AttributeError):
                pass
            self.width = 0


class Task:
    """What :func:`task` yields: ``step(label)`` starts the next named step,
    ``update(n)`` counts ``n`` units of work done."""

    __slots__ = ("_display", "_level")

    def __init__(self, display: _Display | None, level: _Level | None) -> None:
        self._display = display
        self._level = level

    def step(self, label: str) -> None:
        """Start the next step (``label``: what it does)."""
        if self._level is None or self._display is None:
            return
        self._level.done += 1
        self._level.label = str(label)
        self._display.draw(step=True)

    def set_total(self, total: int | None) -> None:
        """The number of steps or units, once known."""
        if self._level is not None:
            self._level.total = None if total is None else int(total)

    def update(self, n: int = 1) -> None:
        """``n`` more units of counted work are done."""
        if self._level is None or self._display is None:
            return
        self._level.done += int(n)
        total = self._level.total
        # the end of counted work is written like a new step
        self._display.draw(step=total is not None and self._level.done >= total)

    def close(self) -> None:  # the old bar interface
        pass


#: the task of code that runs outside a display (every call a no-op)
NO_TASK = Task(None, None)


@contextlib.contextmanager
def task(desc: str, total: int | None = None) -> Iterator[Task]:
    """One labelled level of the run's progress line (a no-op when not shown).

    Parameters
    ----------
    desc : str
        What this level does (e.g. ``"calibration report"``, ``"bootstrap"``).
    total : int, optional
        The number of steps (:meth:`Task.step`) or units (:meth:`Task.update`)
        it will take; None when unknown.

    The outermost task of a run creates the display (and erases it at the
    end); a nested one adds itself to the same line until it ends.
    """
    display = _DISPLAY.get()
    owner = display is None
    if owner:
        if not progress_enabled():
            yield NO_TASK
            return
        display = _Display()
    assert display is not None
    level = _Level(desc, None if total is None else int(total))
    display.levels.append(level)
    token = _DISPLAY.set(display) if owner else None
    try:
        display.draw(force=True)
        yield Task(display, level)
    finally:
        display.levels.remove(level)
        if owner:
            assert token is not None
            _DISPLAY.reset(token)
            display.clear()
        else:
            display.draw(force=True)


@contextlib.contextmanager
def progress(total: int, desc: str = "working") -> Iterator[Task]:
    """Counted work of ``total`` units (``update(n)``): a level of the run's
    line, or a line of its own outside a run (nothing below :data:`MIN_TOTAL`)."""
    if total < MIN_TOTAL:
        yield NO_TASK
        return
    with task(desc, total) as t:
        yield t


def message(text: str) -> None:
    """Write a line of text on stderr without breaking the progress line."""
    display = _DISPLAY.get()
    if display is not None:
        display.clear()
    print(text, file=sys.stderr)
    if display is not None:
        display.draw(force=True)


@contextlib.contextmanager
def dask_tasks(desc: str = "") -> Iterator[None]:
    """Count the tasks of the dask computation inside the block on the run's
    line, as ``dask computation k (desc) done/total`` (``k`` counts the
    computations of the run; local schedulers; a no-op without a display)."""
    display = _DISPLAY.get()
    if display is None:
        yield
        return
    from dask.callbacks import Callback

    display.dask_computations += 1
    what = f"dask computation {display.dask_computations}"
    level = _Level(f"{what} ({desc})" if desc else what, 0)
    lock = threading.Lock()

    def start_state(dsk: Any, state: Any) -> None:
        n = sum(len(state[k]) for k in ("ready", "waiting", "running", "finished"))
        with lock:
            level.total = (level.total or 0) + n
        display.draw(force=True)

    def posttask(key: Any, result: Any, dsk: Any, state: Any, worker_id: Any) -> None:
        with lock:
            level.done += 1
        display.draw()

    display.levels.append(level)
    try:
        with Callback(start_state=start_state, posttask=posttask):
            yield
        display.draw(force=True)  # the count complete
    finally:
        display.levels.remove(level)
        display.draw(force=True)
