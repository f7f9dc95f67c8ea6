"""Units of the inspector's instruments and exact conversion between them.

Everything is Decimal: a limit printed "4,13 cm" must accept a reading of 41.3 mm exactly,
and a tolerance boundary is inclusive, which binary floats would make a coin toss. Conversion
factors are definitions (1 in = 2.54 cm exactly), not rules, so they live here and not in the
knowledge base.
"""
from __future__ import annotations

import math
from decimal import Decimal, InvalidOperation
from fractions import Fraction

# Quantity -> {unit: how many of the quantity's base unit one of it is}.
FACTORS: dict[str, dict[str, Decimal]] = {
    "length": {"cm": Decimal(1), "mm": Decimal("0.1"), "in": Decimal("2.54")},
    "mass": {"g": Decimal(1)},
    "density": {"kg/dm3": Decimal(1)},
    "power": {"W": Decimal(1)},
    "count": {"": Decimal(1)},
}
# How else people write the same unit (kg/dm3 and g/cm3 are the same number).
ALIASES = {
    "inch": "in", "inches": "in", "″": "in", '"': "in",
    "kg/dm³": "kg/dm3", "g/cm3": "kg/dm3", "g/cm³": "kg/dm3",
    "w": "W", "watt": "W", "watts": "W",
}
# Quantities read as something other than a number.
NON_NUMERIC = ("boolean", "text")
QUANTITIES = tuple(FACTORS) + NON_NUMERIC

# Converted readings are compared at this many decimal places of the limit's unit: far below any
# instrument's resolution, and enough to absorb the last binary digit of a reading in inches.
COMPARE_PLACES = Decimal("1e-9")


def canonical_unit(unit: str) -> str | None:
    """The unit's canonical spelling, or None when no quantity knows it."""
    text = str(unit).strip()
    text = ALIASES.get(text, ALIASES.get(text.lower(), text))
    for factors in FACTORS.values():
        if text in factors:
            return text
        if text.lower() in factors:
            return text.lower()
    return None


def quantity_of(unit: str) -> str | None:
    for quantity, factors in FACTORS.items():
        if unit in factors:
            return quantity
    return None


def units_for(quantity: str) -> tuple[str, ...]:
    return tuple(FACTORS.get(quantity, {}))


def convert(value: Decimal, from_unit: str, to_unit: str) -> Decimal:
    """`value` in `from_unit` expressed in `to_unit` (both of one quantity)."""
    if from_unit == to_unit:
        return value
    quantity = quantity_of(from_unit)
    if quantity is None or to_unit not in FACTORS[quantity]:
        raise ValueError(f"cannot convert {from_unit} to {to_unit}")
    return value * FACTORS[quantity][from_unit] / FACTORS[quantity][to_unit]


def for_comparison(value: Decimal) -> Decimal:
    return value.quantize(COMPARE_PLACES)


def to_decimal(number) -> Decimal | None:
    """A YAML/JSON number as the decimal it was written as; None for anything else (bool, text, nan)."""
    if isinstance(number, bool) or not isinstance(number, (int, float, Decimal)):
        return None
    if isinstance(number, float) and not math.isfinite(number):
        return None
    try:
        value = Decimal(str(number))  # str() of a float is the shortest text that reads back as it
    except InvalidOperation:
        return None
    return value if value.is_finite() else None


def parse_inches(text) -> Decimal:
    """An inch figure as printed in the rules: "29", "1/8", "1 5/8", "26 1/2" -> exact Decimal."""
    parts = str(text).split()
    if not 1 <= len(parts) <= 2:
        raise ValueError(f"not an inch figure: {text!r}")
    total = Fraction(0)
    for part in parts:
        total += Fraction(part)  # raises ValueError on anything that is not a number or a/b
    if total.denominator & (total.denominator - 1):
        raise ValueError(f"not a binary fraction of an inch: {text!r}")
    # A power-of-two denominator always gives a terminating decimal: the division is exact.
    return Decimal(total.numerator) / Decimal(total.denominator)


def as_number(value: Decimal | None, places: int = 6):
    """A Decimal for JSON: a float rounded so that 4.1275 stays 4.1275 and not 4.127499999."""
    if value is None:
        return None
    return float(round(value, places))
