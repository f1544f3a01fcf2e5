"""Test tool (tests/test_launch.py): a KeyboardInterrupt at the import of one module.

Put this folder on PYTHONPATH and name the module in DRAUGHTS_TEST_INTERRUPT_AT: its first
import raises KeyboardInterrupt, as a Ctrl-C arriving at that moment would.
"""
import os
import sys

_TARGET = os.environ.get("DRAUGHTS_TEST_INTERRUPT_AT")


class _Interrupter:
    """A meta path finder that interrupts the import of the target module."""

    def find_spec(self, name, path=None, target=None):  # noqa: D401 (finder protocol)
        if name == _TARGET:
            raise KeyboardInterrupt
        return None


if _TARGET:
    sys.meta_path.insert(0, _Interrupter())
