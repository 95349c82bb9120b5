"""The hand-editable JSON layout of dumps: worked out by hand for small documents."""

from __future__ import annotations

import json

from animspec.common.jsonfmt import dumps

DOC = {"a": [1, 2], "b": {"c": [[1, 2], [3]], "d": "x"}, "e": [], "f": {}, "g": [{"k": 1}, 2]}

# Lists of plain values and short objects of plain values (or such lists) stay on one line;
# everything else opens one line per item, two spaces deeper per level.
EXPECTED = """{
  "a": [1, 2],
  "b": {
    "c": [
      [1, 2],
      [3]
    ],
    "d": "x"
  },
  "e": [],
  "f": {},
  "g": [
    {"k": 1},
    2
  ]
}"""


def test_layout_of_a_nested_document():
    assert dumps(DOC) == EXPECTED
    assert json.loads(dumps(DOC)) == DOC


def test_indent_is_per_level():
    assert dumps({"a": [[1]], "b": 2}, indent=4) == '{\n    "a": [\n        [1]\n    ],\n    "b": 2\n}'
    assert dumps([[1], {"q": [4096, 0, 0, 0]}]) == '[\n  [1],\n  {"q": [4096, 0, 0, 0]}\n]'
    # A list inside a list that must open too: its items go one level deeper again.
    assert dumps([[[1], [2]], 3]) == '[\n  [\n    [1],\n    [2]\n  ],\n  3\n]'


def test_a_flat_object_stays_on_one_line_up_to_100_characters():
    # '{"k": "' + text + '"}' is 9 characters plus the text.
    at_limit = {"k": "x" * 91}
    assert dumps(at_limit) == '{"k": "' + "x" * 91 + '"}'
    over = {"k": "x" * 92}
    assert dumps(over) == '{\n  "k": "' + "x" * 92 + '"\n}'


def test_scalars_and_keys_are_json():
    assert dumps("a\"b") == '"a\\"b"' and dumps(None) == "null" and dumps(1.5) == "1.5"
    assert dumps({1: {"x": [[True]]}}) == '{\n  "1": {\n    "x": [\n      [true]\n    ]\n  }\n}'
