"""The DAT1 strings block: names are offsets into it (convention B, spec 4.4), each string
NUL-terminated; the zero bytes after the last string are padding."""

from __future__ import annotations


def string_at(strings: bytes, rel: int) -> str | None:
    if not 0 <= rel < len(strings):
        return None
    end = strings.find(b"\0", rel)
    if end < 0:
        return None
    try:
        return strings[rel:end].decode("utf-8")
    except UnicodeDecodeError:
        return None


def split_strings_region(region: bytes) -> tuple[bytes, bytes]:
    """(strings, padding) of the bytes between the tables and the first payload: the
    strings run to the NUL after the last non-NUL byte; the zeros after it are padding."""
    content = region.rstrip(b"\0")
    if not content:
        return b"", region
    if len(content) < len(region):
        content += b"\0"
    return content, region[len(content):]
