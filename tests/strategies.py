"""Hypothesis strategies for ANIMBIN models that the writer accepts."""

from __future__ import annotations

from hypothesis import strategies as st

from animspec.animbin import Animation, AnimbinFile, Marker, Name, RotationKey, Track, TranslationKey, UnknownKey

u1 = st.integers(0, 0xFF)
u2 = st.integers(0, 0xFFFF)
s2 = st.integers(-0x8000, 0x7FFF)
s4 = st.integers(-0x8000_0000, 0x7FFF_FFFF)


@st.composite
def names(draw) -> Name:
    text = draw(st.binary(max_size=32).map(lambda b: b.replace(b"\0", b"\x01")))
    room = 32 - len(text) - 1
    tail = draw(st.binary(max_size=max(room, 0))) if room > 0 else b""
    return Name(text, tail)


keys = st.one_of(
    st.builds(RotationKey, u2, s2, s2, s2, s2),
    st.builds(TranslationKey, u2, s4, s4, s4),
    st.builds(UnknownKey, u2, st.integers(2, 0xFF)),
)
tracks = st.builds(Track, joint_id=u1, keys=st.lists(keys, max_size=6), track_type=u1)
markers = st.builds(Marker, names(), u2)
animations = st.builds(
    Animation,
    name=names(),
    length=u2,
    tracks=st.lists(tracks, max_size=4),
    markers=st.lists(markers, max_size=3),
    flags=st.integers(0, 0xFFFF_FFFF),
)
files = st.builds(
    AnimbinFile,
    animations=st.lists(animations, max_size=4),
    version=u1,
    trailing=st.binary(max_size=8),
)
