"""Timestamps: stored as ISO 8601 text, shown in the spec's formats."""

from datetime import datetime

_MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")


def now_iso():
    return datetime.now().isoformat(timespec="milliseconds")


def vault_time(iso):
    """``<Mon> <D>, <YYYY> <h>:<mm> <AM/PM>``, e.g. ``Nov 22, 2026 8:48 AM``."""
    moment = datetime.fromisoformat(iso)
    hour = moment.hour % 12 or 12
    half = "AM" if moment.hour < 12 else "PM"
    return f"{vault_date(moment)} {hour}:{moment.minute:02d} {half}"


def vault_date(moment):
    """``<Mon> <D>, <YYYY>`` of a datetime, e.g. ``Nov 22, 2026`` (custom Date fields, certificate dates)."""
    return f"{_MONTHS[moment.month - 1]} {moment.day}, {moment.year}"


def millis_time(iso):
    """``YYYY-MM-DD HH:MM:SS.fff`` (users' dateCreated, resource groups' timeCreated, audit)."""
    moment = datetime.fromisoformat(iso)
    return moment.strftime("%Y-%m-%d %H:%M:%S.") + f"{moment.microsecond // 1000:03d}"


def day_month_time(moment):
    """``DD/MM/YYYY HH:MM:SS`` (agentKeyEndTime)."""
    return moment.strftime("%d/%m/%Y %H:%M:%S")
