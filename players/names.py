"""Player names: which names are refused, and the canonical form they are matched on
(players.services finds or creates the Player a name is).

Two names are the same player when their canonical forms are equal: Unicode NFKC (so the
fullwidth `admin`, U+FF41..., is `admin`), case-folded, surrounding whitespace removed and inner
runs of whitespace made one space. Characters that would let a name look like another one
without being it (zero-width characters, bidirectional controls, control characters, lone
surrogates, invisible fillers) are refused outright rather than stripped, so what a page
shows is what was matched. The name as written is kept for display; the handle in URLs is a
slug, unique, made from the name.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from functools import lru_cache

from django.utils.text import slugify

HANDLE_LENGTH = 40
NAME_LENGTH = 100

ZERO_WIDTH = {0x200B, 0x200C, 0x200D, 0x2060, 0xFEFF, 0x180E}
BIDI_CONTROLS = {0x061C, 0x200E, 0x200F, *range(0x202A, 0x202F), *range(0x2066, 0x206A)}
# Letters that render as nothing (Hangul fillers): names made of them look empty.
INVISIBLE_FILLERS = {0x115F, 0x1160, 0x3164, 0xFFA0}
BLANK_LOOKING = {0x2800}  # braille blank: allowed beside visible characters, not alone
WHITESPACE_RUN = re.compile(r"\s+")


@lru_cache(maxsize=8192)
def canonical_name(name: str) -> str:
    """The form names are matched on. NFKC again after case folding, which can undo it;
    cut to the column's length (longer names are refused at intake, but logs stored
    before that rule may hold one). Remembered: a verified group looks up its 200 seats'
    names twice, most of them names it has met before (issue 25)."""
    folded = unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", name).casefold())
    return WHITESPACE_RUN.sub(" ", folded).strip()[:NAME_LENGTH]


def sort_key(name: str) -> tuple[str, str]:
    """Where a name sorts as people expect: accents and case aside ("Émile" among the E's, not
    after Z as the code points, or PostgreSQL's C collation, put it; "emma" beside "Emma"),
    then the name as written, so equal keys still come in one order."""
    letters = unicodedata.normalize("NFKD", name)
    bare = "".join(c for c in letters if not unicodedata.combining(c))
    return bare.casefold(), name


def character_problem(character: str) -> str | None:
    """What is wrong with one character of a name, or None."""
    code = ord(character)
    category = unicodedata.category(character)
    if code == 0:
        return "a NUL character"
    if category == "Cs":
        return "a lone surrogate"
    if category == "Cc":
        return "a control character"
    if code in BIDI_CONTROLS:
        return "a bidirectional control character"
    if code in ZERO_WIDTH:
        return "a zero-width character"
    if category == "Cf":
        return "an invisible formatting character"
    if code in INVISIBLE_FILLERS:
        return "an invisible filler character"
    if category in ("Co", "Cn"):
        return "a private-use or unassigned character"
    if category in ("Zl", "Zp"):
        return "a line or paragraph separator"
    return None


def visible(character: str) -> bool:
    category = unicodedata.category(character)
    return not (
        category.startswith("Z")
        or category in ("Mn", "Me", "Cc", "Cf")
        or character.isspace()
        or ord(character) in BLANK_LOOKING | INVISIBLE_FILLERS
    )


def shown(name: str) -> str:
    """The name quoted for an error message, invisible characters written as escapes."""
    out = []
    for character in name:
        if character in '"\\':
            out.append("\\" + character)
        elif character == " " or (character_problem(character) is None and visible(character)):
            out.append(character)
        elif ord(character) > 0xFFFF:
            out.append(f"\\U{ord(character):08x}")
        else:
            out.append(f"\\u{ord(character):04x}")
    return '"' + "".join(out) + '"'


def name_problem(name: str) -> str | None:
    """Why `name` cannot be a player's name, or None when it can."""
    if name.isascii() and name.isprintable() and name.strip() and len(name) <= NAME_LENGTH:
        # Printable ASCII holds none of the characters refused below (its one space is
        # allowed): most names, checked without a look-up per character (each of a batch's
        # logs' names is checked as it is read: issue 25).
        return None
    for character in name:
        problem = character_problem(character)
        if problem:
            return f"player name {shown(name)} contains {problem} (U+{ord(character):04X})"
    if not any(visible(character) for character in name):
        return f"player name {shown(name)} has nothing visible"
    if len(name) > NAME_LENGTH:
        return f"player name {shown(name[:20])}... is longer than {NAME_LENGTH} characters"
    return None


def seat_name_problems(names: Iterable[object]) -> tuple[int, str] | None:
    """The first (seat, message) refusing the player names of a log in seat order: a bad
    name, or two seats that are one player. Names that are not strings are the schema's.
    The seat is the log's (from 0); the message counts seats from 1, as players do."""
    first_seat_of: dict[str, int] = {}
    for seat, name in enumerate(names):
        if not isinstance(name, str):
            continue
        problem = name_problem(name)
        if problem:
            return seat, f"seat {seat + 1}: {problem}"
        canonical = canonical_name(name)
        if canonical in first_seat_of:
            other = first_seat_of[canonical]
            return seat, (
                f"seat {seat + 1}: player name {shown(name)} is the same player as "
                f"seat {other + 1}'s "
                "(names are matched ignoring case, width and surrounding spaces)"
            )
        first_seat_of[canonical] = seat
    return None


# Latin letters that Unicode does not decompose into a base letter and an accent, so that
# slugify would drop them ("Løvdal" would read "lvdal"): spelt as they are typed without them.
UNDECOMPOSED_LETTERS = str.maketrans(
    {
        "ø": "o",
        "Ø": "O",
        "æ": "ae",
        "Æ": "Ae",
        "œ": "oe",
        "Œ": "Oe",
        "ß": "ss",
        "đ": "d",
        "Đ": "D",
        "ł": "l",
        "Ł": "L",
        "þ": "th",
        "Þ": "Th",
        "ð": "d",
        "Ð": "D",
        "\u0131": "i",  # dotless i
    }
)


def handle_base(name: str) -> str:
    """The slug a new player's handle starts from (names without latin letters keep a
    unicode slug, so two such players do not collapse into one)."""
    latin = name.translate(UNDECOMPOSED_LETTERS)
    handle = slugify(latin) or slugify(name, allow_unicode=True) or "player"
    return handle[:HANDLE_LENGTH].strip("-") or "player"
