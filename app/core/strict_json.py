"""JSON in and out with non-finite numbers refused everywhere (socket, HTTP, database, outgoing messages).

Python's `json` reads `NaN`, `Infinity` and `1e400` (as inf) although they are not JSON, and writes them back as bare
`NaN`/`Infinity`, which PostgreSQL's JSON type and every browser refuse. One hostile value stored in a table's log
would then make every later write of that table fail. So: `loads` refuses them (and absurd nesting), `dumps` refuses
to write them, and the database engine serialises its JSON columns with `dumps`.
"""

from __future__ import annotations

import json
import math
from json import encoder as _json_encoder
from typing import Any


class StrictJSONError(ValueError):
    """The text is not JSON we accept; the message says why in a sentence."""


class NonFiniteNumber(StrictJSONError):
    """NaN, Infinity, or a number past a double's range: JSON as Python reads it, but not JSON."""


class NestedTooDeep(StrictJSONError):
    """Arrays or objects nested past what the parser can follow."""


class NotText(StrictJSONError):
    """Bytes that are not UTF-8 (or UTF-16/32) text, so not JSON at all."""


def _no_constant(name: str) -> Any:
    raise NonFiniteNumber(f"{name} is not a JSON number")


def _finite_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise NonFiniteNumber(f"{text[:20]} is beyond the range of a number")
    return value


_DECODER = json.JSONDecoder(parse_constant=_no_constant, parse_float=_finite_float)  # one for every call


def loads(text: str | bytes) -> Any:
    """Parse JSON text; raises StrictJSONError (a ValueError) for invalid JSON, NaN/Infinity, overflowing numbers
    and absurd nesting."""
    if not isinstance(text, str) and not isinstance(text, (bytes, bytearray)):
        raise TypeError(f"the JSON object must be str, bytes or bytearray, not {type(text).__name__}")
    try:
        if not isinstance(text, str):  # as json.loads does
            try:
                text = text.decode(json.detect_encoding(text), "surrogatepass")
            except UnicodeDecodeError as error:
                raise NotText(f"byte {error.start} is not UTF-8 text") from None
        if text.startswith("\ufeff"):
            raise json.JSONDecodeError("Unexpected UTF-8 BOM (decode using utf-8-sig)", text, 0)
        return _DECODER.decode(text)
    except StrictJSONError:
        raise
    except RecursionError:
        # json's scanner recurses per level of nesting; past the interpreter's limit it stops cleanly with this
        raise NestedTooDeep("JSON nested too deeply") from None
    except ValueError as error:
        raise StrictJSONError(str(error)) from None


def _not_serializable(value: Any) -> Any:
    raise TypeError(f"Object of type {type(value).__name__} is not JSON serializable")


# `json.dumps` with any argument builds a JSONEncoder and then a C encoder for every call, which for the small
# messages of a table costs more than the encoding (2-5x the time). This is that C encoder, made once, with the
# same settings: the same text, NaN and infinities refused. Without a circular-reference check (a `markers` dict
# would be per call): a cycle is a RecursionError here, as deep nesting is anyway, and nothing we send has one.
_C_ENCODER = (_json_encoder.c_make_encoder(None, _not_serializable, _json_encoder.encode_basestring_ascii, None,
                                           ":", ",", False, False, False)
              if _json_encoder.c_make_encoder is not None else None)


def dumps(value: Any) -> str:
    """Compact JSON; raises ValueError for NaN or infinite floats instead of writing invalid JSON."""
    if _C_ENCODER is None:  # an interpreter without json's C accelerator
        return json.dumps(value, separators=(",", ":"), allow_nan=False)
    return "".join(_C_ENCODER(value, 0))
