"""Root motion both ways: an "Anim Clip Motion Data" payload decoded (:func:`decode_motion`,
:func:`camera_path`) and encoded (:func:`encode_motion`).

The byte layout is ``tags.MOTION_HEADER_DTYPE`` / ``tags.MOTION_SAMPLE_DTYPE`` (ksy
motion_header / motion_sample); this module only decides the values. The facts are Luna Engine
IO Tools' exporter (Pcniado/luna_engine_io_tools motion.py): standard (16-byte) samples, header
flag "has motion", identity initial rotations and zero initial translations, the samples right
after the header (``ofs_samples`` 0) and the (empty) segment stream after them, the payload
padded to a multiple of 16, bounds = the smallest / largest sample translation. Samples are
relative to the first frame (frame 0's inverse times frame k), and a looping clip has one
more sample than frames, a copy of the first.

Quantisation: rotation x, y, z, w times :data:`.coding.QUATERNION_SCALE` rounded (the reader
divides by :data:`.coding.QUATERNION_DIVISOR` and normalises, so the scale cancels); each
sample's translation uses the finest exponent (:data:`.coding.MOTION_LOG_SCALE_RANGE`) at which
its largest component still fits an i16. The reader refuses what :func:`.inputs.motion_problems`
calls an error, and leaves undecoded what :func:`.inputs.motion_undecoded` names.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ...common.errors import ParseError, WriteError
from ...quaternion import (
    conjugate,
    normalize,
    quat_multiply,
    quat_to_matrix,
    sign_continuous,
    wxyz_to_xyzw,
    xyzw_to_wxyz,
)
from ..tags import MOTION_ALIGN, MOTION_FLAG_HAS_MOTION, MOTION_HEADER_DTYPE, MOTION_HEADER_SIZE, MOTION_SAMPLE_DTYPE
from .coding import I16_MAX, MOTION_LOG_SCALE_RANGE, QUATERNION_DIVISOR, QUATERNION_SCALE, dequantise_rotation
from .inputs import motion_problems, motion_undecoded

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
    if (
        not (np.isfinite(translation).all() and np.isfinite(rotation).all())
        or (np.linalg.norm(rotation, axis=1) == 0).any()
    ):
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
        raise WriteError(
            "motion_data.samples",
            f"the root moves {rel_t[frame, axis]:g} units along {'xyz'[axis]} from "
            f"frame 0 at frame {frame}; root motion holds at most {I16_MAX} units",
        )

    samples = np.zeros(count, MOTION_SAMPLE_DTYPE)
    q_units = np.clip(np.rint(rel_q * QUATERNION_SCALE), -I16_MAX, I16_MAX).astype(np.int16)
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


# ---------------------------------------------------------------------------- decoding


@dataclass
class RootMotion:
    """Decoded Motion Data: the root's transform per motion sample (sample ``i`` at time
    ``i / fps``; a looping clip has one more, its end equal to the start)."""

    translation: np.ndarray
    """(n, 3)"""
    rotation: np.ndarray
    """(n, 4) unit quaternions x, y, z, w"""
    initial_translation: np.ndarray
    """(3,) the header's initial translation (a camera clip's samples are relative to it)"""
    initial_rotation: np.ndarray
    """(4,) x, y, z, w"""


def decode_motion(payload: bytes | memoryview) -> tuple[RootMotion | None, str]:
    """Motion Data's type-0 samples, or None and why not (an unknown sample type, a secondary
    stream, no motion flag, no samples). Raises ParseError (the byte in the payload) for the
    first error of :func:`.inputs.motion_problems`, the validator's list: the header or the
    samples it declares past the payload, an initial transform that is not finite. A zero
    initial rotation is the identity, as a zero sample rotation is."""
    data = memoryview(payload).cast("B")
    errors = [p for p in motion_problems(data) if p.severity == "error"]
    if errors:
        raise ParseError(None, errors[0].at, errors[0].field, f"{errors[0].code}: {errors[0].message}")
    why = motion_undecoded(data)
    if why:
        return None, why
    header = np.frombuffer(data, MOTION_HEADER_DTYPE, 1)[0]
    count = int(header["num_samples"])
    rot0 = header["initial_rot_0"].astype(np.float64)
    trans0 = header["initial_trans_0"].astype(np.float64)
    sample_offset = int(header["ofs_samples"])
    start = MOTION_HEADER_SIZE + sample_offset
    rows = np.frombuffer(data, MOTION_SAMPLE_DTYPE, count, start)
    q = np.stack([rows[c] for c in ("qx", "qy", "qz", "qw")], axis=1).astype(np.float64) / QUATERNION_DIVISOR
    rotation = dequantise_rotation(q)
    log_scale = np.clip(rows["log_scale"].astype(np.int32), *MOTION_LOG_SCALE_RANGE)
    units = np.stack([rows[c] for c in ("x", "y", "z")], axis=1).astype(np.float64)
    translation = np.ldexp(units, -log_scale[:, None])
    if not rot0.any():
        rot0 = np.array([0.0, 0.0, 0.0, 1.0])
    return RootMotion(translation, rotation, trans0, rot0), ""


def camera_path(motion: RootMotion) -> tuple[np.ndarray, np.ndarray]:
    """A camera clip's world translation (n, 3) and rotation (n, 4, x y z w) per motion
    sample: the header's initial transform composed with each sample's (Luna camera_anim.py:
    initial matrix times the sample's matrix)."""
    q0 = normalize(xyzw_to_wxyz(motion.initial_rotation))
    qs = xyzw_to_wxyz(motion.rotation)
    rotation = wxyz_to_xyzw(normalize(quat_multiply(q0[None], qs)))
    moved = np.concatenate([np.zeros((len(motion.translation), 1)), motion.translation], axis=1)
    conj = q0 * np.array([1.0, -1.0, -1.0, -1.0])
    rotated = quat_multiply(quat_multiply(q0[None], moved), conj[None])[:, 1:]
    return motion.initial_translation[None] + rotated, rotation
