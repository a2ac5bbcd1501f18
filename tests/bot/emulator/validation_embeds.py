"""Discord's embed rules that its OpenAPI spec does not carry.

The spec (`spec.py`) checks each field's type and length (title 256, description 4096,
footer text 2048, author name 256, field name 256 and value 1024), 10 embeds, 25 fields
and the 24-bit colour. What stays here is from
https://discord.com/developers/docs/resources/message#embed-object-embed-limits and the
embed object's field tables on the same page:
- 6000 characters over title, description, field names and values, footer text and
  author name of all the embeds of a message;
- a footer needs its text, an author its name, a field a non-empty name and value (the
  spec lets them be absent or empty);
- links are http(s); images and icons may also be `attachment://name` (the spec only
  says `format: uri`).
"""

from __future__ import annotations

from typing import Any

from .form_errors import FormErrors, Path

MAX_TOTAL = 6000
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


def check_embeds(errs: FormErrors, embeds: list[Any]) -> None:
    """Record every embed rule broken by a message's `embeds` list."""
    total = 0
    for i, embed in enumerate(embeds):
        if isinstance(embed, dict):
            total += _check_embed(errs, ["embeds", i], embed)
    if total > MAX_TOTAL:
        errs.add(
            ["embeds"], "MAX_EMBED_SIZE_EXCEEDED", f"Embed size exceeds maximum size of {MAX_TOTAL}"
        )


def _size(value: Any) -> int:
    """The characters a text field counts toward the 6000."""
    return len(value) if isinstance(value, str) else 0


def _check_embed(errs: FormErrors, path: Path, embed: dict[str, Any]) -> int:
    size = _size(embed.get("title")) + _size(embed.get("description"))
    _check_urls(errs, path, embed)
    footer = embed.get("footer")
    if isinstance(footer, dict):
        if not footer.get("text"):
            errs.required([*path, "footer", "text"])
        size += _size(footer.get("text"))
    author = embed.get("author")
    if isinstance(author, dict):
        if not author.get("name"):
            errs.required([*path, "author", "name"])
        size += _size(author.get("name"))
    fields = embed.get("fields")
    for j, fld in enumerate(fields if isinstance(fields, list) else []):
        for key in ("name", "value"):
            text = fld.get(key) if isinstance(fld, dict) else None
            if not text:
                errs.required([*path, "fields", j, key])
            size += _size(text)
    return size


def _check_urls(errs: FormErrors, path: Path, embed: dict[str, Any]) -> None:
    """Links must be http(s); images and icons may also be `attachment://name`."""
    for keys, schemes in URL_FIELDS:
        node: Any = embed
        for key in keys:
            node = node.get(key) if isinstance(node, dict) else None
        if not isinstance(node, str):
            continue
        where: Path = [*path, *keys]
        scheme, sep, rest = node.partition("://")
        if not sep or not rest:
            errs.add(where, "URL_TYPE_INVALID_URL", "Not a well formed URL.")
        elif scheme.lower() not in schemes:
            errs.add(
                where,
                "URL_TYPE_INVALID_SCHEME",
                f'Scheme "{scheme}" is not supported. Scheme must be one of {schemes}.',
            )
