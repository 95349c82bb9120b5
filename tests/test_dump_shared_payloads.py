"""`dump` of an .animclip whose section table names one payload many times (issue 27 item 10).

The reader reads such a payload once and shares it between the entries; the dump used to
write it out once per entry (8,000 entries on a 600-byte payload: 97 KB of file, 24 MB of JSON,
1,600x the file in memory). Now a repeated entry holds ``"payload_of": i``: the dump stays
inside ``DUMP_MEMORY_MULTIPLE`` x the file + 1 MB (docs/hardening.md) and packs back to the
same bytes.
"""

from __future__ import annotations

import json
import tracemalloc

import pytest
from test_hardening import MB, TAG_GEOM_SAMPLE_DATA, animclip_shared_payload

from animspec.cli import main
from animspec.common.errors import JsonInputError
from animspec.dumps import DUMP_MEMORY_MULTIPLE, dump_text, pack_bytes

TAG_PATH = 0x3976E44C  # Anim Clip Path (tags.py)


def traced_dump(path) -> tuple[str, int]:
    tracemalloc.start()
    try:
        text = dump_text(str(path))
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    return text, peak


@pytest.mark.parametrize("tags", [(TAG_PATH,), (TAG_GEOM_SAMPLE_DATA, 0x12345678)], ids=["typed", "raw, two tags"])
def test_65535_entries_on_one_payload_dump_inside_the_stated_bound(tmp_path, tags):
    entries = 0xFFFF
    data = animclip_shared_payload(12 * entries + 400, entries, tags)  # a payload of about 350 bytes
    source = tmp_path / "shared.animclip"
    source.write_bytes(data)
    small = tmp_path / "small.animclip"
    small.write_bytes(animclip_shared_payload(400, 3, tags))
    dump_text(str(small))  # first-use imports are not the file's cost
    text, peak = traced_dump(source)
    assert peak <= DUMP_MEMORY_MULTIPLE * len(data) + MB, f"{peak / len(data):.1f}x the file"
    sections = json.loads(text)["raw"]["sections"]
    assert len(sections) == entries
    assert sum("payload_of" in s for s in sections) == entries - 1  # raw sections of any tag share the bytes
    assert len(text) < 20 * len(data)  # the payload is written once per tag, not 65,535 times


def test_a_dump_with_shared_payloads_packs_back_to_the_same_bytes(tmp_path):
    data = animclip_shared_payload(4000, 40, (TAG_PATH, TAG_GEOM_SAMPLE_DATA, 0x12345678))
    source = tmp_path / "shared.animclip"
    source.write_bytes(data)
    assert main(["dump", str(source), "-o", str(tmp_path / "d.json")]) == 0
    assert main(["pack", str(tmp_path / "d.json"), "-o", str(tmp_path / "back.animclip")]) == 0
    assert (tmp_path / "back.animclip").read_bytes() == data
    doc = json.loads((tmp_path / "d.json").read_text())
    sections = doc["raw"]["sections"]
    # (entry 2, raw under another tag, shares entry 1's bytes)
    assert [s.get("payload_of") for s in sections[:6]] == [None, None, 1, 0, 1, 1]
    packed = pack_bytes(json.dumps(doc).encode(), "d.json")
    assert packed.model.sections[3] is packed.model.sections[0]  # shared as the reader shares it
    assert packed.model.sections[2].data is packed.model.sections[1].data


@pytest.mark.parametrize("payload_of, where", [(7, "expected the index of an earlier entry"),
                                               (-1, "expected the index of an earlier entry"),
                                               (1, "only an entry of the same tag and offset")])
def test_a_payload_of_that_cannot_be_is_refused_naming_the_entry(tmp_path, payload_of, where):
    data = animclip_shared_payload(4000, 8, (TAG_PATH, TAG_GEOM_SAMPLE_DATA))
    source = tmp_path / "shared.animclip"
    source.write_bytes(data)
    doc = json.loads(dump_text(str(source)))
    doc["raw"]["sections"][2] = {"tag": f"{TAG_PATH:08X}", "offset": doc["raw"]["sections"][0]["offset"],
                                 "payload_of": payload_of}
    with pytest.raises(JsonInputError) as info:
        pack_bytes(json.dumps(doc).encode(), "d.json")
    assert info.value.json_path == "$.raw.sections[2].payload_of" and where in info.value.reason
