"""The games page's rows (templates/games/game_list.html), written in Python: through the
template, a page's 50 rows and their 200 seats (a link, a reverse(), the date filter, an
include for the confirmation mark, format_html a seat) were most of the page's CPU at 1M
games (issue 25). The same bytes the template wrote, every value escaped as it escaped them
(tests/games/test_the_games_page_rows_are_the_templates_rows.py compares them)."""

from __future__ import annotations

import datetime
from collections.abc import Iterable
from typing import Any

from django.db.models import QuerySet
from django.forms import BoundField, Form
from django.utils import timezone
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext

from common.compiled import compile_once
from common.database import any_of
from common.quick_html import escaped
from common.quick_urls import quick_url
from engines.registry import title_of
from games.filters import COUNTS
from games.models import GameSeat, Source
from games.pagination import shown_score

# templates/games/_confirmation_mark.html's text for each state that is not "counts", and
# the file's last line break after it (written for any state but "counts": see mark_of).
CONFIRMATION_MARKS = {
    "pending": ' <span class="tag confirmation-mark" title="counts once its players confirm'
    ' it">waiting for confirmation</span>',
    "disputed": ' <span class="tag confirmation-mark" title="counts nowhere until staff'
    ' decide">disputed</span>',
    "rejected": ' <span class="tag confirmation-mark" title="staff rejected it">rejected</span>',
}

# A row as the template's loop wrote it, its line breaks and indents kept: confirmation
# state, link, title, mark, date, source, seats.
GAME_ROW_HTML = (
    '\n    <tr data-confirmation="{}"><td><a href="{}">{}</a>{}</td>\n'
    "      <td>{}</td><td>{}</td>\n      <td>{}</td></tr>\n  "
)
NO_GAMES_HTML = '<tr><td colspan="4">No games match.</td></tr>'
SOURCES = dict(Source.choices)


def mark_of(state: str | None) -> str:
    """What the template's include of _confirmation_mark.html wrote for a game that does not
    count: its state's mark, if any, and the file's closing line break."""
    return CONFIRMATION_MARKS.get(state, "") + "\n"


def played(moment: datetime.datetime, zone: datetime.tzinfo) -> str:
    """`{{ moment|date:"Y-m-d H:i" }}` with `zone` the current time zone (looked up once for
    a page's rows), as the filter shows it."""
    when = moment.astimezone(zone)
    return f"{when.year:04d}-{when.month:02d}-{when.day:02d} {when.hour:02d}:{when.minute:02d}"


def seat_rows(games: list[int]) -> QuerySet:
    """The seats of these games as the page lists them, in order: (game id, name, score,
    rank, the player's handle or None)."""
    return (
        GameSeat.objects.filter(any_of("game_id", games))
        .order_by("game_id", "seat")
        .values_list("game_id", "name", "score", "rank", "player__handle")
    )


# The games' ids sent as one parameter (common.compiled): no page lists this game.
GAMES_SLOT = [-32_126]


def seats_shown(game_ids: list[int]) -> dict[int, str]:
    """Each game's seats as the games page lists them (a player's name linked to their
    page, its score and rank), by game id: read as plain rows in one query (compiled once:
    building and compiling it cost more CPU than running it) and written out here, not
    built as 200 seat and player instances then rendered a field at a time."""
    compiled = compile_once("games list seats", GameSeat, seat_rows, {"games": GAMES_SLOT})
    rows = seat_rows(game_ids) if compiled is None else compiled.rows({"games": game_ids})
    shown: dict[int, list[str]] = {}
    for game_id, name, score, rank, handle in rows:
        seat = (
            f'<a href="/players/{escaped(handle)}/">{escaped(name)}</a>'
            if handle is not None
            else escaped(name)
        )
        shown.setdefault(game_id, []).append(f"{seat} ({shown_score(score)}, {escaped(rank)})")
    return {game_id: "; ".join(seats) for game_id, seats in shown.items()}


def game_rows(games: Iterable[Any]) -> SafeString:
    """The table's rows for `games` (annotated with `confirmation`, as GameFilter does)."""
    games = list(games)
    if not games:
        return mark_safe(NO_GAMES_HTML)
    seats = seats_shown([game.pk for game in games])
    zone = timezone.get_current_timezone()
    return mark_safe(
        "".join(
            GAME_ROW_HTML.format(
                escaped(game.confirmation),
                quick_url("games:log", game.log_id),  # digits and slashes
                escaped(title_of(game.game_type)),
                "" if game.confirmation == COUNTS else mark_of(game.confirmation),
                played(game.played_at, zone),  # digits, "-", ":" and a space
                escaped(SOURCES.get(game.source, game.source)),  # as get_source_display
                seats.get(game.pk, ""),
            )
            for game in games
        )
    )


def label_tag(field: BoundField) -> str:
    """field.label_tag() as django/forms/label.html writes it (through a template: some
    100 microseconds a label), for a field with an id and no required class; any other
    through label_tag() itself."""
    form, widget = field.form, field.field.widget
    id_ = widget.attrs.get("id") or field.auto_id
    for_label = widget.id_for_label(id_) if id_ else None
    if (
        not for_label
        or form.template_name_label != "django/forms/label.html"
        or (field.field.required and hasattr(form, "required_css_class"))
    ):
        return field.label_tag()
    label = field.label
    suffix = field.field.label_suffix
    suffix = form.label_suffix if suffix is None else suffix
    contents = escaped(label)
    if suffix and label and label[-1] not in gettext(":?.!"):
        contents += escaped(suffix)
    return f'<label for="{escaped(for_label)}">{contents}</label>'


def filter_fields(form: Form) -> SafeString:
    """The games page's filter bar but its dates, as the template's loop wrote them: a
    label, its widget (quick ones, common.widgets) and its errors a field."""
    return mark_safe(
        "".join(
            f"\n    <div>{label_tag(field)} {field}"
            + (
                f'<small class="error">{" ".join(escaped(e) for e in field.errors)}</small>'
                if field.errors
                else ""
            )
            + "</div>\n    "
            for field in form
            if field.name != "date"
        )
    )
