"""Reading this process's memory from Linux's /proc, for the scripts that measure it.

The benchmark and the reliability table both read the peak resident size; the table also
resets it once a case's page is built. The scripts import this helper from beside them.
"""

from __future__ import annotations


def status_mb(field: str) -> float | None:
    """A field of /proc/self/status (``VmHWM``: the peak resident size, ``VmRSS``: the
    resident size now) in MB, or None where there is none (not Linux)."""
    try:
        with open("/proc/self/status", encoding="ascii") as status:
            for line in status:
                if line.startswith(field + ":"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    return None


def reset_peak() -> float | None:
    """The resident size now, with the process's peak reset to it (Linux's clear_refs), so
    that a peak read later is that of what came after; None where it cannot be reset."""
    try:
        with open("/proc/self/clear_refs", "w", encoding="ascii") as refs:
            refs.write("5")
    except OSError:
        return None
    return status_mb("VmRSS")
