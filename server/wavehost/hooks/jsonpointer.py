"""JSON pointers (RFC 6901): how diagnostics and hook ids say where in a file something is."""


def pointer_join(*parts: str | int) -> str:
    """A JSON pointer from its parts."""
    out = ""
    for part in parts:
        text = str(part)
        if "~" in text or "/" in text:  # rare: most parts are escaped as they are
            text = text.replace("~", "~0").replace("/", "~1")
        out += "/" + text
    return out


def pointer_split(pointer: str) -> list[str | int]:
    """The parts of a JSON pointer; all-digit parts are list indexes."""
    parts: list[str | int] = []
    for raw in pointer.split("/")[1:]:
        part = raw.replace("~1", "/").replace("~0", "~")
        parts.append(int(part) if part.isdigit() else part)
    return parts
