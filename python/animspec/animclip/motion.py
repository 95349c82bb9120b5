"""Root motion -> an "Anim Clip Motion Data" payload (the inverse of ``samples.decode_motion``).

The byte layout is ``tags.MOTION_HEADER_DTYPE`` / ``tags.MOTION_SAMPLE_DTYPE`` (ksy
motion_header / motion_sample); this module only decides the values. The facts are Luna Engine
IO Tools' exporter (Pcniado/luna_engine_io_tools motion.py): standard (16-byte) samples, header
flag "has motion", identity initial rotations and zero initial translations, the samples right
after the header (``ofs_samples`` 0) and the (empty) segment stream after them, the payload
padded to a multiple of 16, bounds = the smallest / largest sample translation. Samples are
relative to the first frame (frame 0's inverse times frame k), and a looping clip has one
more sample than frames, a copy of the first.

Quantisation is this module's own: rotation x, y, z, w times 32767 rounded (the reader divides
by 32768 and normalises, so the scale cancels); each sample's translation uses the finest
exponent (0..16) at which its largest component still fits an s2.
"""

from __future__ import annotations

import numpy as np

from ..common.errors import WriteError
from ..quaternion import conjugate, normalize, quat_multiply, quat_to_matrix, sign_continuous, wxyz_to_xyzw, xyzw_to_wxyz
from .tags import MOTION_ALIGN, MOTION_FLAG_HAS_MOTION, MOTION_HEADER_DTYPE, MOTION_LOG_SCALE_RANGE, MOTION_SAMPLE_DTYPE

I16_MAX = 0x7FFF
ROTATION_UNITS = 32767.0
IDENTITY_XYZW = np.array([0.0, 0.0, 0.0, 1.0])


def relative_to_first(translation: np.ndarray, rotation: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Each frame's transform (translation, x, y, z, w rotation) relative to frame 0 (frame
    0's inverse times frame k): what the samples hold; rotations x, y, z, w."""
    q = xyzw_to_wxyz(normalize(rotation, scalar_last=True))
    inverse0 = conjugate(q[0])
    rel_t = (translation - translation[0]) @ quat_to_matrix(inverse0).T
    return rel_t, wxyz_to_xyzw(quat_multiply(inverse0[None, :], q))


def _log_scales(translation: np.ndarray) -> np.ndarray:
    """Per sample the finest exponent k (0..16) with every |component| * 2^k within an s2."""
    largest = np.abs(translation).max(axis=1)
    with np.errstate(divide="ignore"):
        k = np.floor(np.log2(I16_MAX / np.maximum(largest, 1e-300)))
    k = np.clip(k, *MOTION_LOG_SCALE_RANGE).astype(np.int64)
    # floor(log2) can land one too high by rounding; step down where the rounded value overflows.
    over = np.abs(np.rint(translation * np.exp2(k)[:, None])).max(axis=1) > I16_MAX
    return np.where(over, np.maximum(k - 1, 0), k)


def encode_motion(translation: np.ndarray, rotation: np.ndarray | None = None, *, looping: bool = False) -> bytes:
    """A Motion Data payload of per-frame root ``translation`` (frames, 3) and ``rotation``
    (frames, 4; x, y, z, w; None: no turning), made relative to frame 0; ``looping`` adds the
    closing sample. Raises WriteError when a relative translation does not fit the format
    (any component beyond 32767 units)."""
    translation = np.asarray(translation, np.float64)
    if translation.ndim != 2 or translation.shape[1] != 3 or len(translation) == 0:
        raise WriteError("motion_data", f"root motion needs (frames, 3) translations, not shape {translation.shape}")
    if rotation is None:
        rotation = np.broadcast_to(IDENTITY_XYZW, (len(translation), 4))
    rotation = np.asarray(rotation, np.float64)
    if rotation.shape != (len(translation), 4):
        raise WriteError("motion_data", f"{len(translation)} root translations need ({len(translation)}, 4) rotations, "
                                        f"not shape {rotation.shape}")
    if not (np.isfinite(translation).all() and np.isfinite(rotation).all()) or (np.linalg.norm(rotation, axis=1) == 0).any():
        raise WriteError("motion_data", "root motion holds a non-finite value or a zero quaternion")
    rel_t, rel_q = relative_to_first(translation, rotation)
    if looping:
        rel_t, rel_q = np.vstack([rel_t, rel_t[:1]]), np.vstack([rel_q, rel_q[:1]])
    # Each rotation in the hemisphere of the one before, the closing copy too (as Luna's
    # exporter does), so playback interpolates the short way round.
    rel_q = sign_continuous(rel_q)
    count = len(rel_t)
    if count > 0xFFFF:
        raise WriteError("motion_data.num_samples", f"{count} samples; the field holds at most 65535")
    if np.abs(rel_t).max() > I16_MAX:
        frame, axis = np.unravel_index(int(np.argmax(np.abs(rel_t))), rel_t.shape)
        raise WriteError("motion_data.samples", f"the root moves {rel_t[frame, axis]:g} units along {'xyz'[axis]} from "
                                                f"frame 0 at frame {frame}; root motion holds at most {I16_MAX} units")

    samples = np.zeros(count, MOTION_SAMPLE_DTYPE)
    q_units = np.clip(np.rint(rel_q * ROTATION_UNITS), -I16_MAX, I16_MAX).astype(np.int16)
    for i, name in enumerate(("qx", "qy", "qz", "qw")):
        samples[name] = q_units[:, i]
    log_scale = _log_scales(rel_t)
    t_units = np.rint(rel_t * np.exp2(log_scale)[:, None]).astype(np.int16)
    for i, name in enumerate(("x", "y", "z")):
        samples[name] = t_units[:, i]
    samples["log_scale"] = log_scale
    body = samples.tobytes()
    body += bytes(-(MOTION_HEADER_DTYPE.itemsize + len(body)) % MOTION_ALIGN)

    header = np.zeros(1, MOTION_HEADER_DTYPE)
    header["motion_type"] = 0  # standard samples
    header["flags"] = MOTION_FLAG_HAS_MOTION
    header["num_samples"] = count
    header["initial_rot_0"] = header["initial_rot_1"] = IDENTITY_XYZW
    header["ofs_samples"] = 0
    header["ofs_segments"] = len(body)
    header["bounds_min"] = rel_t.min(axis=0)
    header["bounds_max"] = rel_t.max(axis=0)
    return header.tobytes() + body
