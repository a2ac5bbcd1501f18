"""What players see, as a picture: the table message, a result and a cards DM, drawn by the
bot's own renderers with the card art as emoji, laid out like Discord and screenshotted.

    python tools/embed_preview.py [--out docs/images/table.png] [--html preview.html]

The embeds are the real ones (dealerbot.bot.table_plan / table_embeds / answers) for a
made-up hand; the emoji are the card art's PNGs as data URIs, so the page loads nothing.
The page is screenshotted with the system's headless Chromium (``/usr/bin/chromium``, no
network, a throw-away profile), cropped to what it shows and saved as a palette PNG.
The mock-up follows Discord's dark theme; it is a likeness, not Discord itself.
"""

from __future__ import annotations

import argparse
import base64
import html
import io
import re
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from anywhere

from PIL import Image

from dealerbot.bot import answers, markup
from dealerbot.bot.hand_story import Act
from dealerbot.bot.table_plan import result_payload, table_payload
from dealerbot.card_art import emoji_set
from dealerbot.tables import (
    ActionKind,
    Card,
    DeckStyle,
    OptionView,
    SeatView,
    StakesView,
    TablePhase,
    TableView,
    Variant,
)
from dealerbot.tables import events as ev

CHROMIUM = "/usr/bin/chromium"
NOW = 2_000_000_000.0  # the mock-up's "now", for Discord timestamps
WIDTH = 620  # pixels of the page (Discord's embeds are at most about 520 wide)
EMOJI_ID = 10**18  # made-up 19-digit ids, one per emoji of the card art
GUILD, CHANNEL, TABLE = 1, 2, 3
NAMES = {101: "alice", 102: "bob", 103: "carol", 104: "dave", 105: "erin"}
BACKGROUND = (49, 51, 56)  # Discord's dark theme, the message list


def learn_art() -> dict[str, str]:
    """Teach the bot the card art as the application's emoji; id -> data URI."""
    art = emoji_set()
    ids = {item.name: EMOJI_ID + i for i, item in enumerate(art)}
    markup.learn_card_emoji(ids.items())
    return {
        str(ids[item.name]): "data:image/png;base64," + base64.b64encode(item.png).decode()
        for item in art
    }


# --- a made-up hand --------------------------------------------------------------------


def cards(text: str) -> tuple[Card | None, ...]:
    return tuple(None if part == "??" else Card.parse(part) for part in text.split())


def seat(n: int, stack: int, shown: str, bet: int = 0, **flags: Any) -> SeatView:
    values: dict[str, Any] = {
        "seat": n,
        "user_id": 101 + n,
        "name": NAMES[101 + n],
        "stack": stack,
        "cards": cards(shown),
        "bet": bet,
        "in_hand": True,
        "folded": False,
        "all_in": False,
        "sitting_out": False,
        "leaving": False,
        "button": False,
        "to_act": False,
    }
    values.update(flags)
    return SeatView(**values)


def table_view() -> TableView:
    stakes = StakesView(Variant.STUD, "Seven Card Stud", 1, 2, 5, 10, 100, 1000, 8, 45.0, 5.0)
    seats = (
        seat(0, 182, "?? ?? Kh Kd 7c", bet=10),
        seat(1, 140, "?? ?? 9s 8s 2h", to_act=True),
        seat(2, 95, "?? ?? Qc 5d Jh", folded=True),
        seat(3, 210, "?? ?? Ah 10h 4h", bet=10),
        seat(4, 160, "?? ?? 3c", folded=True),
    )
    return TableView(
        guild_id=GUILD,
        channel_id=CHANNEL,
        table_id=TABLE,
        stakes=stakes,
        seats=seats,
        status=TablePhase.PLAYING,
        hand_id=41,
        hand_number=12,
        commitment="3f9c2a" + "0" * 58,
        street=5,
        pot=62,
        community=None,
        to_act_seat=1,
        to_act_user=102,
        deadline=NOW + 32,
        seq=17,
        next_hand_at=None,
        last_actions=(),
        deck=DeckStyle.CLASSIC,
    )


def act(street: int, who: str, kind: ActionKind, amount: int = 0, to: int = 0) -> Act:
    return Act(street, who, kind, amount, to, False, None)


ACTS = [
    act(3, "erin", ActionKind.BRING_IN, 2, 2),
    act(3, "alice", ActionKind.COMPLETE, 5, 5),
    act(3, "bob", ActionKind.CALL, 5, 5),
    act(3, "carol", ActionKind.CALL, 5, 5),
    act(3, "dave", ActionKind.CALL, 5, 5),
    act(3, "erin", ActionKind.FOLD),
    act(4, "alice", ActionKind.BET, 5, 5),
    act(4, "bob", ActionKind.CALL, 5, 5),
    act(4, "carol", ActionKind.FOLD),
    act(4, "dave", ActionKind.CALL, 5, 5),
    act(5, "alice", ActionKind.BET, 10, 10),
    act(5, "dave", ActionKind.CALL, 10, 10),
]


def turn(view: TableView) -> ev.Turn:
    options = (
        OptionView(ActionKind.FOLD, "Fold", 0, 0, False),
        OptionView(ActionKind.CALL, "Call 10", 10, 10, False),
        OptionView(ActionKind.RAISE, "Raise to 20", 20, 20, False),
    )
    return ev.Turn(
        guild_id=GUILD,
        channel_id=CHANNEL,
        hand_id=41,
        seq=17,
        seat=1,
        user_id=102,
        name="bob",
        options=options,
        to_call=10,
        deadline=NOW + 32,
        time_bank=0.0,
        street=5,
    )


def hand_ended() -> ev.HandEnded:
    def own(text: str) -> tuple[Card, ...]:
        return tuple(Card.parse(c) for c in text.split())

    alice = ev.ShownHand(
        0,
        101,
        "alice",
        own("Kh Kd 7c 7s 2d Kc 4s"),
        "Full house, kings full of sevens",
        None,
        high_cards=own("Kh Kd Kc 7c 7s"),
        idle_cards=own("2d 4s"),
    )
    dave = ev.ShownHand(
        3,
        104,
        "dave",
        own("Ah 10h 4h 6h 9c Qh 2c"),
        "Flush, ace high",
        None,
        high_cards=own("Ah Qh 10h 6h 4h"),
        idle_cards=own("9c 2c"),
    )
    pots = (ev.PotWon(0, 152, (0,), (), ((0, 152),)),)
    names = tuple((n, NAMES[101 + n]) for n in range(5))
    showdown = ev.Showdown(GUILD, CHANNEL, 41, (alice, dave), pots, None, names)
    players = tuple(ev.SeatedPlayer(n, 101 + n, NAMES[101 + n], 200) for n in range(5))
    return ev.HandEnded(
        GUILD,
        CHANNEL,
        hand_id=41,
        number=12,
        results=((101, 82), (102, -25), (103, -5), (104, -50), (105, -2)),
        final_stacks=(),
        cancelled=False,
        reason=None,
        commitment="3f9c2a" + "0" * 58,
        variant=Variant.STUD,
        players=players,
        showdown=showdown,
    )


def cards_dm() -> Any:
    seven = (Card.parse(c) for c in ["Ah", "10h", "4h", "6h", "9c", "Qh", "2c"])
    event = ev.PrivateCards(
        GUILD,
        CHANNEL,
        user_id=104,
        hand_id=41,
        street=7,
        cards=tuple(seven),
        face_up=(False, False, True, True, True, True, False),
        made="Flush, ace high",
    )
    return answers.private_cards_embed(
        event,
        number=12,
        where="#stud-table in Stud Club",
        variant_title="Seven Card Stud",
        link="https://discord.com/channels/1/2/3",
        commitment="3f9c2a" + "0" * 58,
        faces=markup.faces_for(DeckStyle.FOUR_COLOUR),
    )


# --- Discord's markdown, the part the bot writes -----------------------------------------

TOKEN = re.compile(r"<:(\w+):(\d+)>|<t:(\d+):\w>|<@!?(\d+)>|</([\w -]+):\d+>|\[([^\]]+)\]\([^)]+\)")


def inline(text: str, emoji: dict[str, str]) -> str:
    """The subset of Discord's markdown the bot's embeds use, as HTML."""
    slots: list[str] = []

    def keep(fragment: str) -> str:
        slots.append(fragment)
        return f"\x00{len(slots) - 1}\x00"

    def token(m: re.Match[str]) -> str:
        if m.group(1):
            src = emoji[m.group(2)]
            return keep(f'<img class="emoji" alt=":{m.group(1)}:" src="{src}">')
        if m.group(3):
            seconds = int(m.group(3)) - int(NOW)
            return keep(f'<span class="time">in {seconds} seconds</span>')
        if m.group(4):
            return keep(f'<span class="mention">@{NAMES.get(int(m.group(4)), "someone")}</span>')
        if m.group(5):
            return keep(f'<span class="mention">/{html.escape(m.group(5))}</span>')
        return keep(f"<a>{html.escape(m.group(6))}</a>")

    text = TOKEN.sub(token, text)
    text = re.sub(r"\\([*_~`|>\\])", lambda m: keep(html.escape(m.group(1))), text)
    text = re.sub(r"`([^`]+)`", lambda m: keep(f"<code>{html.escape(m.group(1))}</code>"), text)
    text = html.escape(text, quote=False)
    text = re.sub(r"\*\*(.+?)\*\*", r"<b>\1</b>", text)
    text = re.sub(r"~~(.+?)~~", r"<s>\1</s>", text)
    text = re.sub(r"(?<![\w*])\*(?!\s)(.+?)\*", r"<i>\1</i>", text)
    text = text.replace("\n", "<br>")
    return re.sub("\x00(\\d+)\x00", lambda m: slots[int(m.group(1))], text)


STYLES = {1: "primary", 2: "secondary", 3: "success", 4: "danger", 5: "secondary"}


def embed_html(embed: Any, emoji: dict[str, str], rows: list[Any] | None = None) -> str:
    data = embed.to_dict()
    colour = f"#{data.get('color', 0x2B2D31):06x}"
    md: Callable[[str], str] = lambda text: inline(text, emoji)  # noqa: E731
    parts = [f'<div class="embed" style="border-left-color:{colour}">']
    if data.get("title"):
        parts.append(f'<div class="title">{md(data["title"])}</div>')
    if data.get("description"):
        parts.append(f'<div class="desc">{md(data["description"])}</div>')
    fields = data.get("fields") or []
    if fields:
        parts.append('<div class="fields">')
        for field in fields:
            wide = "" if field.get("inline") else " wide"
            parts.append(
                f'<div class="field{wide}"><div class="fname">{md(field["name"])}</div>'
                f'<div class="fvalue">{md(field["value"])}</div></div>'
            )
        parts.append("</div>")
    if data.get("footer"):
        parts.append(f'<div class="footer">{html.escape(data["footer"]["text"])}</div>')
    parts.append("</div>")
    for row in rows or []:
        buttons = "".join(
            f'<span class="button {STYLES.get(b.get("style", 2), "secondary")}">'
            f"{html.escape(b.get('label') or '')}</span>"
            for b in row.get("components", [])
        )
        parts.append(f'<div class="row">{buttons}</div>')
    return "".join(parts)


CSS = """
body { margin: 0; background: rgb(49,51,56); font-family: 'DejaVu Sans', sans-serif;
  color: #dbdee1; font-size: 15px; width: %dpx; }
.message { display: flex; padding: 10px 16px 6px 16px; }
.avatar { width: 40px; height: 40px; border-radius: 50%%; background: #5865f2; color: white;
  flex: none; display: flex; align-items: center; justify-content: center; font-weight: bold;
  margin-right: 14px; }
.who { font-weight: 600; color: #f2f3f5; }
.who .tag { background: #5865f2; color: white; font-size: 10px; border-radius: 3px;
  padding: 1px 4px; margin-left: 4px; vertical-align: 2px; }
.note { color: #949ba4; font-size: 12px; margin-left: 6px; font-weight: normal; }
.caption { color: #949ba4; font-size: 12px; padding: 8px 16px 0 70px; text-transform: uppercase;
  letter-spacing: .04em; }
.embed { background: #2b2d31; border-left: 4px solid; border-radius: 4px;
  padding: 8px 16px 12px 12px; margin-top: 4px; max-width: 500px; line-height: 1.45; }
.title { font-weight: 600; color: #f2f3f5; margin: 4px 0 6px; }
.desc { font-size: 14px; }
.fields { display: flex; flex-wrap: wrap; gap: 6px 18px; margin-top: 8px; }
.field { min-width: 100px; font-size: 14px; } .field.wide { flex-basis: 100%%; }
.fname { font-weight: 600; color: #f2f3f5; margin-bottom: 2px; }
.footer { color: #b5bac1; font-size: 12px; margin-top: 8px; }
code { background: #1e1f22; border-radius: 3px; padding: 0 3px; font-size: 13px;
  font-family: 'DejaVu Sans Mono', monospace; }
img.emoji { width: 22px; height: 22px; vertical-align: -5px; }
.mention { background: rgba(88,101,242,.3); color: #c9cdfb; border-radius: 3px; padding: 0 2px; }
.time { background: #1e1f22; border-radius: 3px; padding: 0 2px; }
a { color: #00a8fc; }
.row { display: flex; gap: 8px; margin-top: 8px; }
.button { border-radius: 3px; padding: 5px 14px; font-size: 14px; color: white; }
.primary { background: #5865f2; } .secondary { background: #4e5058; }
.success { background: #248046; } .danger { background: #da373c; }
"""


def page(emoji: dict[str, str]) -> str:
    view = table_view()
    table = table_payload(view, turn(view), 1, ACTS, [])
    rows = table.view.to_components() if table.view is not None else []
    result = result_payload(hand_ended(), ACTS, view)
    result_rows = result.view.to_components() if result.view is not None else []
    blocks = [
        ("The table message (classic deck)", embed_html(table.embeds[0], emoji, rows)),
        ("The hand's result", embed_html(result.embeds[0], emoji, result_rows)),
        ("dave's cards DM (his own choice: four-colour)", embed_html(cards_dm(), emoji)),
    ]
    body = "".join(
        f'<div class="caption">{html.escape(caption)}</div><div class="message">'
        '<div class="avatar">D</div><div><div class="who">dealerbot<span class="tag">APP</span>'
        f'<span class="note">Today at 21:04</span></div>{content}</div></div>'
        for caption, content in blocks
    )
    return f"<!doctype html><meta charset='utf-8'><style>{CSS % WIDTH}</style><body>{body}"


def screenshot(html_text: str, out: Path) -> None:
    """Headless Chromium, no network, a throw-away profile; cropped; a palette PNG."""
    chromium = shutil.which("chromium") or CHROMIUM
    with tempfile.TemporaryDirectory() as tmp:
        source = Path(tmp) / "preview.html"
        source.write_text(html_text, encoding="utf-8")
        shot = Path(tmp) / "shot.png"
        subprocess.run(
            [
                chromium,
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--no-first-run",
                "--hide-scrollbars",
                f"--user-data-dir={Path(tmp) / 'profile'}",
                f"--screenshot={shot}",
                f"--window-size={WIDTH},2400",
                source.as_uri(),
            ],
            check=True,
            capture_output=True,
            timeout=120,
        )
        image = Image.open(shot).convert("RGB")
    bottom = image.height
    while bottom > 1 and all(
        image.getpixel((x, bottom - 1)) == BACKGROUND for x in range(0, image.width, 4)
    ):
        bottom -= 1
    image = image.crop((0, 0, image.width, min(image.height, bottom + 12)))
    buffer = io.BytesIO()
    image.quantize(colors=128, method=Image.Quantize.MEDIANCUT).save(buffer, "PNG", optimize=True)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_bytes(buffer.getvalue())


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=Path("docs/images/table.png"))
    parser.add_argument("--html", type=Path, help="also write the HTML mock-up here")
    args = parser.parse_args(argv)
    text = page(learn_art())
    if args.html is not None:
        args.html.write_text(text, encoding="utf-8")
    screenshot(text, args.out)
    print(f"wrote {args.out} ({args.out.stat().st_size:,} bytes)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
