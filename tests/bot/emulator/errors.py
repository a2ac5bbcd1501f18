"""Discord's JSON errors: `ApiError` is raised by handlers and rendered by the middleware."""

from __future__ import annotations

from typing import Any

JSON = dict[str, Any]


class ApiError(Exception):
    """An error response: HTTP status plus Discord's JSON code and message."""

    def __init__(
        self,
        status: int,
        code: int,
        message: str,
        *,
        errors: JSON | None = None,
        extra: JSON | None = None,
    ) -> None:
        super().__init__(f"{status} {code} {message}")
        self.status = status
        self.code = code
        self.message = message
        self.errors = errors
        self.extra = extra or {}

    def body(self) -> JSON:
        """The JSON body Discord would send."""
        data: JSON = {"message": self.message, "code": self.code}
        if self.errors:
            data["errors"] = self.errors
        data.update(self.extra)
        return data


def unknown_channel() -> ApiError:
    return ApiError(404, 10003, "Unknown Channel")


def unknown_guild() -> ApiError:
    return ApiError(404, 10004, "Unknown Guild")


def unknown_member() -> ApiError:
    return ApiError(404, 10007, "Unknown Member")


def unknown_message() -> ApiError:
    return ApiError(404, 10008, "Unknown Message")


def unknown_user() -> ApiError:
    return ApiError(404, 10013, "Unknown User")


def unknown_webhook() -> ApiError:
    return ApiError(404, 10015, "Unknown Webhook")


def unknown_command() -> ApiError:
    return ApiError(404, 10063, "Unknown application command")


def unknown_interaction() -> ApiError:
    return ApiError(404, 10062, "Unknown interaction")


def already_acknowledged() -> ApiError:
    return ApiError(400, 40060, "Interaction has already been acknowledged.")


def missing_access() -> ApiError:
    return ApiError(403, 50001, "Missing Access")


def missing_permissions() -> ApiError:
    return ApiError(403, 50013, "Missing Permissions")


def cannot_dm() -> ApiError:
    return ApiError(403, 50007, "Cannot send messages to this user")


def cannot_edit_others() -> ApiError:
    return ApiError(403, 50005, "Cannot edit a message authored by another user")


def empty_message() -> ApiError:
    return ApiError(400, 50006, "Cannot send an empty message")


def invalid_webhook_token() -> ApiError:
    return ApiError(401, 50027, "Invalid Webhook Token")


def unauthorized() -> ApiError:
    return ApiError(401, 0, "401: Unauthorized")


def not_found() -> ApiError:
    return ApiError(404, 0, "404: Not Found")


def method_not_allowed() -> ApiError:
    return ApiError(405, 0, "405: Method Not Allowed")


def invalid_form(errors: JSON) -> ApiError:
    """50035 with Discord's nested `errors` tree."""
    return ApiError(400, 50035, "Invalid Form Body", errors=errors)


def form_error_tree(path: list[str | int], code: str, message: str) -> JSON:
    """Nest one field error under its path, e.g. ["components", 0, "components"]."""
    tree: JSON = {"_errors": [{"code": code, "message": message}]}
    for key in reversed(path):
        tree = {str(key): tree}
    return tree
