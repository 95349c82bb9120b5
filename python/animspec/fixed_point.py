"""psyqo fixed-point arithmetic restated on Python integers, as the PS1 computes it.

Sources read (restated, not copied):

* ``src/mips/psyqo/fixed-point.hh`` and ``src/mips/psyqo/src/fixed-point.cpp`` in
  grumpycoders/pcsx-redux (stored version fb9498902d / 122eaf1103): ``FixedPoint<12, T>``,
  ``FixedPointInternals::iDiv`` / ``dDiv``.
* ``src/mips/psyqo/soft-math.hh`` and ``src/mips/psyqo/src/soft-math.cpp`` in the same
  repository (32d0bccd94 / 8ade0790a8): ``SoftMath::squareRoot`` and
  ``SoftMath::inverseSquareRoot``.
* ``src/mips/psyqo/gte-registers.hh``: ``GTE::Short`` is ``FixedPoint<12, int16_t>`` and
  ``GTE::Long`` is ``FixedPoint<12>`` (int32).
* ``src/quaternion.cpp`` in Forceh91/psyqo-madnight-engine (057fcfa130): ``Quaternion::Normalize``,
  ``DotProduct`` and ``Slerp``.

Explained in docs/animbin.md ("Numbers: FP12" and playback step 5).

Every value here is a *raw* integer (1.0 == 4096). Names say which C++ type a function
models, because the two widths do not round the same way:

* ``Short * Short`` widens to int32, multiplies, then divides by ``scale``. ``scale`` is
  declared ``unsigned``, so the usual arithmetic conversions turn the int32 product into
  an unsigned 32-bit number before the division. For a negative product that gives
  ``2**20 + floor(p / 4096)``; storing it back into int16 drops the ``2**20``. The net
  effect is a FLOOR division (an arithmetic shift), not truncation toward zero:
  ``-1 * 1`` gives -1 raw, not 0. (One might expect truncation; psyqo's ``fixed-point.hh``
  says otherwise, see :func:`mul_short`.)
* ``Long * Long`` widens to int64; int64 can hold every ``unsigned`` value, so the division
  stays signed and truncates toward zero.
* ``Long / Long`` is a sign-magnitude long division (``dDiv`` over ``iDiv``): it truncates
  toward zero, and a zero divisor is undefined on the console (see :class:`ConsoleDivisionByZero`).
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING, NamedTuple, cast

if TYPE_CHECKING:
    import numpy as np
# numpy is imported by the three array functions below, not here: the constants are read by
# modules a one-file ANIMBIN validation loads, which does not import numpy.

FP12_SHIFT = 12
FP12_ONE = 1 << FP12_SHIFT
"""1.0 in FixedPoint<12>."""

INT16_MIN, INT16_MAX = -0x8000, 0x7FFF
INT32_MIN, INT32_MAX = -0x8000_0000, 0x7FFF_FFFF

Quat16 = tuple[int, int, int, int]
"""A ``Quaternion`` of the engine: four ``GTE::Short`` raw values in (w, x, y, z) order."""

IDENTITY16: Quat16 = (FP12_ONE, 0, 0, 0)


class ConsoleDivisionByZero(ZeroDivisionError):
    """A psyqo fixed-point division whose divisor is zero.

    ``iDiv`` then executes an unsigned 32-bit ``/`` by zero. GCC for MIPS inserts a
    divide-by-zero trap by default (``-mcheck-zero-division``), so the console most
    likely stops in psyqo's crash handler; without the trap the R3000 returns garbage.
    Either way there is no defined result to model, so callers choose a stand-in.
    """


# --- integer widths ------------------------------------------------------------------------


def wrap_int16(value: int) -> int:
    """Two's-complement narrowing to int16 (what a store into ``int16_t`` does on MIPS)."""
    return ((value + 0x8000) & 0xFFFF) - 0x8000


def wrap_int32(value: int) -> int:
    """Two's-complement narrowing to int32."""
    return ((value + 0x8000_0000) & 0xFFFF_FFFF) - 0x8000_0000


def wrap_uint16(value: int) -> int:
    """Narrowing to uint16 (the engine's frame counter)."""
    return value & 0xFFFF


def trunc_div(a: int, b: int) -> int:
    """C/C++ signed integer division: the quotient truncates toward zero.

    Python's ``//`` floors, which differs for operands of opposite signs.
    """
    if b == 0:
        raise ConsoleDivisionByZero("integer division by zero")
    q = abs(a) // abs(b)
    return q if (a < 0) == (b < 0) else -q


# --- FixedPoint<12, int16_t> (GTE::Short) --------------------------------------------------


def mul_short(a: int, b: int) -> int:
    """``GTE::Short * GTE::Short`` (also ``*=``): ``floor(a*b / 4096)`` wrapped to int16.

    fixed-point.hh computes ``upType t = value; t *= other.value; t /= scale;`` with
    ``upType`` = int32_t for a 16-bit ``T`` and ``scale`` an ``unsigned``. The division is
    therefore unsigned: a negative product ``p`` becomes ``2**32 + p``, and
    ``(2**32 + p) / 4096 == 2**20 + floor(p / 4096)`` because 4096 divides ``2**32``. The
    int16 store discards ``2**20`` (a multiple of ``2**16``), leaving ``floor(p / 4096)``.
    The product of two int16 values always fits in int32, so nothing else wraps.
    """
    return wrap_int16((a * b) >> FP12_SHIFT)  # >> on Python ints floors, like the above


def add_short(a: int, b: int) -> int:
    """``GTE::Short + GTE::Short``: int16 addition with wrap-around."""
    return wrap_int16(a + b)


def sub_short(a: int, b: int) -> int:
    return wrap_int16(a - b)


def div_short(a: int, b: int) -> int:
    """``GTE::Short / GTE::Short``: ``(int32(a) * 4096) / b`` with a *signed* division.

    Here ``t *= scale`` goes through unsigned but lands back in the int32 ``t`` unchanged,
    and ``t /= other.value`` divides by a promoted int16, i.e. signed and truncating.
    Not used by the engine's animation path; kept so the type is complete.
    """
    return wrap_int16(trunc_div(wrap_int32(a * FP12_ONE), b))


def short_from_long(value: int) -> int:
    """``GTE::Short(FixedPoint<>)``: same precision, so only an int16 narrowing."""
    return wrap_int16(value)


# --- FixedPoint<12, int32_t> (psyqo::FixedPoint<>, GTE::Long) ------------------------------


def mul_long(a: int, b: int) -> int:
    """``FixedPoint<> * FixedPoint<>`` (also ``*=``): int64 product, signed division by
    4096 (truncation toward zero), narrowed to int32."""
    return wrap_int32(trunc_div(a * b, FP12_ONE))


def idiv(rem: int, base: int, precision_bits: int = FP12_SHIFT) -> int:
    """``FixedPointInternals::iDiv``: ``(rem << precision_bits) / base``, unsigned.

    ``rem`` arrives as uint64 (a negative int32 argument is sign-extended first), the shift
    is done modulo ``2**64``, the quotient is exact (restoring long division after a
    high-word step) and the uint32 return drops everything above bit 31.
    """
    if base & 0xFFFF_FFFF == 0:
        # The high-word step (``high >= base`` is then always true) divides by zero.
        raise ConsoleDivisionByZero("psyqo iDiv with a zero divisor")
    numerator = ((rem & 0xFFFF_FFFF_FFFF_FFFF) << precision_bits) & 0xFFFF_FFFF_FFFF_FFFF
    return (numerator // (base & 0xFFFF_FFFF)) & 0xFFFF_FFFF


def ddiv(a: int, b: int, precision_bits: int = FP12_SHIFT) -> int:
    """``FixedPointInternals::dDiv``: signed division by sign and magnitude over
    :func:`idiv`, so the quotient truncates toward zero. Returns int32."""
    a, b = wrap_int32(a), wrap_int32(b)
    sign = 1
    if a < 0:
        a, sign = wrap_int32(-a), -sign  # -INT32_MIN stays INT32_MIN, as in C
    if b < 0:
        b, sign = wrap_int32(-b), -sign
    return wrap_int32(idiv(a, b, precision_bits) * sign)


def div_long(a: int, b: int) -> int:
    """``FixedPoint<> / FixedPoint<>``."""
    return ddiv(a, b, FP12_SHIFT)


def int_div_long(a: int, b: int) -> int:
    """``int / FixedPoint<>`` (e.g. ``1 / r``): ``dDiv(a * 4096, b.raw())``.

    ``a * scale`` is an unsigned product; it is passed on as int32.
    """
    return ddiv(wrap_int32(a * FP12_ONE), b, FP12_SHIFT)


def div_long_by_int(a: int, n: int) -> int:
    """``FixedPoint<> / int``: the raw value divided by a plain integer, truncating."""
    return wrap_int32(trunc_div(a, n))


# --- SoftMath ------------------------------------------------------------------------------

_SQRT_ITERATION_GUARD = 200
"""Upper bound on Newton steps. psyqo's loop has none; every int16-range input converges in
far fewer (tests/test_playback.py checks all of them), so hitting this means a bug here."""


def square_root(x: int, hint: int | None = None) -> int:
    """``SoftMath::squareRoot(x, y)`` on raw FixedPoint<> values; ``hint`` defaults to
    ``x / 2`` as the one-argument overload in soft-math.hh does.

    Babylonian iteration, all in FixedPoint<> arithmetic:

    * ``x.raw() <= 1`` returns 0 at once (also for negative ``x``);
    * ``x0 = hint``, ``x1 = x / x0`` (``dDiv``, truncating);
    * while ``|x1 - x0| > 1`` raw: ``x0 = (x0 + x1) / 2`` (C division by the int 2, i.e.
      truncating, not a shift), ``x1 = x / x0``;
    * returns ``x0`` (not ``x1``, not their mean).

    There is no fixed iteration count: the loop stops on the raw-difference test.
    """
    if x <= 1:
        return 0
    x0 = div_long_by_int(x, 2) if hint is None else hint
    x1 = div_long(x, x0)
    for _ in range(_SQRT_ITERATION_GUARD):
        if abs(wrap_int32(x1 - x0)) <= 1:
            return x0
        x0 = div_long_by_int(wrap_int32(x0 + x1), 2)
        x1 = div_long(x, x0)
    raise RuntimeError(f"squareRoot({x}) did not converge")  # pragma: no cover


def inverse_square_root(x: int, hint: int | None = None) -> int:
    """``SoftMath::inverseSquareRoot(x, y)``; ``hint`` defaults to ``x * 2``.

    For ``x > 1.0`` it returns ``1 / squareRoot(x, 1 / y)``. Otherwise it applies exactly
    four Newton steps ``y *= 1.5 - (x * y * y) / 2`` with FixedPoint<> (truncating)
    multiplies. The engine's ``Quaternion::Normalize`` does NOT use this: it computes
    ``1 / squareRoot(s)`` (see :func:`normalize_quat`).
    """
    y = wrap_int32(x * 2) if hint is None else hint
    if x > FP12_ONE:
        return int_div_long(1, square_root(x, int_div_long(1, y)))
    three_halves = FP12_ONE * 3 // 2
    for _ in range(4):
        y = mul_long(y, wrap_int32(three_halves - div_long_by_int(mul_long(mul_long(x, y), y), 2)))
    return y


# --- madnight Quaternion (src/quaternion.cpp) ----------------------------------------------


def quat_dot(a: Quat16, b: Quat16) -> int:
    """``DotProduct``: four Short products summed in int16 (wrapping)."""
    total = 0
    for p, q in zip(a, b):
        total = add_short(total, mul_short(p, q))
    return total


def norm_squared(q: Quat16) -> int:
    """The ``s`` of ``Normalize``: ``w*w + x*x + y*y + z*z`` as a GTE::Short (wraps)."""
    return quat_dot(q, q)


def normalize_scale(s: int) -> int:
    """The ``GTE::Short`` factor ``r`` that ``Normalize`` multiplies by, for ``s != 0``.

    ``r = Short(1 / squareRoot(FixedPoint<>(s)))``: ``s`` is sign-extended to int32, the
    reciprocal is ``dDiv(4096, root)`` and the result is narrowed to int16, so a root
    below 1/8 (reciprocal >= 8.0) wraps. ``s == 1`` raw or a negative (wrapped) ``s``
    makes ``squareRoot`` return 0 and the reciprocal divides by zero.
    """
    return short_from_long(int_div_long(1, square_root(s)))


def normalize_quat(q: Quat16) -> Quat16:
    """``Quaternion::Normalize`` on raw int16 components.

    ``s == 0`` gives the identity (the only guard upstream). Otherwise each component is
    ``floor(c * r / 4096)`` in int16 (:func:`mul_short`), ``r`` from :func:`normalize_scale`.
    Raises :class:`ConsoleDivisionByZero` when ``s`` is 1 raw or negative.
    """
    s = norm_squared(q)
    if s == 0:
        return IDENTITY16
    r = normalize_scale(s)
    return cast(Quat16, tuple(mul_short(c, r) for c in q))


def engine_slerp(prev: Quat16, nxt: Quat16, factor: int) -> Quat16:
    """madnight's ``Slerp(q1, q2, factor)``: a normalised lerp with the shortest-path flip
    computed and then ignored.

    ``factor`` is the raw FixedPoint<> (int32) blend factor. Upstream negates ``q2`` into a
    copy when the dot product is negative but blends the original ``q2``:
    ``Short(1 - factor) * prev + nxt * Short(factor)`` per component (Short products,
    int16 sums), then :func:`normalize_quat`. The dot product has no effect on the result,
    so it is not computed here (see :func:`quat_dot`).
    """
    f1 = short_from_long(wrap_int32(FP12_ONE - factor))
    f2 = short_from_long(factor)
    blended = tuple(add_short(mul_short(f1, p), mul_short(n, f2)) for p, n in zip(prev, nxt))
    return normalize_quat(cast(Quat16, blended))


# --- vectorised forms (numpy) --------------------------------------------------------------


class NormalizeTable(NamedTuple):
    """``normalize_scale`` for every int16 ``s``, indexed by ``s & 0xFFFF``."""

    scale: np.ndarray
    """int16 [65536]: the factor ``r``; 0 where undefined."""
    divides_by_zero: np.ndarray
    """bool [65536]: ``s`` makes ``1 / squareRoot(s)`` divide by zero (s == 1 or s < 0)."""


@lru_cache(maxsize=1)
def normalize_table() -> NormalizeTable:
    """Tabulate :func:`normalize_scale` over the whole int16 domain of ``s``.

    ``s`` is an int16, so 65536 entries cover every case; the array path of
    :func:`normalize_quat_array` is then a lookup. The Newton iteration runs on all
    entries at once with the same integer steps as :func:`square_root` (all operands are
    positive here, so floor and truncation agree).
    """
    import numpy as np

    s = np.arange(2, INT16_MAX + 1, dtype=np.int64)
    num = s << FP12_SHIFT
    x0 = s // 2
    x1 = num // x0
    active = np.abs(x1 - x0) > 1
    for _ in range(_SQRT_ITERATION_GUARD):
        if not active.any():
            break
        x0 = np.where(active, (x0 + x1) // 2, x0)
        x1 = np.where(active, num // x0, x1)
        active &= np.abs(x1 - x0) > 1
    else:  # pragma: no cover
        raise RuntimeError("squareRoot table did not converge")
    recip = (FP12_ONE * FP12_ONE) // x0
    scale = np.zeros(0x10000, dtype=np.int16)
    scale[2 : INT16_MAX + 1] = recip.astype(np.int16)  # int64 -> int16 keeps the low bits
    bad = np.zeros(0x10000, dtype=bool)
    bad[1] = True
    bad[0x8000:] = True  # negative s (raw & 0xFFFF >= 0x8000)
    scale.setflags(write=False)
    bad.setflags(write=False)
    return NormalizeTable(scale, bad)


def mul_short_array(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """:func:`mul_short` elementwise; returns int16."""
    import numpy as np

    return ((a.astype(np.int32) * b.astype(np.int32)) >> FP12_SHIFT).astype(np.int16)


def normalize_quat_array(q: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """:func:`normalize_quat` over an int16 array [..., 4].

    Returns ``(normalised, divides_by_zero)``; where ``divides_by_zero`` is True the row
    has no defined console result and holds zeros; the caller picks a stand-in.
    """
    import numpy as np

    q32 = q.astype(np.int32)
    s = ((q32 * q32) >> FP12_SHIFT).sum(axis=-1).astype(np.int16)  # wrap once: same mod 2**16
    table = normalize_table()
    idx = s.view(np.uint16)
    r = table.scale[idx].astype(np.int32)
    out = ((q32 * r[..., None]) >> FP12_SHIFT).astype(np.int16)
    zero = s == 0
    out[zero] = IDENTITY16
    bad = table.divides_by_zero[idx]
    out[bad] = 0
    return out, bad
