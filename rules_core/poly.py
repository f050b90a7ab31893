"""Polynomials of integer weights, the fast exact paths' one toolkit.

A distribution over 0..L with integer weights is a polynomial whose coefficient j is the weight
of j. Kronecker substitution packs one into a single integer (``bits`` per coefficient), so
Python's big-integer multiplication convolves whole distributions at once.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from math import comb

__all__ = ["binomial", "pack", "unpack", "power", "add_into"]


@cache
def binomial(n: int, success: int, sides: int) -> tuple[int, ...]:
    """Weights over ``sides**n`` of k of n dice landing on ``success`` of their ``sides`` faces.

    >>> binomial(2, 5, 20)     # two d20 that succeed on 5 faces: 0, 1 or 2 successes
    (225, 150, 25)
    """
    return tuple(comb(n, k) * success ** k * (sides - success) ** (n - k) for k in range(n + 1))


def pack(poly: Sequence[int], bits: int) -> int:
    """The polynomial as one integer, ``bits`` per coefficient (lowest degree lowest).

    >>> unpack(pack([1, 2], 8) * pack([3, 4], 8), 8, 3)   # (1 + 2x)(3 + 4x)
    [3, 10, 8]
    """
    packed = 0
    for c in reversed(poly):
        packed = (packed << bits) | c
    return packed


def unpack(packed: int, bits: int, length: int) -> list[int]:
    """The ``length`` lowest coefficients of a packed polynomial."""
    mask = (1 << bits) - 1
    out = []
    for _ in range(length):
        out.append(packed & mask)
        packed >>= bits
    return out


def power(poly: Sequence[int], n: int) -> list[int]:
    """``poly`` to the ``n``-th power (non-negative coefficients), by Kronecker substitution.

    >>> power([1, 1], 3)
    [1, 3, 3, 1]
    """
    bits = (sum(poly) ** n).bit_length() + 1   # no coefficient of the power exceeds this
    return unpack(pack(poly, bits) ** n, bits, (len(poly) - 1) * n + 1)


def add_into(acc: list[int], poly: Sequence[int], times: int = 1) -> list[int]:
    """``acc + times * poly`` coefficient by coefficient (``acc`` is extended as needed).

    >>> add_into([1, 1], [0, 1, 2], 3)
    [1, 4, 6]
    """
    if len(acc) < len(poly):
        acc = acc + [0] * (len(poly) - len(acc))
    for i, x in enumerate(poly):
        acc[i] += times * x
    return acc
