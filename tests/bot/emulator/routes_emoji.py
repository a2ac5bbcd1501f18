"""REST routes for the application's own emoji: list, create, get, modify, delete.

Rules and their sources (each refusal in Discord's shape; a code's message where Discord's
answer was not seen is marked "unconfirmed": tests assert the status, code and path):
- the name's length, 2 to 32: the spec (Create/UpdateApplicationEmojiRequest.name has
  minLength 2, maxLength 32), checked by `rest.py` before any handler; Discord's answer is
  50035 BASE_TYPE_BAD_LENGTH "Must be between 2 and 32 in length." (quoted from a real
  answer in discord.py pull request 10072);
- the name's characters, letters, digits and _: Discord's emoji object documentation
  ("can only contain alphanumeric characters and underscores"); 50035 STRING_TYPE_REGEX
  on `name` (the code bot authors match on in Discord's answers; message unconfirmed);
- one name once per application: 50035 APPLICATION_EMOJI_NAME_ALREADY_TAKEN on `name`
  (the code clients match on when they re-upload; message unconfirmed);
- `image` is a data URI ("data:image/png;base64,..."): 50035 BINARY_TYPE_INVALID_DATA_URI
  "Only data uri strings can be used." (a real answer, quoted in taniiicom/emorize#25);
- the decoded image is JPEG, PNG, GIF, WebP or AVIF (docs, Emoji Formats), judged by its
  magic bytes, not by the type the URI claims: 50035 IMAGE_INVALID on `image` (the code
  clients match on; message unconfirmed);
- at most 256 KiB decoded (docs, Create Application Emoji: "maximum file size of 256
  KiB"): 400 50138 "Failed to resize asset below the maximum size: 262144" (Discord's
  error table). Discord may first try to shrink a bigger image; the emulator refuses it
  outright, so a bot that relied on that shrinking fails here;
- at most 2,000 emoji per application (docs, Application-Owned Emoji: "up to 2000"):
  400 30008 "Maximum number of emojis reached" (Discord's table has no code of its own
  for application emoji; 30056 is the 25 premium emoji of a guild);
- an emoji id the application does not own: 404 10014 "Unknown Emoji"; another
  application's id: 403 50001, as the command routes answer.
"""

from __future__ import annotations

import base64
import binascii
import re

from .context import Context
from .errors import ApiError, missing_access
from .form_errors import FormErrors
from .models import JSON
from .payloads import user_payload
from .rest import Reply, Req, RestPipeline
from .world import AppEmoji

LIST = "/applications/{application_id}/emojis"
ONE = "/applications/{application_id}/emojis/{emoji_id}"
IMAGE_BYTES = 256 * 1024
PER_APPLICATION = 2000
NAME = re.compile(r"[A-Za-z0-9_]+")
INVALID_DATA_URI = ("BINARY_TYPE_INVALID_DATA_URI", "Only data uri strings can be used.")
DATA_URI = re.compile(r"data:(image/[A-Za-z0-9.+-]+);base64,(.*)", re.DOTALL)


def image_type(data: bytes) -> str | None:
    """The image format from its first bytes (JPEG, PNG, GIF, WebP, AVIF), else None."""
    if data.startswith(b"\x89PNG\r\n\x1a\n"):
        return "image/png"
    if data.startswith(b"\xff\xd8\xff"):
        return "image/jpeg"
    if data.startswith((b"GIF87a", b"GIF89a")):
        return "image/gif"
    if data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        return "image/webp"
    if data[4:8] == b"ftyp" and data[8:12] in (b"avif", b"avis"):
        return "image/avif"
    return None


def unknown_emoji() -> ApiError:
    return ApiError(404, 10014, "Unknown Emoji")


def too_many_emoji() -> ApiError:
    return ApiError(400, 30008, "Maximum number of emojis reached")


def image_too_large() -> ApiError:
    return ApiError(400, 50138, f"Failed to resize asset below the maximum size: {IMAGE_BYTES}")


def emoji_payload(ctx: Context, emoji: AppEmoji) -> JSON:
    """An emoji object as the application routes answer it (with its uploader)."""
    data: JSON = {
        "id": str(emoji.id),
        "name": emoji.name,
        "roles": [],
        "require_colons": True,
        "managed": False,
        "animated": False,  # the emulator does not read frames
        "available": True,
    }
    uploader = ctx.world.users.get(emoji.user_id) if emoji.user_id is not None else None
    if uploader is not None:
        data["user"] = user_payload(uploader)
    return data


def register(pipe: RestPipeline, ctx: Context) -> None:
    """Add the routes of this module."""
    world = ctx.world

    def owned(req: Req) -> dict[int, AppEmoji]:
        if req.params["application_id"] != str(ctx.config.application_id):
            raise missing_access()
        return world.application_emojis

    def find(req: Req) -> AppEmoji:
        owned(req)
        emoji = world.application_emoji(req.params["emoji_id"])
        if emoji is None:
            raise unknown_emoji()
        return emoji

    def check_name(errs: FormErrors, name: object, keep: AppEmoji | None = None) -> None:
        """Characters and uniqueness (the length is the spec's, checked already)."""
        if not isinstance(name, str):
            return
        if NAME.fullmatch(name) is None:
            errs.add(["name"], "STRING_TYPE_REGEX", "String value did not match validation regex.")
        elif any(e.name == name and e is not keep for e in world.application_emojis.values()):
            errs.add(["name"], "APPLICATION_EMOJI_NAME_ALREADY_TAKEN", "Emoji name already taken")

    def decoded_image(errs: FormErrors, value: object) -> tuple[bytes, str] | None:
        found = DATA_URI.fullmatch(value) if isinstance(value, str) else None
        try:
            data = base64.b64decode(found.group(2), validate=True) if found else None
        except binascii.Error:
            data = None
        if data is None:
            errs.add(["image"], *INVALID_DATA_URI)
            return None
        kind = image_type(data)
        if kind is None:
            errs.add(["image"], "IMAGE_INVALID", "Invalid image data")
            return None
        return data, kind

    async def list_emoji(req: Req) -> Reply:
        return Reply({"items": [emoji_payload(ctx, e) for e in owned(req).values()]})

    async def create_emoji(req: Req) -> Reply:
        store = owned(req)
        errs = FormErrors()
        check_name(errs, req.body.get("name"))
        image = decoded_image(errs, req.body.get("image"))
        errs.raise_if_any()
        assert image is not None
        data, kind = image
        if len(data) > IMAGE_BYTES:
            raise image_too_large()
        if len(store) >= PER_APPLICATION:
            raise too_many_emoji()
        emoji = AppEmoji(
            id=ctx.ids.next(),
            name=str(req.body["name"]),
            image=data,
            content_type=kind,
            user_id=world.bot_user.id,
        )
        store[emoji.id] = emoji
        ctx.notifier.notify()
        return Reply(emoji_payload(ctx, emoji), 201)

    async def get_emoji(req: Req) -> Reply:
        return Reply(emoji_payload(ctx, find(req)))

    async def edit_emoji(req: Req) -> Reply:
        emoji = find(req)
        if "name" in req.body:
            errs = FormErrors()
            check_name(errs, req.body["name"], keep=emoji)
            errs.raise_if_any()
            emoji.name = str(req.body["name"])
            ctx.notifier.notify()
        return Reply(emoji_payload(ctx, emoji))

    async def delete_emoji(req: Req) -> Reply:
        emoji = find(req)
        del world.application_emojis[emoji.id]
        ctx.notifier.notify()
        return Reply(None, 204)

    pipe.add("GET", LIST, list_emoji)
    pipe.add("POST", LIST, create_emoji)
    pipe.add("GET", ONE, get_emoji)
    pipe.add("PATCH", ONE, edit_emoji)
    pipe.add("DELETE", ONE, delete_emoji)
