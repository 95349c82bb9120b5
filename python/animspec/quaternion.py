"""Float quaternion helpers, in one place: product, conjugate, normalise, slerp, matrix
conversions, the glTF component order, sign continuity and the angle between rotations.

Quaternions are numpy float arrays (..., 4) in w, x, y, z order (the ANIMBIN order, and
:mod:`animspec.skeleton`'s), unless a function says otherwise. glTF stores x, y, z, w
(glTF 2.0 specification, section 5.25 "Node", ``rotation``), and so does the .animclip
Base State: :func:`xyzw_to_wxyz` and :func:`wxyz_to_xyzw` are the one place the order
changes.

This is the float side only. The engine's own fixed-point arithmetic (FP12 Normalize, its
blend) is in :mod:`animspec.fixed_point` and :mod:`animspec.animbin.playback`, where it
must stay bit-exact with the console.
"""

from __future__ import annotations

import numpy as np

IDENTITY = np.array([1.0, 0.0, 0.0, 0.0])
"""The identity rotation, w, x, y, z."""


# --- component order -------------------------------------------------------------------------


def xyzw_to_wxyz(q: np.ndarray) -> np.ndarray:
    """(..., 4) x, y, z, w (glTF, .animclip) -> w, x, y, z, as float64."""
    q = np.asarray(q, dtype=np.float64)
    return np.concatenate([q[..., 3:4], q[..., 0:3]], axis=-1)


def wxyz_to_xyzw(q: np.ndarray) -> np.ndarray:
    """(..., 4) w, x, y, z -> x, y, z, w (glTF, .animclip), as float64."""
    q = np.asarray(q, dtype=np.float64)
    return np.concatenate([q[..., 1:4], q[..., 0:1]], axis=-1)


# --- algebra -----------------------------------------------------------------------------------


def normalize(q: np.ndarray, *, scalar_last: bool = False) -> np.ndarray:
    """Unit quaternions; a zero (or NaN-length) quaternion becomes the identity, as the
    engine's Normalize makes of a zero. ``scalar_last``: the components are x, y, z, w, so
    the identity's 1 goes last."""
    q = np.asarray(q, dtype=np.float64)
    norm = np.linalg.norm(q, axis=-1, keepdims=True)
    out = np.where(norm > 0, q / np.where(norm > 0, norm, 1.0), 0.0)
    w = 3 if scalar_last else 0
    out[..., w] = np.where(norm[..., 0] > 0, out[..., w], 1.0)
    return out


def conjugate(q: np.ndarray) -> np.ndarray:
    """(..., 4) w, x, y, z -> w, -x, -y, -z: the inverse rotation of a unit quaternion."""
    return np.asarray(q, dtype=np.float64) * np.array([1.0, -1.0, -1.0, -1.0])


def quat_multiply(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Hamilton product a * b of (..., 4) w, x, y, z arrays (b applied first)."""
    aw, ax, ay, az = np.moveaxis(np.asarray(a, dtype=np.float64), -1, 0)
    bw, bx, by, bz = np.moveaxis(np.asarray(b, dtype=np.float64), -1, 0)
    return np.stack([
        aw * bw - ax * bx - ay * by - az * bz,
        aw * bx + ax * bw + ay * bz - az * by,
        aw * by - ax * bz + ay * bw + az * bx,
        aw * bz + ax * by - ay * bx + az * bw,
    ], axis=-1)


def slerp(a: np.ndarray, b: np.ndarray, t: np.ndarray | float) -> np.ndarray:
    """Spherical linear interpolation along the shortest arc, elementwise over (..., 4), in
    any component order (the glTF 2.0 specification, Appendix C, "Spherical Linear
    Interpolation"): angle = arccos(|a . b|), s = sign(a . b),
    v = sin(angle (1 - t)) / sin(angle) a + s sin(angle t) / sin(angle) b. Nearly parallel
    pairs fall back to linear interpolation, where sin(angle) loses precision. Inputs are
    expected unit length; the result is not renormalised."""
    a = np.asarray(a, dtype=np.float64)
    b = np.asarray(b, dtype=np.float64)
    dot = np.sum(a * b, axis=-1, keepdims=True)
    s = np.where(dot < 0, -1.0, 1.0)  # q and -q are one rotation: take the short way
    angle = np.arccos(np.clip(np.abs(dot), 0.0, 1.0))
    t = np.asarray(t, dtype=np.float64)[..., None]
    sin_a = np.sin(angle)
    small = sin_a < 1e-9
    safe = np.where(small, 1.0, sin_a)
    w0 = np.where(small, 1.0 - t, np.sin(angle * (1.0 - t)) / safe)
    w1 = np.where(small, t, np.sin(angle * t) / safe)
    return w0 * a + s * w1 * b


def angle_between(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Rotation angle in degrees between orientations (..., 4), ignoring the q / -q sign."""
    dot = np.abs(np.sum(normalize(a) * normalize(b), axis=-1))
    return np.degrees(2 * np.arccos(np.clip(dot, 0.0, 1.0)))


# --- matrices ----------------------------------------------------------------------------------


def quat_to_matrix(q: np.ndarray) -> np.ndarray:
    """(..., 4) w, x, y, z -> (..., 3, 3) rotation matrices (normalising first)."""
    w, x, y, z = np.moveaxis(normalize(q), -1, 0)
    m = np.empty(q.shape[:-1] + (3, 3))
    m[..., 0, 0] = 1 - 2 * (y * y + z * z)
    m[..., 0, 1] = 2 * (x * y - w * z)
    m[..., 0, 2] = 2 * (x * z + w * y)
    m[..., 1, 0] = 2 * (x * y + w * z)
    m[..., 1, 1] = 1 - 2 * (x * x + z * z)
    m[..., 1, 2] = 2 * (y * z - w * x)
    m[..., 2, 0] = 2 * (x * z - w * y)
    m[..., 2, 1] = 2 * (y * z + w * x)
    m[..., 2, 2] = 1 - 2 * (x * x + y * y)
    return m


def matrix_to_quat(m: np.ndarray) -> np.ndarray:
    """The rotation of one 3x3 matrix as a unit w, x, y, z (columns normalised first, so a
    scaled rotation gives its rotation)."""
    m = np.asarray(m, dtype=np.float64)
    m = m / np.where(np.linalg.norm(m, axis=0) > 0, np.linalg.norm(m, axis=0), 1.0)
    trace = m[0, 0] + m[1, 1] + m[2, 2]
    # Shepperd's method: pivot on the largest diagonal term for precision.
    if trace > 0:
        s = np.sqrt(trace + 1.0) * 2
        q = [0.25 * s, (m[2, 1] - m[1, 2]) / s, (m[0, 2] - m[2, 0]) / s, (m[1, 0] - m[0, 1]) / s]
    elif m[0, 0] > m[1, 1] and m[0, 0] > m[2, 2]:
        s = np.sqrt(1.0 + m[0, 0] - m[1, 1] - m[2, 2]) * 2
        q = [(m[2, 1] - m[1, 2]) / s, 0.25 * s, (m[0, 1] + m[1, 0]) / s, (m[0, 2] + m[2, 0]) / s]
    elif m[1, 1] > m[2, 2]:
        s = np.sqrt(1.0 + m[1, 1] - m[0, 0] - m[2, 2]) * 2
        q = [(m[0, 2] - m[2, 0]) / s, (m[0, 1] + m[1, 0]) / s, 0.25 * s, (m[1, 2] + m[2, 1]) / s]
    else:
        s = np.sqrt(1.0 + m[2, 2] - m[0, 0] - m[1, 1]) * 2
        q = [(m[1, 0] - m[0, 1]) / s, (m[0, 2] + m[2, 0]) / s, (m[1, 2] + m[2, 1]) / s, 0.25 * s]
    return normalize(np.array(q))


# --- signs -------------------------------------------------------------------------------------
# q and -q are one rotation, but whatever interpolates or compresses a curve of them (a glTF
# viewer's slerp-free lerp, a curve editor, a key reducer) sees a sign change as a jump.


def continuity_signs(q: np.ndarray, start: np.ndarray | None = None) -> np.ndarray:
    """(frames,) +1 or -1 per row of ``q`` (frames, 4): the sign that puts each row in the
    hemisphere of the row before it (once that row has its own sign), the first row in the
    hemisphere of ``start`` (kept as is without one). A zero dot product keeps the sign.
    Works on integer rows (raw FP12 keys) exactly."""
    q = np.asarray(q)
    signs = np.ones(len(q), dtype=np.int64)
    previous = None if start is None else np.asarray(start)
    for i in range(len(q)):
        row = q[i]
        if previous is not None and np.dot(previous, row) < 0:
            signs[i] = -1
            row = -row
        previous = row
    return signs


def sign_continuous(q: np.ndarray, start: np.ndarray | None = None) -> np.ndarray:
    """A copy of ``q`` (frames, 4) with each row in the previous row's hemisphere
    (:func:`continuity_signs`); the dtype is kept."""
    q = np.array(q, copy=True)
    flip = continuity_signs(q, start) < 0
    q[flip] = -q[flip]
    return q


def same_hemisphere(q: np.ndarray, reference: np.ndarray) -> np.ndarray:
    """The rows of ``q`` (m, 4), each with the sign that puts it in ``reference``'s
    hemisphere (a zero dot product keeps the sign)."""
    return np.where((q @ reference < 0)[:, None], -q, q)
