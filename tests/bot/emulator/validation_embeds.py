"""Discord's embed limits: per field, per embed, and 6000 characters over a message."""

from __future__ import annotations

from typing import Any

from .form_errors import FormErrors, Path

MAX_EMBEDS = 10
MAX_FIELDS = 25
MAX_TOTAL = 6000
MAX_COLOR = 0xFFFFFF
LINK_SCHEMES = ("http", "https")
MEDIA_SCHEMES = ("http", "https", "attachment")
URL_FIELDS: tuple[tuple[tuple[str, ...], tuple[str, ...]], ...] = (
    (("url",), LINK_SCHEMES),
    (("author", "url"), LINK_SCHEMES),
    (("author", "icon_url"), MEDIA_SCHEMES),
    (("footer", "icon_url"), MEDIA_SCHEMES),
    (("image", "url"), MEDIA_SCHEMES),
    (("thumbnail", "url"), MEDIA_SCHEMES),
)


def check_embeds(errs: FormErrors, embeds: Any) -> None:
    """Record every embed rule broken by a message's `embeds` list."""
    if not isinstance(embeds, list):
        errs.add(["embeds"], "LIST_TYPE_CONVERT", "Only iterables may be used in a ListType")
        return
    if len(embeds) > MAX_EMBEDS:
        errs.add(["embeds"], "BASE_TYPE_MAX_LENGTH", f"Must be {MAX_EMBEDS} or fewer in length.")
    total = 0
    for i, embed in enumerate(embeds):
        path: Path = ["embeds", i]
        if not isinstance(embed, dict):
            errs.add(path, "MODEL_TYPE_CONVERT", "Only dictionaries may be used in a ModelType")
            continue
        total += _check_embed(errs, path, embed)
    if total > MAX_TOTAL:
        errs.add(
            ["embeds"], "MAX_EMBED_SIZE_EXCEEDED", f"Embed size exceeds maximum size of {MAX_TOTAL}"
        )


def _text(errs: FormErrors, path: Path, value: Any, limit: int) -> int:
    """Check an optional string; return the characters it counts toward the total."""
    if value is None:
        return 0
    if not errs.string(path, value):
        return 0
    errs.max_len(path, value, limit)
    return len(value)


def _check_embed(errs: FormErrors, path: Path, embed: dict[str, Any]) -> int:
    size = _text(errs, [*path, "title"], embed.get("title"), 256)
    size += _text(errs, [*path, "description"], embed.get("description"), 4096)
    color = embed.get("color")
    if color is not None:
        errs.int_range([*path, "color"], color, 0, MAX_COLOR)
    _check_urls(errs, path, embed)
    footer = embed.get("footer")
    if isinstance(footer, dict):
        if not footer.get("text"):
            errs.required([*path, "footer", "text"])
        size += _text(errs, [*path, "footer", "text"], footer.get("text"), 2048)
    author = embed.get("author")
    if isinstance(author, dict):
        if not author.get("name"):
            errs.required([*path, "author", "name"])
        size += _text(errs, [*path, "author", "name"], author.get("name"), 256)
    fields = embed.get("fields") or []
    if len(fields) > MAX_FIELDS:
        errs.add(
            [*path, "fields"], "BASE_TYPE_MAX_LENGTH", f"Must be {MAX_FIELDS} or fewer in length."
        )
    for j, fld in enumerate(fields):
        fpath: Path = [*path, "fields", j]
        for key, limit in (("name", 256), ("value", 1024)):
            text = fld.get(key) if isinstance(fld, dict) else None
            if not text:
                errs.required([*fpath, key])
            size += _text(errs, [*fpath, key], text, limit)
    return size


def _check_urls(errs: FormErrors, path: Path, embed: dict[str, Any]) -> None:
    """Links must be http(s); images and icons may also be `attachment://name`."""
    for keys, schemes in URL_FIELDS:
        node: Any = embed
        for key in keys:
            node = node.get(key) if isinstance(node, dict) else None
        if node is None:
            continue
        where: Path = [*path, *keys]
        if not errs.string(where, node):
            continue
        scheme, sep, rest = node.partition("://")
        if not sep or not rest:
            errs.add(where, "URL_TYPE_INVALID_URL", "Not a well formed URL.")
        elif scheme.lower() not in schemes:
            errs.add(
                where,
                "URL_TYPE_INVALID_SCHEME",
                f'Scheme "{scheme}" is not supported. Scheme must be one of {schemes}.',
            )
