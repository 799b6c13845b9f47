"""Words that carry a quantity or a polarity: two texts that differ in one of them say
different things, however alike they look (:mod:`.near_duplicates` never links them).

English, lower case, as :func:`.near_duplicates.canonical` writes words. Replace or extend
the set for other languages; digits are compared apart, whatever the language.
"""

from __future__ import annotations

__all__ = ["NUMBER_WORDS"]

_CARDINALS = (
    "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen "
    "fifteen sixteen seventeen eighteen nineteen twenty thirty forty fifty sixty seventy "
    "eighty ninety hundred hundreds thousand thousands million millions billion billions "
    "trillion trillions dozen dozens"
)
_ORDINALS = (
    "first second third fourth fifth sixth seventh eighth ninth tenth eleventh twelfth "
    "twentieth thirtieth hundredth thousandth millionth"
)
_PARTS = "half halves quarter quarters third thirds double twice triple single once"
_POLARITY = (
    "no not never none nor without neither cannot cant won wont dont doesnt didnt isnt "
    "arent wasnt werent shouldnt wouldnt couldnt mustnt hasnt havent hadnt t"
)
_COMPARE = "more less most least fewer above below over under increase decrease increased decreased"

#: the words whose difference is a difference of meaning
NUMBER_WORDS: frozenset[str] = frozenset(
    " ".join((_CARDINALS, _ORDINALS, _PARTS, _POLARITY, _COMPARE)).split()
)
