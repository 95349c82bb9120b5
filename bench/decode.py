"""Issue 22.6: decoding .animclip samples, side by side (used by bench/run.py, part "decode").

The workload: a 16 MB Sample Data block of a synthetic clip (150 joints, 400 moving
components of 1 to 16 bits and 8 of 17 to 24 bits, so some fields straddle u32 words; the
stride rounded up to whole words), with its Base State and Sample Elem.

Compared, all from the same bytes in memory and checked to give the same poses:

* animspec: :func:`animspec.animclip.frames.decode.decode_samples` on the inputs the clip model
  gives (:func:`animspec.animclip.frames.inputs.sample_inputs`), every sample's scale, rotation
  and translation per joint (float32), vectorised over samples and elements; and its first
  stage alone, :func:`~animspec.animclip.frames.coding.unpack_fields` (every field of every sample);
* a per-frame bit reader like the one public importers use (written here, after the
  algorithm Pcniado/luna_engine_io_tools describes in anim_import.py / binary.py: per frame,
  copy the base values, read each element's field from two u32 words with Python ints, add
  it shifted, then de-quantise joint by joint); too slow to run on all 16 MB every time, it
  runs on the first :data:`BASELINE_SAMPLES` samples and its time is scaled to the whole
  block (it is linear in the samples: one loop iteration per sample);
* ``numpy.unpackbits`` over the same bytes: the practical limit for touching every bit.
"""

from __future__ import annotations

import math

import numpy as np

from animspec.animclip.frames.coding import unpack_fields
from animspec.animclip.frames.decode import Elements, decode_samples, elements_of, memory_bound
from animspec.animclip.frames.inputs import sample_inputs
from animspec.animclip.model import AnimclipFile, BaseState, Built, RawSection, SampleElem
from animspec.animclip.sections.base_state import JOINT_DTYPE
from animspec.animclip.tags import TAG_SAMPLE_DATA

JOINTS = 150
SMALL = 400
LARGE = 8
BASELINE_SAMPLES = 600
"""Samples the per-frame reader decodes per run (its time is scaled to the whole block)."""


class Workload:
    def __init__(self, size: int, seed: int = 5) -> None:
        rng = np.random.default_rng(seed)
        comps = rng.choice(JOINTS * 11, SMALL + LARGE, replace=False)  # no translation-shift component
        comps = comps // 11 * 12 + comps % 11
        widths = np.concatenate([rng.integers(1, 17, SMALL), rng.integers(17, 25, LARGE)])
        shifts = np.concatenate([rng.integers(0, 3, SMALL), rng.integers(0, 2, LARGE)])
        self.sample_elem = SampleElem(
            offsets=(comps[:SMALL] * 4).astype("<u4"), codes=((shifts[:SMALL] << 4) | (widths[:SMALL] - 1)).astype("u1"),
            padding=bytes(-SMALL % 4), large_offsets=(comps[SMALL:] * 4).astype("<u4"),
            large_codes=((shifts[SMALL:] << 8) | (widths[SMALL:] - 1)).astype("<u2"))
        bits = int(widths.sum())
        self.stride = 4 * ((bits + 31) // 32)
        self.samples = size // self.stride
        records = np.zeros(JOINTS, JOINT_DTYPE)
        for name in ("qx", "qy", "qz", "x", "y", "z"):
            records[name] = rng.integers(-3000, 3000, JOINTS)
        records["qw"] = rng.integers(8000, 20000, JOINTS)
        records["log_scale"] = 12
        records["log_scale2"] = 10
        self.records = records
        # The elements as the model reads them (its Sample Elem columns), to pack the samples.
        built = Built(fps=30.0, duration=self.samples / 30, num_frames=self.samples, stride=self.stride,
                      num_unique_samples=self.samples)
        self.model = AnimclipFile(sections=[built, BaseState(joints=records), self.sample_elem])
        self.elements = elements_of(sample_inputs(self.model))
        self.data = self._pack(rng)
        self.model.sections.append(RawSection(tag=TAG_SAMPLE_DATA, data=self.data))
        self.inputs = sample_inputs(self.model)

    def _pack(self, rng: np.random.Generator) -> bytes:
        """Random fields packed LSB-first into u32 words, element by element over all samples."""
        el = self.elements
        words = np.zeros((self.samples, self.stride // 4 + 1), np.uint64)
        for e in range(el.count):
            w, b, width = int(el.bit_offset[e]) >> 5, int(el.bit_offset[e]) & 31, int(el.width[e])
            v = rng.integers(0, 1 << width, self.samples, dtype=np.uint64)
            words[:, w] |= (v << np.uint64(b)) & np.uint64(0xFFFFFFFF)
            if b + width > 32:
                words[:, w + 1] |= v >> np.uint64(32 - b)
        return words[:, :-1].astype("<u4").tobytes()

    # --- the three ways ------------------------------------------------------------------

    def animspec(self):
        return decode_samples(self.inputs, budget=memory_bound(len(self.data)))[0]

    def fields(self) -> np.ndarray:
        words = np.frombuffer(self.data, "<u4").reshape(self.samples, self.stride // 4)
        return unpack_fields(words, self.elements.bit_offset, self.elements.width)

    def unpackbits(self) -> np.ndarray:
        return np.unpackbits(np.frombuffer(self.data, np.uint8), bitorder="little")

    def per_frame_reader(self, samples: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The per-frame bit reader (module doc), on the first ``samples`` samples."""
        el = self.elements
        table = list(zip(el.joint.tolist(), el.component.tolist(), el.width.tolist(), el.shift.tolist()))
        base = [[int(v) for v in row] for row in self.inputs.base]
        words = np.frombuffer(self.data, "<u4")
        per = self.stride // 4
        scale = np.empty((samples, JOINTS, 3), np.float32)
        rotation = np.empty((samples, JOINTS, 4), np.float32)
        translation = np.empty((samples, JOINTS, 3), np.float32)
        for f in range(samples):
            comps = [row[:] for row in base]
            pos = 0
            first = f * per
            for joint, comp, width, shift in table:
                w = first + (pos >> 5)
                low = int(words[w])
                high = int(words[w + 1]) if w + 1 < len(words) else 0
                comps[joint][comp] += ((((high << 32) | low) >> (pos & 31)) & ((1 << width) - 1)) << shift
                pos += width
            for j, c in enumerate(comps):
                div = c[3] or 1
                scale[f, j] = (c[0] / div, c[1] / div, c[2] / div)
                n = math.sqrt(c[4] * c[4] + c[5] * c[5] + c[6] * c[6] + c[7] * c[7])
                rotation[f, j] = (c[4] / n, c[5] / n, c[6] / n, c[7] / n) if n else (0.0, 0.0, 0.0, 1.0)
                t = 2.0 ** c[11]
                translation[f, j] = (c[8] / t, c[9] / t, c[10] / t)
        return scale, rotation, translation


def check(work: Workload) -> None:
    """animspec's poses equal the per-frame reader's on the samples it decodes."""
    ours = work.animspec()
    n = min(BASELINE_SAMPLES, work.samples, 64)
    scale, rotation, translation = work.per_frame_reader(n)
    np.testing.assert_allclose(ours.rotation[:n], rotation, atol=1e-6)
    np.testing.assert_allclose(ours.translation[:n], translation, rtol=1e-6, atol=1e-6)
    np.testing.assert_allclose(ours.scale[:n], scale, rtol=1e-6)
    assert work.fields().shape == (work.samples, SMALL + LARGE)


__all__ = ["BASELINE_SAMPLES", "Elements", "Workload", "check"]
