"""animspec plot draws one panel per animated joint (the picture itself was checked by eye)."""

from __future__ import annotations

import io

import matplotlib.image
from conftest import EXAMPLES

from animspec.animbin import read_file
from animspec.animbin.plot import plot_png


def test_plot_is_a_png_sized_for_its_joints():
    clip = read_file(EXAMPLES / "swing.animbin")
    four = matplotlib.image.imread(io.BytesIO(plot_png(clip.animations[0])), format="png")
    one = matplotlib.image.imread(io.BytesIO(plot_png(clip.animations[1], region="pal")), format="png")
    # Two columns of 650 px for four joints in two rows; one 650 px panel for "nod".
    assert four.shape[:2] == (520, 1300)
    assert one.shape[:2] == (260, 650)
