"""Pillow drawing of a :class:`~rummy_env.render.view.TableView` into an RGB picture.

Everything is drawn here, by this code: card faces (rank text and suit shapes built from
circles and polygons), card backs (a lattice pattern), the felt, the panels and the text. No
card artwork or font files are copied or loaded from elsewhere; the text uses Pillow's own
default font (``ImageFont.load_default``; scalable from Pillow 10.1 where FreeType is present,
else its fixed bitmap font, still legible). Pillow is imported lazily, when a picture is first
drawn, so ``import rummy_env`` stays cheap.

Layout of the fixed ``WIDTH x HEIGHT`` frame (the same for every environment: an even size that
video encoders accept):

* top bar: the variant and deal (title), the phase, who acts and the dealer (status), and a
  badge naming the view: ``player_k's view`` or ``VIEW FROM ABOVE: all hands shown``;
* left column: one panel per seat (name, score, cards in hand, notes such as ``melded``), its
  hand as backs, or face up where the view may show it; the seat to act is outlined in yellow;
* right: the stock (a back with its count), the discard top and the pile's size, the family's
  extras (the Indian indicator, the Gin upcard and knock limit ...), a banner for a claim
  window, a knock or the end of the deal; below them the table's melds grouped by owner;
* bottom: the viewer's hand, large, with :func:`~rummy_env.render.view.hand_summary`.

Wild cards (jokers, wild ranks) are drawn on gold; on the table a wild card shows the card it
stands for in its corner, with the physical card ("JK", "2D") in its middle.
"""

from __future__ import annotations

from functools import cache, lru_cache
from typing import Any

import numpy as np

from rummy_env.cards import JOKER, RANK_TEXT, card_str, rank_of, suit_of
from rummy_env.render.view import MeldPicture, SeatPanel, TableView

WIDTH, HEIGHT = 1280, 720
FELT = (28, 84, 52)
FELT_DARK = (18, 56, 34)
PANEL = (22, 70, 42)
INK = (245, 245, 235)
DIM = (190, 210, 195)
YELLOW = (250, 210, 60)
RED = (200, 30, 40)
BLACK = (25, 25, 30)
JOKER_INK = (120, 40, 150)
PAPER = (252, 252, 248)
GOLD = (255, 226, 140)
GOLD_EDGE = (190, 140, 20)
BACK = (38, 70, 140)
BACK_LINE = (90, 125, 200)
BADGE_SEAT = (40, 90, 170)
BADGE_ABOVE = (180, 40, 40)
BANNER = (255, 240, 170)

_SS = 3  # supersampling of card images (drawn large, then reduced: smooth edges)

HAND_CARD = (58, 82)
TABLE_CARD = (40, 56)
PILE_CARD = (52, 74)


def _pil() -> Any:
    try:
        from PIL import Image, ImageDraw, ImageFont
    except ImportError as e:  # pragma: no cover - Pillow is a dependency
        raise ImportError("render_mode='rgb_array' needs Pillow: pip install pillow") from e
    return Image, ImageDraw, ImageFont


@cache
def font(size: int) -> Any:
    """Pillow's default font at ``size`` pixels (its bitmap font where FreeType is missing)."""
    _, _, ImageFont = _pil()
    try:
        return ImageFont.load_default(size=size)
    except (TypeError, AttributeError, OSError):  # Pillow < 10.1 or no FreeType
        return ImageFont.load_default()


@lru_cache(maxsize=8192)
def _text_mask(s: str, size: int) -> Any:
    """The coverage mask of ``s`` at ``size`` (text is drawn once per label, then pasted:
    FreeType rendering is most of a frame's cost otherwise)."""
    Image, ImageDraw, _ = _pil()
    f = font(size)
    left, top, right, bottom = f.getbbox(s)
    mask = Image.new("L", (max(1, int(right) + 2), max(1, int(bottom) + 2)), 0)
    ImageDraw.Draw(mask).text((0, 0), s, font=f, fill=255)
    return mask


# --------------------------------------------------------------------------- suit shapes
def _suit(d: Any, suit: int, cx: float, cy: float, s: float, fill: tuple[int, int, int]) -> None:
    """Draw suit ``suit`` (0 C, 1 D, 2 H, 3 S) centred at ``(cx, cy)``, ``s`` pixels tall."""
    h = s / 2
    if suit == 1:  # diamond
        d.polygon([(cx, cy - h), (cx + s * 0.38, cy), (cx, cy + h), (cx - s * 0.38, cy)],
                  fill=fill)
        return
    r = s * 0.26
    if suit == 2:  # heart: two lobes and a point
        for dx in (-r, r):
            d.ellipse([cx + dx - r, cy - h * 0.55 - r * 0.6, cx + dx + r, cy - h * 0.55 + r * 1.4],
                      fill=fill)
        d.polygon([(cx - 2 * r, cy - h * 0.2), (cx + 2 * r, cy - h * 0.2), (cx, cy + h)],
                  fill=fill)
        return
    stem = [(cx, cy + h * 0.1), (cx - s * 0.2, cy + h), (cx + s * 0.2, cy + h)]
    if suit == 3:  # spade: an upside-down heart on a stem
        for dx in (-r, r):
            d.ellipse([cx + dx - r, cy + h * 0.05 - r * 1.1, cx + dx + r, cy + h * 0.05 + r * 0.9],
                      fill=fill)
        d.polygon([(cx - 2 * r, cy - h * 0.05), (cx + 2 * r, cy - h * 0.05), (cx, cy - h)],
                  fill=fill)
    else:  # club: three leaves on a stem
        c = s * 0.22
        for dx, dy in ((0, -h * 0.45), (-s * 0.24, h * 0.08), (s * 0.24, h * 0.08)):
            d.ellipse([cx + dx - c, cy + dy - c, cx + dx + c, cy + dy + c], fill=fill)
    d.polygon(stem, fill=fill)


def _star(d: Any, cx: float, cy: float, r: float, fill: tuple[int, int, int]) -> None:
    import math

    pts = []
    for k in range(10):
        rad = r if k % 2 == 0 else r * 0.45
        a = -math.pi / 2 + k * math.pi / 5
        pts.append((cx + rad * math.cos(a), cy + rad * math.sin(a)))
    d.polygon(pts, fill=fill)


def _ink(t: int) -> tuple[int, int, int]:
    if t == JOKER:
        return JOKER_INK
    return RED if suit_of(t) in (1, 2) else BLACK


# --------------------------------------------------------------------------- cards
@lru_cache(maxsize=4096)
def card_image(t: int, w: int, h: int, wild: bool = False, stands: int | None = None) -> Any:
    """A ``w x h`` card face of type ``t``. ``wild``: on gold. ``stands``: a wild card on the
    table, whose corner shows the card it stands for and whose middle shows ``t`` itself."""
    Image, ImageDraw, _ = _pil()
    W, H = w * _SS, h * _SS
    img = Image.new("RGBA", (W, H), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    gold = wild or stands is not None
    d.rounded_rectangle([0, 0, W - 1, H - 1], radius=W // 9,
                        fill=GOLD if gold else PAPER,
                        outline=GOLD_EDGE if gold else (120, 120, 120), width=max(_SS, W // 22))
    corner = t if stands is None else stands
    fs = int(H * 0.27)
    x0, y0 = W * 0.07, H * 0.04
    if corner == JOKER:
        d.text((x0, y0), "JK", font=font(fs), fill=JOKER_INK)
        _star(d, W * 0.5, H * 0.62, W * 0.28, JOKER_INK)
        return img.resize((w, h), Image.LANCZOS)
    ink = _ink(corner)
    d.text((x0, y0), RANK_TEXT[rank_of(corner)], font=font(fs), fill=ink)
    _suit(d, suit_of(corner), x0 + fs * 0.4, y0 + fs * 1.6, fs * 0.8, ink)
    if stands is None:
        _suit(d, suit_of(t), W * 0.6, H * 0.64, H * 0.36, ink)
        if wild:
            _star(d, W * 0.8, H * 0.14, W * 0.1, GOLD_EDGE)
    else:  # the physical wild card, small, under the corner (seen in an overlapping fan)
        d.text((x0, H * 0.63), card_str(t), font=font(int(H * 0.19)), fill=_ink(t))
        _star(d, W * 0.8, H * 0.14, W * 0.1, GOLD_EDGE)
    return img.resize((w, h), Image.LANCZOS)


@lru_cache(maxsize=64)
def back_image(w: int, h: int) -> Any:
    """A ``w x h`` card back: a blue lattice inside a white frame."""
    Image, ImageDraw, _ = _pil()
    W, H = w * _SS, h * _SS
    img = Image.new("RGBA", (W, H), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    d.rounded_rectangle([0, 0, W - 1, H - 1], radius=W // 9, fill=PAPER, outline=(90, 90, 90),
                        width=max(_SS, W // 22))
    m = W // 9
    d.rounded_rectangle([m, m, W - 1 - m, H - 1 - m], radius=W // 14, fill=BACK)
    step = max(6, W // 6)
    for k in range(-H, W + H, step):
        d.line([(k, m), (k + H, m + H)], fill=BACK_LINE, width=max(1, _SS))
        d.line([(k + H, m), (k, m + H)], fill=BACK_LINE, width=max(1, _SS))
    d.rectangle([0, 0, W, m], fill=PAPER)  # re-frame over the lattice's ends
    d.rectangle([0, H - m, W, H], fill=PAPER)
    d.rectangle([0, 0, m, H], fill=PAPER)
    d.rectangle([W - m, 0, W, H], fill=PAPER)
    d.rounded_rectangle([0, 0, W - 1, H - 1], radius=W // 9, outline=(90, 90, 90),
                        width=max(_SS, W // 22))
    mask = Image.new("L", (W, H), 0)
    ImageDraw.Draw(mask).rounded_rectangle([0, 0, W - 1, H - 1], radius=W // 9, fill=255)
    img.putalpha(mask)
    return img.resize((w, h), Image.LANCZOS)


def _fan_step(n: int, w: int, room: int, gap: int = 4) -> int:
    """Distance between the left edges of ``n`` cards of width ``w`` in ``room`` pixels."""
    if n <= 1:
        return w + gap
    return max(1, min(w + gap, (room - w) // (n - 1)))


def _fan(img: Any, cards: tuple[int, ...], x: int, y: int, w: int, h: int, room: int,
         wild: frozenset[int], stands: tuple[int | None, ...] | None = None) -> int:
    """Cards face up from ``(x, y)``, overlapping to fit ``room``; returns the width used."""
    if not cards:
        return 0
    step = _fan_step(len(cards), w, room)
    for i, t in enumerate(cards):
        s = stands[i] if stands else None
        face = card_image(t, w, h, wild=t in wild and s is None, stands=s)
        img.paste(face, (x + i * step, y), face)
    return step * (len(cards) - 1) + w


def _backs(img: Any, n: int, x: int, y: int, w: int, h: int, room: int, shown: int = 14) -> int:
    """Up to ``shown`` backs standing for ``n`` hidden cards; returns the width used."""
    k = min(n, shown)
    if k == 0:
        return 0
    step = min(_fan_step(k, w, room), max(3, w // 4))
    back = back_image(w, h)
    for i in range(k):
        img.paste(back, (x + i * step, y), back)
    return step * (k - 1) + w


# --------------------------------------------------------------------------- the frame
@lru_cache(maxsize=8192)
def _fit(s: str, size: int, max_w: float | None) -> tuple[str, float]:
    """``s`` cut with an ellipsis to ``max_w`` pixels, and its width."""
    f = font(size)
    if max_w is not None and f.getlength(s) > max_w:
        while s and f.getlength(s + "...") > max_w:
            s = s[:-1]
        s += "..."
    return s, float(f.getlength(s))


def _text(img: Any, xy: tuple[float, float], s: str, size: int,
          fill: tuple[int, int, int] = INK, max_w: float | None = None) -> float:
    """Draw ``s`` (cut with an ellipsis to ``max_w``) on ``img``; returns its width."""
    s, width = _fit(s, size, max_w)
    if s:
        img.paste(fill, (int(xy[0]), int(xy[1])), _text_mask(s, size))
    return width


def _wrap(d: Any, s: str, f: Any, max_w: float) -> list[str]:
    """``s`` broken at spaces into lines no wider than ``max_w`` (a longer word stays whole)."""
    lines: list[str] = []
    for word in s.split(" "):
        if lines and d.textlength(lines[-1] + " " + word, font=f) <= max_w:
            lines[-1] += " " + word
        else:
            lines.append(word)
    return lines


def _badge(d: Any, right: int, y: int, s: str, fill: tuple[int, int, int]) -> None:
    f = font(15)
    tw = d.textlength(s, font=f)
    d.rounded_rectangle([right - tw - 20, y, right, y + 26], radius=8, fill=fill)
    d.text((right - tw - 10, y + 4), s, font=f, fill=(255, 255, 255))


def _seat_panel(img: Any, d: Any, p: SeatPanel, box: tuple[int, int, int, int], view: TableView,
                ) -> None:
    """One seat's panel: name and tags on a line with the cards below, or, in a short panel
    (many seats), name and tags in a column at the left with the cards beside them."""
    x0, y0, x1, y1 = box
    d.rounded_rectangle(box, radius=8, fill=PANEL, outline=YELLOW if p.acting else FELT_DARK,
                        width=3 if p.acting else 1)
    you = " (you)" if view.viewer == p.seat else ""
    tags = [p.score, f"{p.hand_size} card{'' if p.hand_size == 1 else 's'}", *p.notes]
    if p.dealer:
        tags.append("dealer")
    head = f"{p.name}{you}"
    ink = YELLOW if p.acting else INK
    if y1 - y0 < 76:  # compact
        _text(img, (x0 + 8, y0 + 3), head, 14, ink, max_w=116)
        _text(img, (x0 + 8, y0 + 21), "  ".join(tags), 11, DIM, max_w=116)
        cx, cy, ch = x0 + 130, y0 + 4, y1 - y0 - 8
    else:
        wname = _text(img, (x0 + 8, y0 + 4), head, 15, ink)
        _text(img, (x0 + 16 + wname, y0 + 5), "   ".join(tags), 13, DIM,
              max_w=x1 - x0 - 28 - wname)
        cx, cy, ch = x0 + 8, y0 + 23, y1 - y0 - 28
    cw = int(ch * 0.71)
    room = x1 - cx - 8
    if p.cards is not None and view.viewer == p.seat and view.hand_seat == p.seat:
        _text(img, (cx + 2, cy + ch / 2 - 8), "hand shown below", 13, DIM)
    elif p.cards is not None:
        _fan(img, p.cards, cx, cy, cw, ch, room, view.wild)
    else:
        used = _backs(img, p.hand_size, cx, cy, cw, ch, room - 50)
        if p.hand_size:
            _text(img, (cx + 8 + used, cy + ch / 2 - 9), f"x {p.hand_size}", 15, INK)


def _pile(img: Any, d: Any, x: int, y: int, label: str, face: int | None, backs: bool) -> int:
    w, h = PILE_CARD
    if backs:
        back = back_image(w, h)
        img.paste(back, (x, y), back)
    elif face is not None:
        c = card_image(face, w, h)
        img.paste(c, (x, y), c)
    else:
        d.rounded_rectangle([x, y, x + w, y + h], radius=6, outline=DIM, width=1)
    tw = _text(img, (x, y + h + 4), label, 13, INK)
    return int(max(w, tw)) + 18


def _meld_width(m: MeldPicture, w: int) -> int:
    return int(w + (len(m.cards) - 1) * w * 0.5)


def _layout_melds(melds: tuple[MeldPicture, ...], x0: int, x1: int, w: int, h: int,
                  grouped: bool) -> tuple[list[tuple[str | None, int]],
                                          list[tuple[MeldPicture, int, int]], int]:
    """Positions of owner labels and melds (relative y), and the height used."""
    labels: list[tuple[str | None, int]] = []
    placed: list[tuple[MeldPicture, int, int]] = []
    owners: list[int | None] = []
    for m in melds:
        if m.owner not in owners:
            owners.append(m.owner)
    if not grouped:
        owners = [None]
    y = 0
    line_h = h + 10
    for owner in owners:
        group = [m for m in melds if not grouped or m.owner == owner]
        label = f"player_{owner}" if grouped and owner is not None else None
        x = x0 + (92 if grouped else 0)
        labels.append((label, y))
        for m in group:
            mw = _meld_width(m, w)
            if x + mw > x1 and x > x0 + (92 if grouped else 0):
                y += line_h
                x = x0 + (92 if grouped else 0)
            placed.append((m, x, y))
            x += mw + 14
        y += line_h
    return labels, placed, y


def _table(img: Any, d: Any, view: TableView, box: tuple[int, int, int, int]) -> None:
    x0, y0, x1, y1 = box
    _text(img, (x0, y0), view.table_label, 14, DIM)
    y0 += 22
    if not view.melds:
        return
    grouped = any(m.owner is not None for m in view.melds)
    w, h = TABLE_CARD
    for scale in (1.0, 0.85, 0.72, 0.62, 0.54, 0.46):
        cw, chh = int(w * scale), int(h * scale)
        labels, placed, used = _layout_melds(view.melds, x0, x1, cw, chh, grouped)
        if used <= y1 - y0:
            break
    for label, ly in labels:
        if label is not None and y0 + ly < y1:
            _text(img, (x0, y0 + ly + chh / 2 - 9), label, 14, INK)
    for m, mx, my in placed:
        if y0 + my + chh > y1:
            continue  # no room left (never reached by play: the scales above fit it)
        step = max(1, int(cw * 0.5))
        for i, t in enumerate(m.cards):
            s = m.stands[i]
            face = card_image(t, cw, chh, wild=False, stands=s)
            img.paste(face, (mx + i * step, y0 + my), face)


def draw(view: TableView, caption: str | None = None) -> np.ndarray:
    """The picture of ``view``: a ``(HEIGHT, WIDTH, 3)`` uint8 array; ``caption`` (a replay's
    step and next move) goes on the bottom line."""
    Image, ImageDraw, _ = _pil()
    img = Image.new("RGB", (WIDTH, HEIGHT), FELT)
    d = ImageDraw.Draw(img)
    _top_bar(img, d, view)
    # seats
    top, bottom = 74, HEIGHT - 168
    n = len(view.seats)
    ph = min(104, (bottom - top) // n)
    for k, p in enumerate(view.seats):
        _seat_panel(img, d, p, (8, top + k * ph, 372, top + (k + 1) * ph - 4), view)
    _piles(img, d, view, 390, top)
    # table
    _table(img, d, view, (390, top + PILE_CARD[1] + 34, WIDTH - 12, bottom - 6))
    _hand(img, d, view, bottom)
    if caption:
        _text(img, (12, HEIGHT - 24), caption, 15, YELLOW, max_w=WIDTH - 360)
    if view.wild:
        _text(img, (WIDTH - 330, HEIGHT - 20),
              "gold: wild (on the table: shows what it stands for)", 12, DIM)
    return np.asarray(img, dtype=np.uint8)


def _top_bar(img: Any, d: Any, view: TableView) -> None:
    """The title, the status line and whose view it is."""
    d.rectangle([0, 0, WIDTH, 66], fill=FELT_DARK)
    if view.reveal:
        badge, colour = "VIEW FROM ABOVE: all hands shown", BADGE_ABOVE
    else:
        badge, colour = f"player_{view.viewer}'s view", BADGE_SEAT
    f = font(15)
    bw = d.textlength(badge, font=f) + 30
    _text(img, (12, 8), view.title, 20, INK, max_w=WIDTH - bw - 30)
    _text(img, (12, 40), view.status, 15, DIM, max_w=WIDTH - 24)
    _badge(d, WIDTH - 10, 8, badge, colour)


def _piles(img: Any, d: Any, view: TableView, x: int, y: int) -> None:
    """The stock, the discard pile and the extras from ``(x, y)`` rightwards, then the
    banner right of the piles, under the extras' text, wrapped to fit."""
    top = y
    x += _pile(img, d, x, y, f"stock {view.stock}", None, backs=view.stock > 0)
    if view.discard_size is not None:
        x += _pile(img, d, x, y, f"discard pile {view.discard_size}", view.discard_top, False)
    ex_y = y
    for label, t in view.extras:
        if t is not None:
            x += _pile(img, d, x, y, label, t, False)
    for label, t in view.extras:
        if t is None:
            _text(img, (x, ex_y), label, 14, INK, max_w=WIDTH - x - 10)
            ex_y += 20
    if view.banner:
        f = font(15)
        lines = _wrap(d, view.banner, f, WIDTH - x - 30)
        by = max(ex_y + 6, top + 8)
        tw = max(d.textlength(line, font=f) for line in lines)
        d.rounded_rectangle([x - 6, by - 4, x + tw + 10, by + 20 * len(lines) + 2], radius=6,
                            fill=BANNER)
        for k, line in enumerate(lines):
            d.text((x + 2, by + 20 * k), line, font=f, fill=BLACK)


def _hand(img: Any, d: Any, view: TableView, bottom: int) -> None:
    """The hand shown at the bottom (the viewer's, or the acting seat's from above)."""
    d.rectangle([0, bottom, WIDTH, HEIGHT], fill=FELT_DARK)
    hs = view.hand_seat
    if hs is None:
        return
    p = view.seats[hs]
    who = f"your hand: player_{hs}" if not view.reveal else (
        f"hand of player_{hs}" + (" (to act)" if p.acting else ""))
    label = f"{who}   {p.hand_size} cards   {view.hand_note}"
    _text(img, (12, bottom + 6), label, 16, YELLOW if p.acting else INK, max_w=WIDTH - 24)
    w, h = HAND_CARD
    cards = view.hand
    if cards and _fan_step(len(cards), w, WIDTH - 24) < 16:
        w, h = 44, 62  # a very large hand: smaller cards so every corner shows
    _fan(img, cards, 12, bottom + 32, w, h, WIDTH - 24, view.wild)


__all__ = ["HEIGHT", "WIDTH", "back_image", "card_image", "draw", "font"]
