"""Mutation testing of animspec's numeric and byte-level core (issue 17): `make mutation`.

    python tools/mutation.py [MODULE...] [--jobs N] [--timeout-factor F] [--list] [--json FILE]
                             [--every N [--phase K]] [--survivors-of JSON] [--planted]

Each mutant is one small change to one module (an operator, a comparison, a number, a
struct format letter, two adjacent statements or literal items swapped, ...). It is run
against the tests mapped to that module below; a mutant the tests still pass "survives".
A survivor is either a gap in the tests or an equivalent mutant (a change that cannot
alter any behaviour); the equivalent ones are listed in EQUIVALENT with the reason. The
encoder's search has a third kind (WITHIN_CONTRACT): a change of how hard or where it searches
that changes which of many valid files it writes, never whether the file meets the bound or
what it reports; each is listed with its reason and measured on real motion capture
(tools/mutant_effect.py). Any other survivor makes the run exit 1. Beside the generated mutants, PLANTED holds hand-made
ones (realistic one-line bugs, issue 31) that run the same way and must all be killed; a test
of NOT_A_KILL (a flake) is never run for a mutant, so it cannot be what kills one.

Why a driver of our own rather than mutmut: mutmut 3 rewrites every function into a
trampoline and runs the whole suite per mutant set; here one process imports numpy,
pytest and hypothesis once, and forks a child per mutant that re-imports only animspec,
with the mutated module served from memory (nothing on disk is changed, so a killed run
leaves no mutated file behind). A mutant costs roughly its mapped tests' run time.
Hypothesis runs derandomised with no example database, so two runs give the same figures.
"""

from __future__ import annotations

import argparse
import ast
import importlib.abc
import importlib.util
import json
import os
import re
import signal
import sys
import time
from dataclasses import asdict, dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "python" / "animspec"
# This script's folder comes first on sys.path, and tools/fuzz.py would shadow tests/fuzz/.
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).resolve().parent]

# Module (path under python/animspec) -> the tests that cover it, fastest first (pytest
# runs with -x, so a mutant is usually killed by the first file). "only": the functions
# or classes mutated, when the module is larger than the part this run is about.
SECTION_TESTS = ["tests/test_animclip_sections.py",
                 "tests/test_animclip_appendix.py",
                 "tests/test_animclip_edit.py",
                 "tests/test_animclip_roundtrip.py",
                 "tests/test_animclip_fastread.py"]
"""What covers a section module of animclip/sections/ (each holds read, write, size and JSON)."""

MODULES: dict[str, dict] = {
    "fixed_point.py": {"tests": ["tests/test_playback.py"]},
    "animbin/playback.py": {
        "tests": ["tests/test_playback.py", "tests/test_poses.py", "tests/test_animbin_keys.py"],
        # The engine's playback and the float reference sampler; not the event log's bookkeeping.
        "only": ["vsync_count", "vsync_deltas", "sample_times", "key_rotation_view", "_is_rotation", "_joint_count",
                 "_rest_array", "_sampled_frames", "_c_div_array", "_key_arrays", "_track_table", "play_engine", "EngineSkeleton",
                 "slerp", "_bracket", "_wrap_frames", "sample_reference_frames", "sample_reference", "_sample"],
    },
    "common/fieldwriter.py": {"tests": ["tests/test_fieldwriter.py", "tests/test_animbin_parse.py", "tests/test_meshbin.py",
                                        "tests/test_layouts.py"]},
    "animbin/layout.py": {"tests": ["tests/test_layouts.py", "tests/test_animbin_parse.py"]},
    "meshbin/layout.py": {"tests": ["tests/test_layouts.py", "tests/test_meshbin.py"]},
    "animbin/keys.py": {"tests": ["tests/test_animbin_keys.py", "tests/test_animbin_validate.py",
                                  "tests/test_animbin_fastread.py"]},
    "animbin/write.py": {"tests": ["tests/test_animbin_parse.py", "tests/test_animbin_roundtrip.py"]},
    "meshbin/write.py": {"tests": ["tests/test_meshbin.py"]},
    "animclip/write.py": {
        "tests": ["tests/test_animclip_appendix.py", "tests/test_animclip_edit.py", "tests/test_animclip_roundtrip.py"],
        # The container's serialiser (each section's payload is its module's, below).
        "only": ["payloads", "_check_file", "_check_container", "check_writable", "write_bytes", "relaid_bytes",
                 "_outer", "_tables", "_relaid", "_exact"],
    },
    # One module per DAT1 section: read, adapt, payload, size and JSON side by side.
    **{f"animclip/sections/{name}.py": {"tests": SECTION_TESTS} for name in (
        "__init__", "base", "values", "built", "base_state", "joint_hashes", "path", "custom_tracks",
        "custom_track_data", "sample_elem", "trigger_data", "trigger_joint_names", "raw")},
    "animclip/layout.py": {"tests": ["tests/test_animclip_layout.py", "tests/test_animclip_fastread.py"]},
    "animclip/placement.py": {
        "tests": ["tests/test_animclip_appendix.py", "tests/test_animclip_edit.py", "tests/test_animclip_roundtrip.py",
                  "tests/test_animclip_fastread.py"],
        # The recorded layout and the placements; not the digest's bookkeeping.
        "only": ["payload_sizes", "recorded_layout", "_gaps", "exact_placement", "relaid_placement"],
    },
    "animclip/fastread.py": {"tests": ["tests/test_animclip_fastread.py", "tests/test_animclip_roundtrip.py"]},
    "animbin/fastread.py": {"tests": ["tests/test_animbin_errors.py", "tests/test_animbin_parse.py",
                                      "tests/test_animbin_fastread.py"]},
    "meshbin/fastread.py": {"tests": ["tests/test_meshbin.py",
                                      "tests/test_fuzz.py::test_bulk_reader_matches_the_generated_parser"]},
    "kaitai_read.py": {"tests": ["tests/test_animbin_errors.py", "tests/test_animclip_errors.py",
                                 "tests/test_meshbin.py", "tests/test_animbin_fastread.py"]},
    "animclip/view.py": {
        "tests": ["tests/test_animclip_appendix.py", "tests/test_animclip_pose.py", "tests/test_animclip_edit.py",
                  "tests/test_animclip_roundtrip.py"],
        # The dequantisation; not the view's dataclasses.
        "only": ["dequantise_rotations", "dequantise_translations", "quaternion_lengths"],
    },
    "animclip/model.py": {
        "tests": ["tests/test_animclip_edit.py", "tests/test_animclip_appendix.py", "tests/test_animclip_roundtrip.py"],
        # The edits and their value checks; not the dataclasses' declarations.
        "only": ["f32_array", "mark_derived", "AnimclipFile"],
    },
    "animclip/strings.py": {
        "tests": ["tests/test_animclip_appendix.py", "tests/test_animclip_edit.py", "tests/test_animclip_roundtrip.py"],
    },
    "animclip/frames/pose.py": {"tests": ["tests/test_animclip_pose.py", "tests/test_codec_behaviours.py"]},
    "animclip/compression.py": {"tests": ["tests/test_lz4.py", "tests/test_animclip_errors.py"]},
    "animbin/jsonio.py": {"tests": ["tests/test_animbin_roundtrip.py", "tests/test_hardening.py"]},
    "meshbin/jsonio.py": {"tests": ["tests/test_meshbin.py"]},
    "animclip/jsonio.py": {
        "tests": ["tests/test_animclip_edit.py", "tests/test_animclip_cli.py", "tests/test_animclip_roundtrip.py"],
        # The document's frame (each section's members are its module's, the value codecs
        # sections/values.py's); not the clip summary's wording.
        "only": ["_strings", "_raw", "_sections", "_section", "_layout", "from_json", "_string_bytes", "_read_strings",
                 "_read_unknown", "_read_sections", "_read_section", "_read_layout"],
    },
    "common/jsonfmt.py": {"tests": ["tests/test_jsonfmt.py", "tests/test_cli.py"]},
    # Mapped (issue 13): the tests that call every function of each module in process (a call
    # trace of each test file; subprocess runs would not see a mutant). quaternion.py has run.
    "quaternion.py": {"tests": ["tests/test_quaternion.py", "tests/test_skeleton.py", "tests/test_gltf_sampling.py"]},
    "dumps.py": {"tests": ["tests/test_dumps_library.py", "tests/test_cli.py"]},
    **{f"convert/{name}.py": {"tests": ["tests/test_convert_library.py", "tests/test_gltf_rig_space.py",
                                        "tests/test_batch.py", "tests/test_gltf_animclip.py"]}
       for name in ("options", "refusals", "output", "directions", "planning")},
    # The per-frame codec (issue 31): tests/test_codec_behaviours.py holds each behaviour a
    # planted bug passed to an independent reference (tests/animclip_reference.py).
    "animclip/frames/coding.py": {"tests": ["tests/test_animclip_samples.py", "tests/test_animclip_encode.py",
                                            "tests/test_codec_behaviours.py", "tests/test_codec_bounds.py",
                                            "tests/test_animclip_validate.py"]},
    "animclip/frames/decode.py": {"tests": ["tests/test_animclip_samples.py", "tests/test_codec_behaviours.py",
                                            "tests/test_codec_bounds.py", "tests/test_animclip_msm2.py",
                                            "tests/test_animclip_agree.py"]},
    "animclip/frames/encode.py": {"tests": ["tests/test_animclip_encode.py", "tests/test_codec_behaviours.py",
                                            "tests/test_codec_bounds.py", "tests/test_encoder_hostile.py",
                                            "tests/test_object_space.py", "tests/test_error_measure.py",
                                            "tests/test_encoder_measures.py", "tests/test_encoder_search.py"]},
    "animclip/frames/object_space.py": {"tests": ["tests/test_object_space.py", "tests/test_animclip_encode.py",
                                                  "tests/test_encoder_hostile.py"]},
    "animclip/frames/motion.py": {"tests": ["tests/test_codec_behaviours.py", "tests/test_codec_bounds.py",
                                            "tests/test_animclip_samples.py", "tests/test_animclip_encode.py",
                                            "tests/test_animclip_msm2.py"]},
    "animclip/frames/sections.py": {"tests": ["tests/test_animclip_encode.py", "tests/test_codec_behaviours.py",
                                              "tests/test_codec_bounds.py"]},
    # The validator's per-frame rules (docs/animclip.md 11.17 to 11.27): the lists the decoder
    # refuses from, and Motion Data's sample count against Built.
    "animclip/frames/inputs.py": {
        "tests": ["tests/test_codec_bounds.py", "tests/test_animclip_msm2.py", "tests/test_codec_behaviours.py",
                  "tests/test_animclip_samples.py", "tests/test_animclip_agree.py", "tests/test_animclip_validate.py"],
        # (not the memory bound's error class, nor the clip-timing wording's helpers)
        "only": ["memory_bound", "check_built", "sample_block", "sample_data_section", "_base_components",
                 "_element_field", "_decode_problems", "timing_problems", "_field_offset", "motion_problems",
                 "motion_undecoded", "camera_problems", "_sample_problems", "_decode_refusals", "_refuse",
                 "dat1_file_offset", "sample_inputs"],
    },
    "animclip/validate.py": {"tests": ["tests/test_animclip_msm2.py", "tests/test_codec_behaviours.py",
                                       "tests/test_codec_bounds.py", "tests/test_animclip_validate.py"],
                             "only": ["_motion"]},
    # The glTF writers of a decoded clip: every frame on a rig, the base pose, a camera path.
    "gltf/from_animclip.py": {
        "tests": ["tests/test_codec_behaviours.py", "tests/test_codec_bounds.py", "tests/test_gltf_animclip.py",
                  "tests/test_gltf_to_animclip.py", "tests/test_gltf_from_animclip.py"],
        "only": ["animclip_pose_to_gltf", "_continuous_wxyz", "_varies", "animclip_to_gltf",
                 "camera_animation_to_gltf"],
    },
    # The other glTF writers: the GLB document every converter writes through, and ANIMBIN -> glTF.
    "gltf/builder.py": {"tests": ["tests/test_gltf_builder.py", "tests/test_gltf_bone_mesh.py",
                                  "tests/test_gltf_key_checks.py", "tests/test_gltf_from_animbin.py",
                                  "tests/test_gltf_animclip.py",
                                  "tests/test_gltf_document.py", "tests/test_gltf_security.py",
                                  "tests/test_gltf_rig_repairs.py"]},
    "gltf/from_animbin.py": {"tests": ["tests/test_gltf_from_animbin.py", "tests/test_gltf_examples.py",
                                       "tests/test_gltf_rig_space.py", "tests/test_roundtrip_paths.py",
                                       "tests/test_gltf_rig_repairs.py"]},
}

# Hand-made mutants (issue 31): realistic one-line bugs, each a text replacement in its module
# (old text, found exactly once, -> new text), run like the generated ones. Each one passed the
# tests nearest it before tests/test_codec_behaviours.py; each must stay killed. (The JS
# decoder's twin of these, web/js/clip.js forgetting a looping clip's extra lookup entry, is
# killed by test_the_viewer_decodes_a_looping_lookup_whose_extra_entry_moves_the_samples.)
PLANTED: dict[str, list[tuple[str, str, str]]] = {
    "animclip/frames/motion.py": [
        ("root motion relative as q_k q0^-1", "quat_multiply(inverse0[None, :], q)",
         "quat_multiply(q, inverse0[None, :])"),
        ("camera path as sample times initial", "quat_multiply(q0[None], qs)", "quat_multiply(qs, q0[None])"),
        ("root motion without sign continuity", "rel_q = sign_continuous(rel_q)", "rel_q = rel_q"),
    ],
    "animclip/frames/encode.py": [
        ("no sign continuity", "    rot = _continuous(rot)\n", "    pass\n"),
    ],
    "animclip/frames/coding.py": [
        ("zero quaternion's identity written as w first", "if axis else out)[3][zero]",
         "if axis else out)[0][zero]"),
        ("large code's shift at the small code's bit", "(shifts[n:] << 8)", "(shifts[n:] << 4)"),
    ],
    "animclip/frames/sections.py": [
        ("the template's looping / lookup flags kept", "built.flags = (int(built.flags) & ~owned) | enc.flags",
         "built.flags = int(built.flags) | enc.flags"),
        ("the template's Sample Data Paged kept",
         "TAG_SAMPLE_DATA, TAG_SAMPLE_DATA_RESIDENT, TAG_SAMPLE_DATA_PAGED}",
         "TAG_SAMPLE_DATA, TAG_SAMPLE_DATA_RESIDENT}"),
        ("duration frames / fps when not looping", "span = enc.frames if enc.looping else max(enc.frames - 1, 0)",
         "span = enc.frames"),
    ],
    "animclip/frames/inputs.py": [
        ("a large element's byte without the small table's padding",
         "large_at = SAMPLE_ELEM_SIZE * n + len(elem.padding)", "large_at = SAMPLE_ELEM_SIZE * n"),
        ("Motion Data's samples end without their offset", "    end = start + per * count",
         "    end = MOTION_HEADER_SIZE + per * count"),
        ("the decode bound's per-sample cost 48 bytes", "DECODE_BYTES_PER_JOINT = 40", "DECODE_BYTES_PER_JOINT = 48"),
    ],
    "animclip/validate.py": [
        ("a secondary stream's samples not doubled", "                need *= 2\n", "                pass\n"),
    ],
    "gltf/from_animclip.py": [
        ("every-frame rotations without sign continuity", "sign_continuous(rotation[:, k])", "rotation[:, k]"),
        ("scale only where it varies", "_varies(scale[:, k], not_equal_to=rest.scale)", "_varies(scale[:, k])"),
    ],
    "animclip/frames/pose.py": [
        ("the report's rig rotations x, y, z, w", "rotations[:, bone] = xyzw_to_wxyz(poses.rotation[:, j])",
         "rotations[:, bone] = poses.rotation[:, j]"),
    ],
}

# Tests that never count as a kill: a flake is not a kill. test_temporaries.py times writers
# racing signals (it fails under load), test_architecture.py reads the modules from disk (it
# never sees a mutant, and fires on an unused import, not on a codec bug). A module's list
# must not name them, and no test of theirs is run for a mutant whatever the trace says.
NOT_A_KILL = ("tests/test_temporaries.py", "tests/test_architecture.py")

# Survivors that are equivalent mutants: (module, stripped source line, mutation) -> why.
# Kept by source text, not line number, so an edit elsewhere in the module keeps them.
_UNUSED = "the constant is not used anywhere in the package (it names the width for readers)"
_NO_BLEND = ("between two different keys the engine's factor is 0 (an integer (current - prev) / frameDiff below 1); "
             "on one key a whole factor k blends (1 - k) q + k q = q exactly, int16 wrap-around included")
_ONE_PLACE = "the magic can be at only one of bytes 1, 2 and 3 (its letters collide), so the probing order never matters"
_PLAIN_DAT1 = ("a plain DAT1 (magic at byte 0) cannot hold the magic at byte 1, 2 or 3 too, so the LZ4 probe "
               "that follows finds nothing and the body is handed on unchanged either way")
_CHECK_ORDER = ("a check and a write of the same section swapped: the check still raises before the payload "
                "is returned, and a half-written buffer is dropped")
_WHOLE_DOMAIN = ("a test compares the whole table with the scalar square root for every int16; this gives the same "
                 "table (floor((x0 + n / x0) / 2) equals (x0 + n // x0) // 2, and the int16 cast truncates a positive "
                 "quotient as // does)")
_NO_BONES = ("below version 2 num_bones is the 0 set above and there are no bones, and the model turns a declared "
             "count equal to the bones it has into None (derived)")
_ZERO_QUOTIENT = "at 0 the quotient is 0 whatever sign is chosen, and a divisor of 0 raises before"
_SLICE_END = "a slice past the last of 4 components stops at the last one: q[..., 3:5] is q[..., 3:4]"
_ZERO_ROW = ("only a zero-length row takes the other branch, where the division's result is discarded for the "
             "0.0 the outer where puts (a 0 / 0 warning at most), so the output is the same")
_TIE = "at a dot product of exactly 0 both arcs are half turns of the same length: either sign is the short way"
_SMALL = ("sin(angle) below 1e-9 or 2e-9 (or equal to it) is a pair within ~1e-7 deg: slerp and the linear fall-back "
          "agree there to rounding; and `safe` is read only where `small` is false")
_PIVOT = ("Shepperd's pivot: measured on 20,000 random rotations and on half turns (and turns 1e-6 short of one) "
          "about 13 axes with zero and near-zero components, every such pivot condition gives the original's "
          "rotation within 3e-6 deg, the precision of the arccos that measures it (tools: a script that ran each "
          "mutant; the index mutants of `m[1, 1] > m[2, 2]` gave 180 deg and are killed by "
          "test_matrix_to_quat_near_half_turns_picks_a_sound_pivot)")
_COLUMN_NORM = ("a rotation's columns are never zero, so only the condition's form changes (the rows' norms are as "
                "non-zero as the columns'); the 1.0 stands in for a zero norm only")
_INNER_FIELD = ("write_output rewords a verify refusal to name the user's path and option (common/output.py "
                "_naming) and keeps only its reason: the inner field name never reaches anyone")
_SIGNS = "continuity_signs returns only +1 and -1, so < 0, <= 0 and < 1 pick the same rows"
_CHUNKS = ("how many samples a chunk decodes: the frames are the same whatever the chunk "
           "(test_decoding_in_chunks_gives_the_same_frames); only the working memory and the speed change")
_NEW_ORDER = ("the order of the sections the encoder adds: they are placed last in that order and found by the "
              "table (sorted by tag); docs/animclip.md 4.6 leaves their order to the writer, every section reads "
              "the same")
_CHANNEL_ORDER = "the order of an animation's channels: each targets its node and path, a reader applies them all"
_AS_NUMBERS = ("the array goes into the model as numbers; the writer range-checks them and writes them as '<u4' "
               "(animclip/write.py): the byte order of this array never reaches the file")
_NO_LENGTH = ("where the bone mesh calls a bone length zero: a bone or direction exactly 1e-9, or between 1e-9 and "
              "2e-9 units long (a nanometre in metres) is drawn from the fall-back direction instead of its own, or "
              "counted in the typical length or not: a difference of no visible size")
_SIDE = ("the bone mesh's side axis is any unit vector across the bone: this reference is never parallel to a bone that "
         "takes it (a bone with |x| >= 0.9 is within 26 degrees of x, while y, z, (1, 1, 0) and (0, 1, 1) are 90, 90, "
         "45 and 90 degrees from x), and side is normalised on the next line, so the ring is the same square turned "
         "about the bone, a turn the docstring leaves free")
_SHIFTS_FIT = ("every shift the encoder chooses is at most MAX_ERROR_SHIFT (15: _choose_shifts, _object_shifts and "
               "the large=False loop all stop there), below both a small code's 15 and a large code's 255, so the "
               "guard never fires with either operator (it guards a future change of those searches)")
EQUIVALENT: dict[tuple[str, str, str], str] = {
    # --- the per-frame codec (issue 31)
    # (issue 30's decoder, full run after its rewrite)
    **{("animclip/frames/decode.py", line, "4 -> 5"): "values holds a kind's four component rows: a slice 3:5 of them is 3:4"
       for line in ("dequantise_scale(values[0:3], values[3:4], out=out)",
                    "dequantise_translation(values[0:3], values[3:4], out=out)")},
    ("animclip/frames/decode.py", "norms = work[: 2 * values[0].size].reshape(2, *values.shape[1:])", "0 -> 1"):
        "values holds a kind's four component rows, each of one size (joints computed x samples): row 1's is row 0's",
    ("animclip/frames/decode.py",
     "element = np.concatenate([by_row[lead], by_row[~lead]])  # one element per moved row first",
     "list: items 0 and 1 swapped"):
        ("with one part per moved row (no sums) the second list is empty; with sums the parts are put in order by "
         "(row, element index in the clip, part) before they are added, whatever their place here"),
    **{("animclip/frames/decode.py",
        "order = np.lexsort((self.fields.below > 0, part_element, into))  # element order, low part first", what): (
        "the order of the parts added on one component: each part is a non-negative integer (its bits times "
        "2^(shift + bits below), width + shift <= 52), so every partial sum is at most the total and the sum is "
        "exact in float64 in any order while the component's total is below 2^53 (any one or two elements; the "
        "encoder writes one per component). Gt -> GtE and 0 -> 1 only tie a field's two parts, which lexsort then "
        "keeps in the reader's order, low part first")
       for what in ("tuple: items 0 and 1 swapped", "Gt -> GtE", "0 -> 1")},
    ("animclip/frames/decode.py",
     "if self.sums is None and self.moved.size and self.moved[-1] + 1 - self.moved[0] == self.moved.size:",
     "Sub -> Add"):
        ("computing in place is a faster path to the same values: last + 1 + first equals the count only for a range "
         "starting at row 0 (the count is at most last + 1 - first), so the mutant takes the copying path more often, "
         "never the in-place one where the rows are not a range"),
    ("animclip/frames/decode.py",
     "outside = (slice(0, kind.joints.start), slice(kind.joints.stop, None)) if kind.count else (slice(None),)",
     "conditional expression: condition negated"):
        ("the base pose written into every joint instead of those outside the kind's range: the chunks then write "
         "every sample of the range over it; a kind with no joint computed has the range 0:0, whose two sides cover "
         "every joint as slice(None) does"),
    ("animclip/frames/decode.py",
     "outside = (slice(0, kind.joints.start), slice(kind.joints.stop, None)) if kind.count else (slice(None),)",
     "tuple: items 0 and 1 swapped"):
        "the joints before and after the kind's range are disjoint: either may be filled first",
    # The working-memory estimate: it only sizes chunks (_CHUNKS: the frames are the same). Measured
    # against tracemalloc's peak by test_the_decoders_working_memory_is_about_its_chunk_budget on
    # four shapes (0.8 to 1.2 of the budget); what it does not see is a margin of the estimate:
    **{("animclip/frames/decode.py", source, what): _CHUNKS + (
        "; the estimate only grows (smaller chunks, less memory): an extra value per sample, or one more row per "
        "joint for a rotation's norms or a translation's shifts beside at least six rows per joint it counts")
       for source, what in (("sums = parts + self.moved.size if self.sums is not None else 0", "0 -> 1"),
                            ("return windows + parts // 2 + parts + sums + self.base.size + max(2 * rotation, 3 * max(scale, translation))", "3 -> 4"))},
    ("animclip/frames/decode.py", "return windows + parts // 2 + parts + sums + self.base.size + max(2 * rotation, 3 * max(scale, translation))", "2 -> 3"): _CHUNKS + (
        "; the two mutants of this line: parts // 3 counts a sixth of the parts less (at most 7 % of an estimate "
        "of at least 2.5 values per part), 3 * rotation counts more (smaller chunks)"),
    ("animclip/frames/decode.py", "windows = self.fields.windows // 2", "2 -> 3"): _CHUNKS + (
        "; a sixth of the windows' copy less: 8 % of the estimate on the densest clip measured (16-bit fields, "
        "one per component), inside the test's 20 %"),
    ("animclip/frames/decode.py", "np.empty(2 * self.kinds[1].count * samples, np.float64))", "2 -> 3"):
        ("a third more of the np.empty for the rotation's norms, which nothing writes (the frames are the same): "
         "one value per rotating joint and sample beside at least six the estimate counts for it, under a sixth "
         "more memory, inside the test's 20 %"),
    ("animclip/frames/coding.py", "low = np.where(offset + width > 32, 32 - offset, width)", "Gt -> GtE"):
        ("a field ending exactly at its window's bit 32 then gets a second part of width 0, whose mask is 0: it "
         "adds nothing"),
    ("animclip/frames/coding.py", "self.below_31 = bool((self.offset + part_width <= 31).all())", "LtE -> Lt"):
        ("below_31 only picks the decoder's faster int32 conversion (decode.py); False takes the uint32 one, "
         "the same values"),
    ("animclip/frames/coding.py", "self.windows = int(self.window.max()) + 1 if self.window.size else 0", "0 -> 1"):
        "with no parts no window is read: the sample's view has rows nobody takes",
    **{("animclip/frames/coding.py", line, "format '<u4' -> '<i4'"): (
        "the same 32 bits either way: the words are viewed or converted bit for bit and read back as bytes or as "
        "<u4 by unpack_fields")
       for line in ('as_bytes = np.ascontiguousarray(words, "<u4").view(np.uint8).reshape(samples, -1)',
                    'return np.ascontiguousarray(samples).view("<u4").reshape(samples.shape[0], -1)')},
    **{("animclip/frames/coding.py", "for component in (y, z, w):", f"tuple: items {i} and {i + 1} swapped"): (
        "the squares of integer components below 2^26 and their sums are exact in float64: any order gives the "
        "same norm (the docstring's condition; a clip's i16 bases plus deltas)")
       for i in (0, 1)},
    ("animclip/frames/motion.py", "body += bytes(-(MOTION_HEADER_DTYPE.itemsize + len(body)) % MOTION_ALIGN)",
     "Add -> Sub"): "the body is 16 bytes per sample: -(h + b) and -(h - b) are equal modulo 16",
    ("animclip/frames/motion.py",
     'q = np.stack([rows[c] for c in ("qx", "qy", "qz", "qw")], axis=1).astype(np.float64) / QUATERNION_DIVISOR',
     "Div -> Mult"): "normalised right after (dequantise_rotation): any positive scale gives the same unit quaternion",
    **{("animclip/frames/motion.py", line, what): (
        "the step down never fires: k = floor(log2(32767 / m)) gives m 2^k <= 32767 up to a rounding of log2 "
        "(a few ulps), and rint of at most 32767 (1 + 1e-15) is 32767, within the i16")
       for line, what in (("over = np.abs(np.rint(translation * np.exp2(k)[:, None])).max(axis=1) > I16_MAX",
                           "Mult -> FloorDiv"),
                          ("return np.where(over, np.maximum(k - 1, 0), k)", "Sub -> Add"),
                          ("return np.where(over, np.maximum(k - 1, 0), k)", "1 -> 0"),
                          ("return np.where(over, np.maximum(k - 1, 0), k)", "0 -> 1"))},
    ("animclip/frames/motion.py", "q = xyzw_to_wxyz(normalize(rotation, scalar_last=True))", "True -> False"):
        ("scalar_last only says where the identity a zero row becomes puts its 1; encode_motion, the only caller, "
         "refuses a zero quaternion before"),
    ("animclip/frames/motion.py", "k = np.floor(np.log2(I16_MAX / np.maximum(largest, 1e-300)))", "1e-300 -> 2e-300"):
        "k is clipped to 16 for any sample under 32767 / 2^16 (half a unit), far above 1e-300 or 2e-300",
    ("animclip/frames/coding.py", 'return (np.asarray(components, np.int64) * COMPONENT_BYTES).astype("<u4")',
     "format '<u4' -> '<i4'"): "offsets are below 2**31 (65535 joints x 48 bytes at most): the same four bytes",
    ("animclip/frames/coding.py",
     'return words[:, :n_words].astype("<u4").view(np.uint8).reshape(n_frames, 4 * n_words)', "format '<u4' -> '<i4'"): "viewed as bytes right after: a cast to int32 keeps the same 32 bits",
    ("animclip/frames/coding.py",
     "return np.concatenate([[0], np.cumsum(widths)[:-1]]).astype(np.int64) if widths.size else np.zeros(0, np.int64)",
     "0 -> 1"): ("with no elements (the only way to np.zeros(0); the [0] mutant is killed) decode_samples "
                 "returns the base pose before any bit offset is read"),
    ("animclip/frames/coding.py",
     'return np.divide(values, np.where(divisor == 0, 1.0, divisor), out=out, casting="same_kind")', "1.0 -> 2.0"):
        "a divisor is 2^log_scale (at least 1) plus unsigned fields: never 0, so the stand-in is never used",
    ("animclip/frames/coding.py", "LARGE_SHIFT_MAX = 255", "255 -> 256"):
        ("only the encoder checks a large code's shift against it, and its shifts are at most MAX_ERROR_SHIFT (15) "
         "for every element: the check never fires"),
    ("animclip/frames/coding.py", "TRANSLATION_SHIFT_DECODED = 1100", "1100 -> 1101"):
        ("a value (at most 2^52: width + shift <= 52) times 2^-1100 or 2^-1101 is 0 as the float32 the decoder hands "
         "out, an i16 Base State value 0 in float64 too (the base pose); times 2^1100 or 2^1101 infinite either way"),
    ("animclip/frames/coding.py", 'return (np.asarray(components, np.int64) * COMPONENT_BYTES).astype("<u4")',
     "format '<u4' -> '>u4'"): _AS_NUMBERS,
    ("animclip/frames/sections.py", 'JointHashes(hashes=hash_values.astype("<u4")),', "format '<u4' -> '>u4'"):
        _AS_NUMBERS,
    ("animclip/frames/coding.py", "if not np.size(width) or samples == 0:", "Or -> And"):
        ("the early return only saves work: FieldReader gives the same empty (samples, 0) and (0, elements) "
         "arrays itself (test_unpack_inverts_pack_for_one_sample_none_and_no_elements)"),
    ("animclip/frames/coding.py",
     'return np.divide(values, np.where(divisor == 0, 1.0, divisor), out=out, casting="same_kind")', "0 -> 1"):
        ("a divisor is 2^log_scale (at least 1) plus unsigned fields, never 0; where it is 1 the stand-in 1.0 is "
         "the same divisor"),
    ("animclip/frames/coding.py", "norm[zero] = 1.0", "1.0 -> 2.0"):
        "the stand-in divides an all-zero quaternion (0 / 1 and 0 / 2 are both 0), whose w is set to 1 right after",
    ("animclip/frames/encode.py", 'table = self.lookup.astype("<u2").tobytes()', "format '<u2' -> '<i2'"):
        "the entries are below 65,535 (a u16 table): as int16 they keep the same two bytes",
    ("animclip/frames/decode.py", "@dataclass(frozen=True)", "True -> False"):
        "nothing assigns to these after they are made; frozen only guards that",
    ("animclip/frames/decode.py", "CHUNK_VALUES = 1 << 17", "17 -> 18"): _CHUNKS,
    ("animclip/frames/decode.py",
     "offset = None if exc.offset is None else dat1_file_offset(model, (motion_section.offset or 0) + exc.offset)",
     "0 -> 1"): ("`or 0` acts only on an offset of None (set to None two lines down) or 0 (the DAT1 header's own "
                 "byte, where no section lies)"),
    **{("animclip/frames/decode.py",
        "step = min(count, max(1, CHUNK_VALUES // decode_chunk.working_values()))", what): _CHUNKS
       for what in ("1 -> 2",)},
    ("animclip/frames/decode.py", "animated: bool = False", "False -> True"):
        "every ClipFrames is made by decode_clip, which passes animated",
    ("animclip/frames/decode.py", "if n and np.array_equal(index, np.arange(index[0], index[0] + n)):", "Add -> Sub"):
        ("frames() then gathers a copy through the index where it would hand out views of the same samples: the "
         "same values, only memory and time change"),
    ("animclip/frames/decode.py", "if hashes.size < joints:", "Lt -> LtE"):
        "with as many hashes as joints the padding appended is empty",
    ("animclip/validate.py",
     'if len(data) < MOTION_HEADER_SIZE or any(p.code == "motion-data-size" for p in problems):', "Lt -> LtE"):
        ("a Motion Data exactly one header long holds no sample: a count above 0 is a motion-data-size problem "
         "(skipped by the other condition), and a count of 0 is not checked against Built"),
    **{("animclip/frames/sections.py", "new: list[Section] = [", f"list: items {i} and {i + 1} swapped"): _NEW_ORDER
       for i in range(4)},
    ("animclip/frames/inputs.py", "base[:, 0:4] = scale[:, None]", "4 -> 5"):
        "component 4 (qx) is written by the loop right after, from Base State",
    ("animclip/frames/inputs.py", 'for name, fps in (("fps", built.fps), ("resident_fps", built.resident_fps '
     'if built.num_resident_samples else 0)):', "0 -> 1"):
        ("the resident fps's stand-in without resident samples: 0 is skipped, 1 fps is inside PLAYABLE_FPS: no "
         "finding either way"),
    ("animclip/frames/inputs.py",
     'if within is None and problem.tag == TAG_BUILT and problem.field.startswith("built."):', "And -> Or"):
        ("every refused problem of another section has a byte and names no Built field (false either way); Built's "
         "with a byte (clip-timing) have their field's own, BUILT_FIELD_OFFSETS[name], which the lookup gives "
         "again; those without one name a Built field or 'built' (decode-size, no offset): the same byte either way"),
    ("animclip/frames/inputs.py", "if found is not None and data is not None:", "And -> Or"):
        ("found is None exactly when data is (_sample_problems returns None without samples, or with "
         "frame-lookup-size, an error refused before): both conditions are the same"),
    ("gltf/from_animclip.py",
     "return not_equal_to is not None and not np.allclose(values[0], not_equal_to, rtol=0, atol=1e-9)",
     "1e-09 -> 2e-09"): "a scale within 2e-9 of the rig's: with or without a channel the pose is the same in float32",
    ("gltf/from_animclip.py",
     'channels.append(Channel(node, "rotation", times, sign_continuous(rotation[:, k]), ANIM_LINEAR, "frame"))',
     "statement swapped with the next"): _CHANNEL_ORDER,
    ("gltf/from_animclip.py",
     "channels.append(Channel(carrier, \"translation\", motion_times, clip.root_motion_translation, ANIM_LINEAR,",
     "statement swapped with the next"): _CHANNEL_ORDER,
    ("gltf/from_animclip.py",
     "assert clip.root_motion_translation is not None and clip.root_motion_rotation is not None", "And -> Or"):
        "an assertion for the type checker: ClipAnimation sets both together, so it holds either way",
    **{("gltf/from_animclip.py", line, "statement swapped with the next"): (
        "two independent statements: a report list, a set of hashes, the node's TRS and the channel list are "
        "each written by one of them and read by neither")
       for line in ("match.matched.append((node_name(gltf, node), h))",
                    "use_trs(gltf, node, rest.translation, rest.rotation, rest.scale)")},
    ("gltf/from_animclip.py", "channels.append(", "statement swapped with the next"):
        "the root motion's rotation channel and the report line after it: independent lists",
    ("gltf/from_animclip.py", "channels = [", "list: items 0 and 1 swapped"): _CHANNEL_ORDER,
    **{("gltf/from_animclip.py",
        "target_q = normalize(xyzw_to_wxyz(q / norm)) if norm > 0 else np.array([1.0, 0.0, 0.0, 0.0])", what): why
       for what, why in (
           ("Div -> Mult", "normalised right after: q * norm and q / norm have the same direction for a norm > 0"),
           ("1.0 -> 2.0", ("a zero base-state rotation's stand-in, (2, 0, 0, 0): the identity at twice unit length, "
                           "which the builder normalises like every rotation key further than KEEP_AS_STORED from "
                           "unit (the key written is (0, 0, 0, 1) either way)")))},
    ("gltf/from_animclip.py", "node = builder.camera_node(CAMERA_NODE, yfov=yfov, aspect_ratio=CAMERA_ASPECT, znear=0.01)",
     "0.01 -> 0.02"):
        ("the clip stores no near plane (only a transform per sample and its XFOV track): 1 cm is the "
         "writer's own choice, and 2 cm is as valid a glTF (znear > 0); no value is read from or compared with "
         "the clip"),
    # --- the glTF writers (issue 31)
    ("gltf/builder.py", "WEIGHT_SUM_TOLERANCE = 1e-7", "1e-07 -> 2e-07"):
        ("a margin below the Khronos validator's rule (node_modules/gltf-validator: a float32 sum of a vertex's "
         "weights, an error when further than 2e-7 per non-zero weight from 1): a vertex left alone is within 2e-7 "
         "as our float32 sum reads it; with one non-zero weight every sum is exact, with n >= 2 the validator's "
         "own order of float32 additions moves it by at most (n - 1) x 6e-8, inside 2e-7 n. Either tolerance "
         "leaves only vertices the validator accepts and repairs the others (repairing one it would accept "
         "is harmless)"),
    ("gltf/builder.py", "KEEP_AS_STORED = 0.002", "0.002 -> 0.004"):
        ("a margin between two rules the tests hold: an FP12 key (at most 2/4096 = 0.00049 off unit) is written as "
         "stored, and a rotation the Khronos validator would reject (0.00769 off unit) is normalised; any threshold "
         "between the two keeps both (test_animation_writes_xyzw_keeps_near_unit_keys_and_shares_inputs)"),
    ("gltf/builder.py",
     "typical = float(np.median([x for x in lengths if x > 1e-9])) if any(x > 1e-9 for x in lengths) else 1.0",
     "Gt -> GtE"): _NO_LENGTH,
    ("gltf/builder.py", "if np.linalg.norm(direction) < 1e-9 and skeleton.parents[i] >= 0:", "1e-09 -> 2e-09"):
        _NO_LENGTH,
    ("gltf/builder.py", "if np.linalg.norm(direction) < 1e-9:", "1e-09 -> 2e-09"): _NO_LENGTH,
    # (builder.py's full run, 288 mutants)
    ("gltf/builder.py",
     "typical = float(np.median([x for x in lengths if x > 1e-9])) if any(x > 1e-9 for x in lengths) else 1.0",
     "1e-09 -> 2e-09"): _NO_LENGTH,
    ("gltf/builder.py", "if np.linalg.norm(direction) < 1e-9 and skeleton.parents[i] >= 0:", "Lt -> LtE"): _NO_LENGTH,
    ("gltf/builder.py", "if np.linalg.norm(direction) < 1e-9:", "Lt -> LtE"): _NO_LENGTH,
    ("gltf/builder.py", "direction = origins[children[0]] - origins[i] if children.size else np.zeros(3)", "3 -> 4"):
        ("the placeholder of a joint without a child: its length 0 is below 1e-9, so one of the next two "
         "statements always replaces it with a 3-vector (half its parent's bone, or half a typical bone along its "
         "own y) before it is used"),
    ("gltf/builder.py",
     "off = np.abs(np.linalg.norm(values, axis=-1, keepdims=True) - 1.0) > KEEP_AS_STORED", "Gt -> GtE"):
        ("a rotation key exactly KEEP_AS_STORED from unit length, one float64 value: kept as stored or normalised, "
         "it is between the two rules KEEP_AS_STORED's own entry names (an FP12 key at most 0.00049 off unit kept, "
         "one the validator rejects at 0.00769 normalised)"),
    **{("gltf/builder.py", "side = np.cross(axis, [1.0, 0.0, 0.0] if abs(axis[0]) < 0.9 else [0.0, 1.0, 0.0])",
        what): _SIDE
       # 0.0 -> 1.0: the two in the second list ((1, 1, 0), (0, 1, 1)); the first list's two, (1, 1, 0) and
       # (1, 0, 1), are parallel to a diagonal bone and killed by test_bones_along_the_diagonals_get_their_rings_too.
       # items 1 and 2: the second list as (0, 0, 1). Lt -> LtE: |x| exactly 0.9 takes y, 64 degrees off the bone.
       for what in ("0.0 -> 1.0", "list: items 1 and 2 swapped", "Lt -> LtE")},
    ("gltf/builder.py", "positions += [ring + radius * s for s in (side, other, -side, -other)]", "Add -> Sub"):
        ("the ring's corners listed from the opposite one (-side, -other, side, other): the same four positions in "
         "the same turning order, so the same square and, with the triangles' indices unchanged, the same eight "
         "triangles with their windings (test_triangles_face_outwards)"),
    ("gltf/builder.py", "side = np.cross(axis, [1.0, 0.0, 0.0] if abs(axis[0]) < 0.9 else [0.0, 1.0, 0.0])",
     "1.0 -> 2.0"): ("side is divided by its length on the next line: the cross product with (2, 0, 0) is exactly "
                     "twice the one with (1, 0, 0) (a power of two), and the same unit vector"),
    ("gltf/builder.py", "triangles += [(base, b, a), (base + 1, a, b)]", "list: items 0 and 1 swapped"):
        ("the order of a bone's triangles in the index list: the same triangles, each with its winding "
         "(test_triangles_face_outwards)"),
    ("gltf/builder.py", "off = (np.abs(total - 1.0) > WEIGHT_SUM_TOLERANCE) & (total > 0)", "Gt -> GtE"):
        ("(the first; the second, total >= 0, is killed) a sum exactly WEIGHT_SUM_TOLERANCE from 1, one float64 "
         "value: normalised or not, it is within the validator's 2e-7 per weight"),
    ("gltf/from_animbin.py", "if above is not None and above_rotation is not None:  # the rig's nodes above, taken out",
     "And -> Or"): "both are given together: None and None from a skeleton, two arrays from a rig",
    **{("gltf/from_animbin.py", "if closing and frames[-1] < anim.length:", what): (
        "_joint_keys has dropped the keys at or past the end (test_keys_at_or_past_the_clips_end_are_never_shown), "
        "so every key's frame, the first's and the last's, is below the length: < and <= agree")
       for what in ("Lt -> LtE", "1 -> 0")},
    ("gltf/from_animbin.py", "for joint in sorted({t.joint_id for t in anim.tracks if t.joint_id < joints}):",
     "Lt -> LtE"): ("both entry points refuse a clip animating a joint past the skeleton or the rig's mapping "
                    "before baking (test_skeleton_must_cover_every_joint, "
                    "test_a_clip_on_a_rig_with_too_few_mapped_joints_names_both_counts): no track's joint reaches it"),
    **{("gltf/from_animbin.py", line, what): (
        "the only caller, animbin_to_gltf_on_rig, passes every argument (its own defaults are tested)")
       for line, what in (
           ('def on_rig_document(animbin: AnimbinFile, rig: Rig, region: Refresh = "ntsc", bake_engine: bool = False,',
            "False -> True"),
           ("*, ps1_space: bool = False, skinned: bool = True, notes: list[str] | None = None) -> GLTF2:",
            "False -> True"),
           ("*, ps1_space: bool = False, skinned: bool = True, notes: list[str] | None = None) -> GLTF2:",
            "True -> False"))},
    ("fixed_point.py", "INT16_MIN, INT16_MAX = -0x8000, 0x7FFF", "32768 -> 32769"): _UNUSED,
    ("fixed_point.py", "INT32_MIN, INT32_MAX = -0x8000_0000, 0x7FFF_FFFF", "2147483648 -> 2147483649"): _UNUSED,
    ("fixed_point.py", "INT32_MIN, INT32_MAX = -0x8000_0000, 0x7FFF_FFFF", "2147483647 -> 2147483648"): _UNUSED,
    ("fixed_point.py", "INT32_MIN, INT32_MAX = -0x8000_0000, 0x7FFF_FFFF", "tuple: items 0 and 1 swapped"): _UNUSED,
    ("fixed_point.py", "return ((value + 0x8000) & 0xFFFF) - 0x8000", "Add -> Sub"):
        "adding or subtracting 0x8000 is the same modulo 0x10000",
    ("fixed_point.py", "return ((value + 0x8000_0000) & 0xFFFF_FFFF) - 0x8000_0000", "Add -> Sub"):
        "adding or subtracting 2**31 is the same modulo 2**32",
    ("fixed_point.py", "return q if (a < 0) == (b < 0) else -q", "Lt -> LtE"): _ZERO_QUOTIENT,
    ("fixed_point.py", "return q if (a < 0) == (b < 0) else -q", "0 -> 1"): _ZERO_QUOTIENT,
    ("fixed_point.py", "if a < 0:", "Lt -> LtE"): _ZERO_QUOTIENT,
    ("fixed_point.py", "if a < 0:", "0 -> 1"): _ZERO_QUOTIENT,
    ("fixed_point.py", "if b < 0:", "Lt -> LtE"): _ZERO_QUOTIENT,
    ("fixed_point.py", "if b < 0:", "0 -> 1"): _ZERO_QUOTIENT,
    ("fixed_point.py", "return wrap_int32(idiv(a, b, precision_bits) * sign)", "Mult -> FloorDiv"):
        "sign is 1 or -1, and x * 1 == x // 1, x * -1 == x // -1 for integers",
    ("fixed_point.py", "scale.setflags(write=False)", "statement swapped with the next"):
        "two independent calls (each makes one array read-only); their order changes nothing",
    ("fixed_point.py", "@lru_cache(maxsize=1)", "1 -> 0"):
        "maxsize 0 turns the cache off: the same read-only table is rebuilt on every call, slower but equal",
    ("animbin/keys.py", "@lru_cache(maxsize=64)", "64 -> 65"):
        "the size of a cache of struct formats: a format not cached is built again, equal",
    ("animbin/keys.py", '__slots__ = ("_records", "_count", "_keys")', "tuple: items 0 and 1 swapped"):
        "the order of __slots__ names only orders the instance's slots",
    ("animbin/keys.py", '__slots__ = ("_records", "_count", "_keys")', "tuple: items 1 and 2 swapped"):
        "the order of __slots__ names only orders the instance's slots",
    ("animbin/fastread.py", 'return Name(text, field[len(text) + 1 :] if len(text) < NAME_FIELD_SIZE else b"")', "Lt -> LtE"):
        "at 32 bytes of text the slice field[33:] of the 32-byte field is b'' too",
    # The engine never blends: (current - prev.frame) / frameDiff is an integer division with
    # 0 <= current - prev.frame < frameDiff, so the quotient is 0 wherever it is used, the
    # factor is 0 and the second product of the blend is 0 (spec: sparse keys step).
    **{("animbin/playback.py", line, what): _NO_BLEND for line, whats in {
        "safe = np.where(den == 0, 1, den)": ["0 -> 1", "1 -> 0"],
        "return np.where(den == 0, 0, np.where((num < 0) != (safe < 0), -q, q))":
            ["0 -> 1", "NotEq -> Eq", "Eq -> NotEq", "Lt -> LtE", "tuple: items 1 and 2 swapped", "drop USub"],
        "frame_diff = kf[nxt] - kf[prev]": ["Sub -> Add"],
        "frame_diff = nxt.frame - prev.frame": ["Sub -> Add"],
        "f_prev = (FP12_ONE - factor).astype(np.int16)  # Short(1.0_fp - factor): narrowing": ["Sub -> Add"],
        "factor = ((factor + 0x8000_0000) & 0xFFFF_FFFF) - 0x8000_0000  # int32": ["Sub -> Add", "Add -> Sub", "4294967295 -> 4294967296"],
        "factor = np.where(frame_diff > 0, quotient * FP12_ONE, 0)  # int * 1.0_fp: raw *= q":
            ["Mult -> FloorDiv", "Gt -> GtE", "0 -> 1"],
        "blended = mul_short_array(f_prev[:, None], rot[prev]).astype(np.int32) \\": ["Add -> Sub"],
        "factor = wrap_int32(trunc_div(current - prev.frame, frame_diff) * FP12_ONE) if frame_diff > 0 else 0":
            ["Mult -> FloorDiv", "0 -> 1"],
    }.items() for what in whats},
    ("animbin/playback.py", "last_tick = np.where(writer >= 0, ticks[:, None], -1)", "1 -> 0"):
        "a joint with no write up to a tick then points at tick 0, whose writer entry is -1 for it too (no write)",
    ("animbin/playback.py", "t = np.where(span > 0, (frames - key_frames[i0]) / np.where(span > 0, span, 1.0), 0.0)", "0.0 -> 1.0"):
        "span is 0 only when i0 == i1 (searchsorted puts i0 on the last of equal frames), and then t does not matter",
    ("animbin/playback.py", "i0 = np.clip(idx, 0, n - 1)", "1 -> 0"): "searchsorted(...) - 1 is at most n - 1 already",
    ("animbin/playback.py", "i0 = np.clip(idx, 0, n - 1)", "Sub -> Add"): "searchsorted(...) - 1 is at most n - 1 already",
    ("animbin/playback.py", "i1 = np.where(idx < 0, 0, np.minimum(idx + 1, n - 1))", "0 -> 1"):
        "before the first key (idx < 0) a second index of 1 gives a negative t, clipped to 0: key 0 holds either way",
    ("animbin/playback.py", "return i0, i1, np.clip(t, 0.0, 1.0)", "1.0 -> 2.0"):
        "a frame lies before key i1 (searchsorted), so t < 1 already",
    ("animbin/playback.py", "rest_q = np.asarray(rest_rotations, dtype=np.float64) / FP12_ONE", "Div -> Mult"):
        "the rest rotations are normalised right after: any positive scale gives the same unit quaternion",
    ("animclip/frames/pose.py", "if not fps or not np.isfinite(fps) or fps <= 0:", "LtE -> Lt"):
        "an fps of 0 is already refused by `not fps`",
    **{(module, line, "statement swapped with the next"): _CHECK_ORDER for module, line in (
        ("animclip/sections/sample_elem.py", 'short_tail(self.padding, SAMPLE_ELEM_SIZE, f"{at}.padding", "element")'),
        ("animclip/sections/base.py", 'short_tail(trailing, record, f"{at}.trailing", what)'),
        ("animclip/sections/trigger_data.py",
         'short_tail(self.trailing, TRIGGER_RECORD_SIZE, f"{at}.trailing", f"{TRIGGER_RECORD_SIZE}-byte record")'),
        ("animclip/sections/path.py", '_no_signalling_nan(data, f"{at}.{name}")'),
    )},
    **{("animbin/playback.py", "t = np.where(span > 0, (frames - key_frames[i0]) / np.where(span > 0, span, 1.0), 0.0)", what):
       "where span is 0, i0 == i1 and t does not matter; where it is 1 the divisor is 1 either way"
       for what in ("Gt -> GtE", "0 -> 1", "1.0 -> 2.0")},
    ("animclip/compression.py", "_PROBE_ORDER = (2, 1, 3)", "tuple: items 0 and 1 swapped"): _ONE_PLACE,
    ("animclip/compression.py", "_PROBE_ORDER = (2, 1, 3)", "tuple: items 1 and 2 swapped"): _ONE_PLACE,
    ("animclip/compression.py", "return body[:4] != DAT1_MAGIC and _magic_offset(body) is not None", "4 -> 5"): _PLAIN_DAT1,
    ("animclip/compression.py", "if body[:4] == DAT1_MAGIC:", "4 -> 5"): _PLAIN_DAT1,
    ("animclip/compression.py", 'if len(data) == size and (whose != "the DAT1 header\'s" or data[8:12] == struct.pack("<I", size)):',
     "format '<I' -> '<i'"): "sizes here are at most 2**30 (larger ones are refused above): signed and unsigned pack them alike",
    ("animclip/fastread.py", "if len(data) >= base + 7 and is_compressed(data[base : base + 7]):", "Add -> Sub"):
        "(the first +) files of 36 to 42 bytes are then probed too, but a body of at most 6 bytes cannot inflate to "
        "a DAT1 (4 literals of magic and a match take 8): the file goes to the generated parser either way",
    ("animclip/sections/base_state.py", "len_joints = JOINT_SIZE * joints if JOINT_SIZE * joints <= size else size - size % JOINT_SIZE",
     "LtE -> Lt"):
        "when 16 J is the size exactly, the size is a multiple of 16 and the other branch gives it too",
    ("animclip/sections/trigger_data.py", "len_raw = len_jsons if len_jsons <= room else room  # ksy trigger_data.len_jsons_raw",
     "LtE -> Lt"):
        "when len_jsons is the room exactly, the other branch gives the room: the same",
    ("animclip/placement.py", "pos = 0", "0 -> 1"):
        "the covered intervals always include the header and tables at [0, S) with S >= 16: no gap starts before S",
    ("animclip/placement.py", "offsets = [0] * n", "0 -> 1"):
        "every entry is set by the loop over layout_order(), a permutation of the sections",
    ("animclip/placement.py", "if pos > 0xFFFF_FFFF:", "Gt -> GtE"):
        "at exactly 2**32 bytes the table writer refuses len_dat1 as a u4 instead: a WriteError naming len_dat1 either way",
    ("animclip/placement.py", "if layout is None or any(o is None for o in offsets) or not 0 <= layout.dat1_size <= 0xFFFF_FFFF:",
     "LtE -> Lt"):
        "a recorded size of 0 cannot hold the tables, and one of 2**32 - 1 cannot be covered by a model in memory: "
        "the exact layout is given up (None) either way",
    ("animclip/frames/pose.py", "joints = [j for j in clip.joints if j.hash is not None and j.hash != 0xFFFFFFFF and j.rotation is not None]",
     "4294967295 -> 4294967296"): "the clip view already leaves FFFFFFFF entries out (ALERT's rule), so none reaches this filter",
    ("animclip/sections/values.py", 'return "inf" if f > 0 else "-inf"', "0 -> 1"): "f is an infinity here: +inf is above 1 as well as 0",
    ("animclip/sections/path.py",
     'd: dict[str, Any] = {name: [f32_list(row) for row in np.asarray(getattr(self, name), "<f4")] for name in _MATRICES}',
     "format '<f4' -> '>f4'"): "numpy converts the values to the other byte order: the numbers written are the same",
    ("animclip/sections/path.py", 'bits = np.frombuffer(data, "<u4")', "format '<u4' -> '<i4'"):
        "the masks are below 2**31 and & works on the same 32 bits signed or unsigned",
    ("animclip/sections/base.py", 'if arr.dtype == np.dtype("<f4"):', "format '<f4' -> '>f4'"):
        "a '<f4' array then takes the conversion path, and converting f4 to f4 keeps every bit (NaN payloads included)",
    ("fixed_point.py", "x1 = num // x0", "FloorDiv -> Div"): _WHOLE_DOMAIN,
    ("fixed_point.py", "recip = (FP12_ONE * FP12_ONE) // x0", "FloorDiv -> Div"): _WHOLE_DOMAIN,
    ("meshbin/fastread.py", "if size < header or data[:version_at] != MAGIC:", "Lt -> LtE"):
        "a file exactly as long as its header has no bounding box: both paths raise the generated parser's error",
    ("meshbin/fastread.py", "has_skeleton = num_bones = 0", "0 -> 1"):
        "for version 1 and below both are replaced further down (has_skeleton 0, declared_bones None)",
    ("meshbin/fastread.py", "skeleton = version > 1 and has_skeleton != 0", "Gt -> GtE"):
        "below version 2 has_skeleton is the 0 set above, so the second condition is false anyway",
    ("meshbin/fastread.py", "skeleton = version > 1 and has_skeleton != 0", "1 -> 0"):
        "below version 2 has_skeleton is the 0 set above, so the second condition is false anyway",
    ("meshbin/fastread.py", "has_skeleton=has_skeleton if version > 1 else 0,", "Gt -> GtE"):
        "below version 2 has_skeleton is already 0",
    ("meshbin/fastread.py", "has_skeleton=has_skeleton if version > 1 else 0,", "1 -> 0"):
        "below version 2 has_skeleton is already 0",
    ("meshbin/fastread.py", "declared_bones=num_bones if version > 1 else None,", "Gt -> GtE"): _NO_BONES,
    ("meshbin/fastread.py", "declared_bones=num_bones if version > 1 else None,", "1 -> 0"): _NO_BONES,
    ("animbin/playback.py", "rest_q[:, 0] = 1.0", "1.0 -> 2.0"):
        "the rest rotations are normalised right after: (2, 0, 0, 0) is the identity too",
    ("kaitai_read.py", 'if not isinstance(child, KaitaiStruct) or not getattr(child, "_debug", None):', "Or -> And"):
        "a child that is a struct with no field started yet is entered, and the loop stops at its empty "
        "_debug before changing the path or the offset; anything else stops here either way",
    ("fixed_point.py", "_SQRT_ITERATION_GUARD = 200", "200 -> 201"):
        "a bound against an endless loop: one more step only matters to an input needing 200, and every int16 input converges in far fewer",
    ("quaternion.py", 'return np.concatenate([q[..., 3:4], q[..., 0:3]], axis=-1)', '4 -> 5'): _SLICE_END,
    ("quaternion.py", 'return np.concatenate([q[..., 1:4], q[..., 0:1]], axis=-1)', '4 -> 5'): _SLICE_END,
    ("quaternion.py", 'out = np.where(norm > 0, q / np.where(norm > 0, norm, 1.0), 0.0)', 'Gt -> GtE'): _ZERO_ROW,
    ("quaternion.py", 'out = np.where(norm > 0, q / np.where(norm > 0, norm, 1.0), 0.0)', '1.0 -> 2.0'): _ZERO_ROW,
    ("quaternion.py", 's = np.where(dot < 0, -1.0, 1.0)  # q and -q are one rotation: take the short way', 'Lt -> LtE'): _TIE,
    ("quaternion.py", 'small = sin_a < 1e-9', 'Lt -> LtE'): _SMALL,
    ("quaternion.py", 'small = sin_a < 1e-9', '1e-09 -> 2e-09'): _SMALL,
    ("quaternion.py", 'safe = np.where(small, 1.0, sin_a)', '1.0 -> 2.0'): _SMALL,
    ("quaternion.py", 'm = m / np.where(np.linalg.norm(m, axis=0) > 0, np.linalg.norm(m, axis=0), 1.0)', 'Gt -> GtE'): _COLUMN_NORM,
    ("quaternion.py", 'm = m / np.where(np.linalg.norm(m, axis=0) > 0, np.linalg.norm(m, axis=0), 1.0)', '0 -> 1'): _COLUMN_NORM,
    ("quaternion.py", 'm = m / np.where(np.linalg.norm(m, axis=0) > 0, np.linalg.norm(m, axis=0), 1.0)', '1.0 -> 2.0'): _COLUMN_NORM,
    ("quaternion.py", 'if trace > 0:', 'Gt -> GtE'): _PIVOT,
    ("quaternion.py", 'if trace > 0:', '0 -> 1'): _PIVOT,
    ("quaternion.py", 'elif m[0, 0] > m[1, 1] and m[0, 0] > m[2, 2]:', 'And -> Or'): _PIVOT,
    ("quaternion.py", 'elif m[0, 0] > m[1, 1] and m[0, 0] > m[2, 2]:', '0 -> 1'): _PIVOT,
    ("quaternion.py", 'elif m[0, 0] > m[1, 1] and m[0, 0] > m[2, 2]:', '1 -> 0'): _PIVOT,
    ("quaternion.py", 'elif m[0, 0] > m[1, 1] and m[0, 0] > m[2, 2]:', 'Gt -> GtE'): _PIVOT,
    ("quaternion.py", 'elif m[1, 1] > m[2, 2]:', 'Gt -> GtE'): _PIVOT,
    ("quaternion.py", 'flip = continuity_signs(q, start) < 0', 'Lt -> LtE'): _SIGNS,
    ("quaternion.py", 'flip = continuity_signs(q, start) < 0', '0 -> 1'): _SIGNS,
    ("dumps.py", 'raise WriteError("file", f"the written file does not read back: {exc.reason}") from None', "format 'file' -> 'iile'"): _INNER_FIELD,
    ("dumps.py", 'raise WriteError("file", f"the written file does not read back: {exc.reason}") from None', "format 'file' -> 'fIle'"): _INNER_FIELD,
    ("dumps.py", 'raise WriteError("file", "the written file does not read back as the dump describes")', "format 'file' -> 'iile'"): _INNER_FIELD,
    ("dumps.py", 'raise WriteError("file", "the written file does not read back as the dump describes")', "format 'file' -> 'fIle'"): _INNER_FIELD,
    # --- encode.py (issue 31: its --every 2 run, each survivor below argued; the open ones are in
    # docs/mutation.md)
    ("animclip/frames/encode.py", "ROTATION_CHUNK = 1 << 14", "1 -> 0"):
        ("how many joint-frames _rotation_fields takes at once (0 << 14 is 0, then one frame a chunk): it works "
         "element by element (_choice_sums: no matrix product), so the fields are the same whatever the chunk; "
         "only memory and time change"),
    ("animclip/frames/encode.py", "rows = max(ROTATION_CHUNK // max(j, 1), 1)  # (its working arrays stay small: ~100 floats a sample)", "1 -> 0"):
        ("of the two 1 -> 0 mutants, max(j, 0) is j (a clip has at least one joint: Frames.checked refuses "
         "none); the outer one, rows 0 past 16,384 joints, is killed by "
         "test_more_joints_than_a_rotation_chunk_holds_still_encode_every_frame"),
    ("animclip/frames/encode.py", "needed = math.ceil(math.log2(0.5 / max(tolerance, 2.0**-60)))", "60 -> 61"):
        ("needed only matters up to max_translation_shift (the result is clipped to it, and every caller keeps "
         "the default 15): below 2^-60 either floor gives needed >= 61, above the clip either way (the Pow -> "
         "Mult mutant, a division by 0, is killed by test_the_smallest_positive_bound_is_searched_not_divided_by_zero)"),
    ("animclip/frames/encode.py", "if component in range(8, 11):", "11 -> 12"):
        ("component 11 is the translation shift, whose target is its own base (t_shift on every frame): it is "
         "never past the reach, so it never reaches this line"),
    ("animclip/frames/encode.py",
     "moving = np.flatnonzero((target.max(axis=0) - target.min(axis=0)).max(axis=1) > 0)", "Gt -> GtE"):
        ("a joint whose components of this kind never change is then searched too: its targets equal on every "
         "frame, each field is 0 at any shift (the base is the target rounded), so it gets no element and its "
         "shift is never written; only the work changes"),
    ("animclip/frames/encode.py",
     "shifts[np.setdiff1d(np.arange(len(shifts)), moving)] = 0  # constant: no element, no shift", "0 -> 1"):
        ("a joint whose components of this kind never change has fields 0 at any shift, so no element: its "
         "shift (0 or 1) is never written"),
    ("animclip/frames/encode.py", "look = (FOCUS_FRAMES, max(n_frames // FOCUS_SAMPLES, 1))", "1 -> 0"):
        "look is used only when n_frames > 2 * FOCUS_FRAMES = 96, where n_frames // 64 is at least 1 already",
    **{("animclip/frames/encode.py",
        "if moved and n_frames > 2 * FOCUS_FRAMES:  # (every frame decoded once per joint and pass)", what): (
        "the mutant also gives space a joint's locals at its current shifts where it holds them already (a "
        "joint not moved this pass, or a short clip's joint set in the loop): the same values, since a joint "
        "rounds alone as among the others (test_a_joint_rounds_alone_as_it_rounds_among_the_others)")
       for what in ("And -> Or", "Mult -> FloorDiv")},
    ("animclip/frames/encode.py", "space.set_local(j, *joint_locals(j, shift[j]))", "statement swapped with the next"):
        ("the survivor is the take-back loop's: setting joint j's locals and adding j to the set to refresh "
         "are independent (the refresh comes after the loop); the saturation loop's swap, refresh before "
         "set_local, is killed"),
    ("animclip/frames/encode.py",
     'for count, limit, what in ((shape[:1], MAX_FRAMES, "frame"), (shape[1:2], MAX_JOINTS, "joint")):', "2 -> 3"):
        "only count[0] is read: shape[1:3][0] is shape[1:2][0]",
    ("animclip/frames/encode.py", "kinds = (", "tuple: items 0 and 1 swapped"):
        ("the rotation and translation shifts are chosen independently, each writing its own components of "
         "out: either kind may be first"),
    **{("animclip/frames/encode.py", "_shift_for(translation / math.sqrt(3) * np.exp2(t_shift)),", what): (
        "the translation shift's first guess: nearest rounding's translation error never falls as the shift "
        "grows (multiples of 2^(s+1) are multiples of 2^s; values and bases are integers, exact in float64), "
        "so _choose_shifts ends at the coarsest shift within the tolerance from any start "
        "(test_choose_shifts_finds_what_an_exhaustive_search_finds_from_any_start)")
       for what in ("Mult -> FloorDiv", "3 -> 4", "Div -> Mult")},
    ("animclip/frames/encode.py", "if searched is None or not np.array_equal(searched, plan.shift):", "Is -> IsNot"):
        ("the mutant measures the object-space error afresh after every search instead of taking the search's "
         "last measure of the same integers: the same figure to rounding "
         "(test_the_reported_error_is_a_fresh_measure_of_the_integers_written, "
         "test_measuring_again_where_a_joint_changed_equals_measuring_everything)"),
    ("animclip/frames/encode.py", "space.release()", "statement swapped with the next"):
        ("release only drops the lossy side's transforms; set_all (trials=False) makes new ones, measures and "
         "drops them itself: the errors are the same in either order"),
    ("animclip/frames/encode.py", "space.set_all(local_matrices(read_r, read_s), read_p, trials=False)", "False -> True"):
        ("trials=False only drops the transforms after measuring, and the release on the next line does too: "
         "the same errors"),
    ("animclip/frames/encode.py", "if lookup is False or stride == 0 and lookup is None:", "0 -> 1"):
        ("a stride is whole u32 words (0, 4, 8, ...), never 1; and at stride 0 the table never pays "
         "(table bytes + 0 >= 0), so lookup None returns the same packed samples and no table further down"),
    # (encode.py's other half, --every 2 --phase 1)
    ("animclip/frames/encode.py", "ROTATION_CHUNK = 1 << 14", "LShift -> RShift"):
        ("1 >> 14 is 0, as the 1 -> 0 mutant's 0 << 14: then one frame a chunk; _rotation_fields works element "
         "by element (_choice_sums: no matrix product), so the fields are the same whatever the chunk; only "
         "memory and time change"),
    ("animclip/frames/encode.py", "fields: np.ndarray = field(repr=False)", "False -> True"):
        "only the dataclass's repr changes (it would print the fields array); nothing prints one",
    **{("animclip/frames/encode.py", line, "tuple: items 0 and 1 swapped"):
        "a reduction over the same two axes, (2, 0) or (0, 2): the same per-joint values"
       for line in ("low = pos.min(axis=(0, 2))", "reach = np.abs(pos).max(axis=(0, 2))")},
    **{("animclip/frames/encode.py", line, "1e-300 -> 2e-300"): (
        "the floor under a zero reach, lowest value, span or step before log2: 32,767 (or FIELD_REACH) over "
        "1e-300 or 2e-300 is past 2^900 either way, and a step under 2e-300 gives log2 below -900: the shift is "
        "clipped to 0..max_shift (15) right after, the same at either floor")
       for line in ("by_range = np.floor(np.log2(I16_MAX / np.maximum(reach, 1e-300)))",
                    "by_base = np.floor(np.log2(I16_MAX / np.maximum(lowest, 1e-300)))",
                    "by_fields = np.floor(np.log2(FIELD_REACH / np.maximum(span, 1e-300)))",
                    "return np.maximum(np.floor(np.log2(np.maximum(step, 1e-300) * 2)), 0).astype(np.int64)")},
    ("animclip/frames/encode.py", "needed = math.ceil(math.log2(0.5 / max(tolerance, 2.0**-60)))", "2.0 -> 4.0"):
        ("as 60 -> 61 on this line: the floor only acts below a tolerance of 2^-60, where needed is 61 or more at "
         "either floor, past max_translation_shift (15), to which the result is clipped"),
    ("animclip/frames/encode.py",
     "_ROUNDED_UP = ((np.arange(16)[:, None] >> np.array([3, 2, 1, 0])) & 1).astype(bool)", "16 -> 17"):
        ("the extra row, way 16 (no bit of 16 among bits 3..0: no component rounded up, as way 0), is never "
         "indexed: the argmax it is indexed by runs over _choice_sums' 16 ways"),
    ("animclip/frames/encode.py", "np.add(start, terms[..., 1], out=xy[..., 1])", "statement swapped with the next"):
        "the two additions write xy's columns 1 and 2 from start and terms only: independent, either may be first",
    ("animclip/frames/encode.py",
     "return (xy[..., :, None] + zw[..., None, :]).reshape(terms.shape[:-1] + (16,))", "tuple: items 0 and 1 swapped"):
        ("xy[:, ..., None] is xy[..., :, None]: a full slice of the first axis instead of the last, then a new "
         "last axis, the same view"),
    ("animclip/frames/encode.py", "if lookup:", "if: condition negated"):
        ("the branch after the u16 check (more than 65,535 distinct samples): never reached, as encode refuses "
         "more than 65,535 frames and there are never more distinct samples than frames"),
    ("animclip/frames/encode.py", "if (elem_shifts[: len(small_ones)] > MAX_ERROR_SHIFT).any() or (", "Or -> And"):
        _SHIFTS_FIT,
    ("animclip/frames/encode.py", "elem_shifts[len(small_ones) :] > LARGE_SHIFT_MAX", "Gt -> GtE"): _SHIFTS_FIT,
    ("animclip/frames/encode.py", "if len(samples) > 0xFFFF:", "65535 -> 65536"):
        ("there are never more distinct samples than frames, and encode refuses more than 65,535 frames: "
         "neither bound is ever passed"),
    ("animclip/frames/encode.py", "return packed, None", "tuple: items 0 and 1 swapped"):
        ("the survivor is the return after the u16 check (more than 65,535 distinct samples): never reached, "
         "as encode refuses more than 65,535 frames (the two other returns of this text are reached by "
         "ordinary clips: this reason is not theirs)"),
    # --- object_space.py (issue 31's full run of its 144 mutants)
    ("animclip/frames/object_space.py", "p99: float = 0.0", "0.0 -> 1.0"):
        ("every ObjectError is made by object_error_of, which passes p99 (the percentile, or 0.0 for no "
         "samples: the default is never used)"),
    **{("animclip/frames/object_space.py", "while k >= 0 and depth[k] < 0:", what): (
        "a root's depth is 0 and every other joint's at least 1: the mutant walks again from a root already "
        "placed, which appends only the root itself and stops at its parent -1, so it is given depth 0 again")
       for what in ("Lt -> LtE", "0 -> 1")},
    ("animclip/frames/object_space.py", "d = depth[k] if k >= 0 else -1", "1 -> 0"):
        ("every depth then counts from 1 instead of 0 (a chain stopping at a joint placed before adds to that "
         "joint's depth, which is shifted alike): the same order, and only the order (argsort) is returned"),
    ("animclip/frames/object_space.py", "out.append(k)", "statement swapped with the next"):
        ("out and stack are separate lists and k is popped before both: appending k to out before or after its "
         "children go onto the stack gives the same order"),
    **{("animclip/frames/object_space.py", line, what): (
        "a placeholder for the lossy side before set_all (or after release): nothing reads it before set_all "
        "replaces it (trial, focus, refresh and err are used only after set_all), so its shape never matters")
       for line, what in (("self.m = self.t = self.local_m = self.local_t = np.zeros((0, 0))", "0 -> 1"),
                          ("self.joint_err = np.zeros((n, 0))", "tuple: items 0 and 1 swapped"),
                          ("self.joint_err = np.zeros((n, 0))", "0 -> 1"),
                          ("out.joint_err = np.zeros((len(self.parents), 0))", "tuple: items 0 and 1 swapped"),
                          ("out.joint_err = np.zeros((len(self.parents), 0))", "0 -> 1"))},
    ("animclip/frames/object_space.py", "if m is None or t is None:", "Or -> And"):
        "every caller passes both m and t or neither",
    ("animclip/frames/object_space.py", "np.matmul(m[p], lm[j], out=m[j])", "statement swapped with the next"):
        ("the product writes m[j], the einsum t[j]; both read only the parent's m[p] (p != j), so either may "
         "come first (the translation's own += t[p] follows both)"),
    **{("animclip/frames/object_space.py",
        "self.refresh(np.flatnonzero(self.parents < 0))  # (every joint is in some root's subtree)", what): (
        "refresh measures the union of the subtrees given: the roots' already hold every joint, so also "
        "giving the joints whose parent is joint 0 adds none")
       for what in ("Lt -> LtE", "0 -> 1")},
    ("animclip/frames/object_space.py",
     "top = np.argpartition(worst, -count)[-count:] if len(worst) > count else np.arange(len(worst))", "Gt -> GtE"):
        "with exactly count frames the top count are all of them: argpartition's last count is every frame",
    ("animclip/frames/object_space.py", "rr = rr / np.linalg.norm(rr, axis=-1, keepdims=True)", "Div -> Mult"):
        ("local_matrices turns the rotations into matrices through quat_to_matrix, which normalises each row "
         "first: a row times its length has the same direction (the 1 -> 0 mutant, a norm across frames, is "
         "killed)"),
    ("animclip/frames/object_space.py",
     "space.set_all(local_matrices(rr, read_scl), np.asarray(read_pos, np.float64), trials=False), shell",
     "False -> True"):
        ("trials=False only releases the lossy side's transforms after measuring (memory): the errors returned "
         "are the same"),
}

CONTRACT = {
    "animclip/frames/encode.py": (
        "encode() promises a file whose decoded clip meets the bound it is given (object space, or each joint's "
        "own tolerance) as far as the format's precision allows, and reports the errors a reader of that file "
        "sees, or refuses the clip naming why; which shifts, bases and windows it picks to get there, and how "
        "much work it spends finding them, are its choice (fewer bits are better, and measured by bench/codec.py, "
        "not promised)"),
    "animclip/frames/object_space.py": (
        "the object-space error of a clip is measured exactly as its docstrings define it (virtual vertices at "
        "the shell, through the hierarchy); a joint's reach (ObjectSpace.reach) only scales where the encoder's "
        "search starts, so the encoder's contract above is what it must keep"),
}
"""The promise of a module whose WITHIN_CONTRACT survivors are allowed: what every test of it holds."""

ENCODE = "animclip/frames/encode.py"
_C_TUNING = ("a tuning constant of the object-space search (how many frames it looks at first, how many bisection "
             "steps it takes, how fine it may start, how far saturation reaches): every step the search keeps is "
             "measured against the bound on every frame, so any value meets it; the value sets which valid file "
             "is written and the work spent, measured on motion capture by tools/mutant_effect.py (256 -> 512 for "
             "OBJECT_SEARCH_FINEST wrote 1 % fewer bytes there: a tuning lead, not a bug)")
_C_START = ("where the search starts: a shift's first guess (_shift_for, the rotation's / 4, the translation's "
            "finest unit) or the scale k of the bisection and its fall-back; the component search refines from any "
            "start and measures every step it keeps on every frame, so the bound holds from any start "
            "(test_a_start_chosen_on_every_other_frame_still_meets_the_bound_on_all); the start sets which "
            "local optimum it reaches, so the bits and the work change")
_C_TIE = ("a measured error exactly equal to the bound or tolerance (or a dot product of exactly 0 between two "
          "frames' quaternions, where q and -q are the same rotation and both arcs are half turns): taking the "
          "step or not both keep the bound, and either sign decodes every frame to the same rotation; only "
          "which valid file is written changes, and only where two float64 measures agree to the last bit "
          "(_choose_shifts' ties are pinned by test_choose_shifts_follows_any_error_it_is_given, where the "
          "errors are made up; here they are measured)")
_C_EFFORT = ("how much the component search tries (which components and passes it runs, when a refused step is "
             "tried again, the cap on passes, the focus frames, when a joint's decoded frames are refreshed): "
             "every step it keeps is measured on every frame, so the file meets the bound; trying less leaves "
             "bits, trying more costs time (tools/mutant_effect.py: from 1 % fewer bytes at 1.5x the CPU to "
             "1 % more at 0.8x). Where no joint's error depends on another's, the search's promise (no step "
             "left that the bound allows) is held by "
             "test_independent_joints_are_left_no_coarser_step_the_bound_allows, which kills the mutants that "
             "break it there")
_C_SATURATION = ("the saturation window (which frames a field is held on, how far the base is raised, which "
                 "frames count as changed, the widths cached at each shift): each trial measures the frames it "
                 "changes against the bound and undoes itself otherwise, and a window that saves no whole word "
                 "is undone, so only which valid file is written changes; on the motion-capture clips no "
                 "window pays and every mutant writes the same files (tools/mutant_effect.py). Held at the "
                 "top of a field: test_a_field_a_step_past_a_power_of_two_saturates_when_that_saves_a_word")
_C_SCORES = ("the rounding choice's dot products are taken with the target times its squared length instead of "
             "over its length: each quaternion's 16 scores are all scaled by one positive factor, so the same "
             "rounding wins except where two scores agree to within float64 rounding (two roundings whose angles "
             "to the target differ by far less than the format's step)")
_C_PAST_2_32 = ("the translation span's min(..., 0) as min(..., 1): a joint whose lowest value is between 0 and 1 "
                "unit gets a span up to a unit smaller, which changes the field reach's floor only for a span "
                "within a unit of a power of two past 2^32 units; there the clip is refused for its tolerance "
                "either way (test_a_span_just_under_the_fields_reach_is_refused_for_its_tolerance_not_its_range)")
_C_DIVISOR_GUARD = ("the divisor's float guard: 1e-9 and 2e-9 differ only where 2^e / scale is within 2e-9 above "
                    "an integer, where the two divisors give scales within 1e-12 of each other")
WITHIN_CONTRACT: dict[tuple[str, str, str], str] = {
    ("animclip/frames/object_space.py", "return np.maximum(out, 1e-12)", "1e-12 -> 2e-12"): (
        "a joint's reach is at least its shell times its scale (both positive), so the floor acts only where those "
        "are below 2e-12 units; there it changes where the search starts for a bound under about 1e-11 units "
        "(k * bound / reach), never whether the bound is met: " + _C_START),
    # --- encode.py (issue 31: what both halves' runs left after their tests, measured by
    # tools/mutant_effect.py; docs/mutation.md has the table)
    **{(ENCODE, source, what): _C_TUNING for source, what in (
        ("FOCUS_FRAMES = 48", "48 -> 49"),
        ("FOCUS_SAMPLES = 64", "64 -> 65"),
        ("OBJECT_SEARCH_FINEST = 256.0", "256.0 -> 512.0"),
        ("SEARCH_FRAMES = 256", "256 -> 257"),
        ("SEARCH_STEPS = 5", "5 -> 6"),
        ("TRIM_FRAMES = 64", "64 -> 65"),
        ("TRIM_STEPS = 16", "16 -> 17"),
    )},
    **{(ENCODE, source, what): _C_TIE for source, what in (
        ("elif worst(shifts_at(low)) <= bound:", "LtE -> Lt"),
        ("flips = np.concatenate([np.ones((1,) + rot.shape[1:2]), np.where(dots < 0, -1.0, 1.0)])", "Lt -> LtE"),
        ("if space.trial(j, lm, lt, frames, limit=bound) > bound:", "Gt -> GtE"),
        ("if worst(shifts_at(high)) <= bound:", "LtE -> Lt"),
        ("if worst(shifts_at(mid)) <= bound:", "LtE -> Lt"),
        ("ok = space.trial(j, *joint_locals(j, shift[j], changed), changed, limit=bound) <= bound", "LtE -> Lt"),
        ("while (over := np.flatnonzero(space.err.max(axis=0) > np.maximum(bound, before))).size:", "Gt -> GtE"),
    )},
    **{(ENCODE, source, what): _C_PAST_2_32 for source, what in (
        ("span = (pos.max(axis=0) - np.minimum(pos.min(axis=0), 0)).max(axis=1)", "0 -> 1"),
    )},
    **{(ENCODE, source, what): _C_SCORES for source, what in (
        ("unit = target / np.linalg.norm(target, axis=-1, keepdims=True)", "Div -> Mult"),
    )},
    **{(ENCODE, source, what): _C_START for source, what in (
        ("_shift_for(np.radians(rotation_deg) / 4 * QUATERNION_SCALE),", "4 -> 5"),
        ("_shift_for(np.radians(rotation_deg) / 4 * QUATERNION_SCALE),", "Div -> Mult"),
        ("_shift_for(np.radians(rotation_deg) / 4 * QUATERNION_SCALE),", "Mult -> FloorDiv"),
        ("best = max(best - 0.5, -math.log2(OBJECT_SEARCH_FINEST))", "0.5 -> 1.0"),
        ("finest = local.translation / (OBJECT_SEARCH_FINEST if isinstance(tolerance, ObjectTolerance) else 1.0)", "Div -> Mult"),
        ("k = 2.0**log_k", "2.0 -> 4.0"),
        ("k = 2.0**log_k", "Pow -> Mult"),
        ("low, high = -math.log2(OBJECT_SEARCH_FINEST), 2.0", "2.0 -> 4.0"),
        ("low, high = -math.log2(OBJECT_SEARCH_FINEST), 2.0", "drop USub"),
        ("mid = (low + high) / 2", "2 -> 3"),
        ("n_joints, n_frames = len(reach), plan.target.shape[0]", "0 -> 1"),
        ("np.minimum(np.degrees(k * bound / reach), LOCAL_ROTATION_ERROR.high), np.full(n_joints, k * bound), frames", "Div -> Mult"),
        ("return np.maximum(np.floor(np.log2(np.maximum(step, 1e-300) * 2)), 0).astype(np.int64)", "0 -> 1"),
        ("return np.maximum(np.floor(np.log2(np.maximum(step, 1e-300) * 2)), 0).astype(np.int64)", "2 -> 3"),
        ("return np.maximum(np.floor(np.log2(np.maximum(step, 1e-300) * 2)), 0).astype(np.int64)", "Mult -> FloorDiv"),
        ("t_shift = _translation_shifts(pos, finest / math.sqrt(3), max_translation_shift, label)", "3 -> 4"),
        ("while worst(shift, space, plan) > bound and best > -math.log2(OBJECT_SEARCH_FINEST):", "Gt -> GtE"),
        ("while worst(shift, space, plan) > bound and best > -math.log2(OBJECT_SEARCH_FINEST):", "drop USub"),
    )},
    **{(ENCODE, source, what): _C_EFFORT for source, what in (
        ("animated = (target.max(axis=0) - target.min(axis=0)) > 0  # (J, 12)", "0 -> 1"),
        ("animated = (target.max(axis=0) - target.min(axis=0)) > 0  # (J, 12)", "Gt -> GtE"),
        ("candidates &= animated", "BitAnd= -> BitOr="),
        ("coarser = next((t for t in range(s + 1, MAX_ERROR_SHIFT + 1)", "1 -> 0"),
        ("coarser = next((t for t in range(s + 1, MAX_ERROR_SHIFT + 1)", "Add -> Sub"),
        ("for _ in range(2 * MAX_ERROR_SHIFT + 2):", "2 -> 3"),
        ("for _ in range(2 * MAX_ERROR_SHIFT + 2):", "Add -> Sub"),
        ("frames = space.focus(j, *look) if n_frames > 2 * FOCUS_FRAMES else None", "2 -> 3"),
        ("frames = space.focus(j, *look) if n_frames > 2 * FOCUS_FRAMES else None", "Gt -> GtE"),
        ("if moved and n_frames > 2 * FOCUS_FRAMES:  # (every frame decoded once per joint and pass)", "2 -> 3"),
        ("if moved and n_frames > 2 * FOCUS_FRAMES:  # (every frame decoded once per joint and pass)", "Gt -> GtE"),
        ("if top_field(j, c, t).bit_length() < width), None)", "Lt -> LtE"),
        ("look = (FOCUS_FRAMES, max(n_frames // FOCUS_SAMPLES, 1))", "tuple: items 0 and 1 swapped"),
        ("moved = False", "False -> True"),
        ("tried, retried = candidates.copy(), True", "True -> False"),
        ("tried[j, c] = False", "False -> True"),
    )},
    **{(ENCODE, source, what): _C_SATURATION for source, what in (
        ("before = base[j] + fields * step", "Add -> Sub"),
        ("changed = np.flatnonzero((base[j] + trimmed * step != before).any(axis=1))", "Add -> Sub"),
        ("changed = np.flatnonzero((base[j] + trimmed * step != before).any(axis=1))", "Mult -> FloorDiv"),
        ("changed = np.flatnonzero((base[j] + trimmed * step != before).any(axis=1))", "NotEq -> Eq"),
        ("for s in range(MAX_ERROR_SHIFT + 1):", "1 -> 0"),
        ("for s in range(MAX_ERROR_SHIFT + 1):", "Add -> Sub"),
        ("if excess > TRIM_STEPS:", "Gt -> GtE"),
        ("if ok and changed.size:", "And -> Or"),
        ("if outside[low] > TRIM_FRAMES or (c in range(8, 11) and raised > I16_MAX):", "11 -> 12"),
        ("if outside[low] > TRIM_FRAMES or (c in range(8, 11) and raised > I16_MAX):", "Gt -> GtE"),
        ("needed = bits % 32", "Mod -> FloorDiv"),
        ("outside = [int(((fields[:, c] < low) | (fields[:, c] > low + cap)).sum()) for low in range(excess + 1)]", "1 -> 0"),
        ("outside = [int(((fields[:, c] < low) | (fields[:, c] > low + cap)).sum()) for low in range(excess + 1)]", "BitOr -> BitAnd"),
        ("outside = [int(((fields[:, c] < low) | (fields[:, c] > low + cap)).sum()) for low in range(excess + 1)]", "Gt -> GtE"),
        ("outside = [int(((fields[:, c] < low) | (fields[:, c] > low + cap)).sum()) for low in range(excess + 1)]", "Lt -> LtE"),
        ("raised = base[j, c] + (low << s)", "Add -> Sub"),
        ("raised = base[j, c] + (low << s)", "LShift -> RShift"),
    )},
    **{(ENCODE, source, what): _C_DIVISOR_GUARD for source, what in (
        ("np.ceil(one * np.maximum(1 / scl.min(axis=-1), 1.0) - 1e-9) if scaled else np.full((n_frames, n_joints), one)", "1e-09 -> 2e-09"),
    )},
}
"""Survivors that are not equivalent but stay within their module's CONTRACT: they change which
valid output is chosen, or the work spent choosing it. tools/mutant_effect.py measures each on
real motion capture (docs/mutation.md quotes its table): none may pass the bound there or report
other figures for the same file."""

STRUCT_FORMAT = re.compile(r"^[<>=!@]?(\d*[xcbBhHiIlLqQefdsp?])+$")
STRUCT_SWAP = {"b": "B", "B": "b", "h": "H", "H": "h", "i": "I", "I": "i", "q": "Q", "Q": "q",
               "<": ">", ">": "<", "f": "i", "d": "q"}
DTYPE_STRING = re.compile(r"^[<>|=]?[iuf][1248]$")
BINOP_SWAP = {ast.Add: ast.Sub, ast.Sub: ast.Add, ast.Mult: ast.FloorDiv, ast.Div: ast.Mult, ast.FloorDiv: ast.Div,
              ast.Mod: ast.FloorDiv, ast.LShift: ast.RShift, ast.RShift: ast.LShift, ast.BitAnd: ast.BitOr,
              ast.BitOr: ast.BitAnd, ast.BitXor: ast.BitOr, ast.Pow: ast.Mult}
CMP_SWAP = {ast.Lt: ast.LtE, ast.LtE: ast.Lt, ast.Gt: ast.GtE, ast.GtE: ast.Gt, ast.Eq: ast.NotEq,
            ast.NotEq: ast.Eq, ast.Is: ast.IsNot, ast.IsNot: ast.Is, ast.In: ast.NotIn, ast.NotIn: ast.In}


@dataclass
class Mutant:
    module: str
    index: int
    line: int
    what: str
    source_line: str
    status: str = ""
    seconds: float = 0.0
    start_line: int = 0
    end_line: int = 0
    tests_run: int = 0
    planted: bool = False
    """A hand-made mutant of :data:`PLANTED` (its ``what`` is the bug's name)."""


class _Sites(ast.NodeVisitor):
    """Every mutation site of a module, in a fixed walk order; with ``target``, the walk
    also applies that site's mutation to the tree."""

    def __init__(self, only: list[str] | None, target: int | None = None):
        self.only = only
        self.target = target
        self.sites: list[tuple[int, int, int, str]] = []  # line, statement's first and last line, what
        self._inside = only is None
        self._skip = 0
        self._statements: list[ast.stmt] = []

    # The tests to run are those that execute the mutant's statement (a multi-line
    # statement's constants may sit on a line that never gets a line event of its own).
    def visit(self, node):
        if isinstance(node, ast.stmt):
            self._statements.append(node)
            try:
                return super().visit(node)
            finally:
                self._statements.pop()
        return super().visit(node)

    # One site: record it, and when it is the target, run the mutation.
    def _site(self, node: ast.AST, what: str, mutate) -> None:
        if not self._inside or self._skip:
            return
        if self.target == len(self.sites):
            mutate()
        span = self._statements[-1] if self._statements else node
        if isinstance(span, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and span is not node:
            span = node  # a default value or a decorator: its own lines (run at import)
        line = getattr(node, "lineno", 0)
        self.sites.append((line, getattr(span, "lineno", line), getattr(span, "end_lineno", None) or line, what))

    def _scoped(self, node, names):
        if self.only is not None and not self._inside and node.name in self.only:
            self._inside = True
            self.generic_visit(node)
            self._inside = False
        else:
            self.generic_visit(node)

    def visit_FunctionDef(self, node):
        # Annotations and docstrings are not behaviour.
        self._skip_annotations(node)
        self._scoped(node, self.only)

    visit_AsyncFunctionDef = visit_FunctionDef

    def visit_ClassDef(self, node):
        self._scoped(node, self.only)

    def _skip_annotations(self, node):
        for arg in [*node.args.args, *node.args.kwonlyargs, *node.args.posonlyargs]:
            arg.annotation = None
        node.returns = None

    def visit_AnnAssign(self, node):
        node.annotation = ast.Constant(None)
        self.generic_visit(node)

    def visit_JoinedStr(self, node):
        # Messages: their wording is not mutated, but the values they show are.
        for value in node.values:
            if isinstance(value, ast.FormattedValue):
                self.visit(value.value)

    def visit_Expr(self, node):
        if isinstance(node.value, ast.Constant) and isinstance(node.value.value, str):
            return  # docstring
        self.generic_visit(node)

    # Tuples whose order means nothing: the classes of an ``except`` or an isinstance, the
    # right side of ``in``. Swapping their items is an equivalent mutant every time.
    def visit_ExceptHandler(self, node):
        _unordered(node.type)
        self.generic_visit(node)

    def visit_Subscript(self, node):
        # tuple[str, int, int] and the like are types, not values.
        if isinstance(node.value, ast.Name) and node.value.id in ("tuple", "dict", "Tuple", "Dict", "Callable", "Union"):
            _unordered(node.slice)
        self.generic_visit(node)

    def visit_Call(self, node):
        if isinstance(node.func, ast.Name) and node.func.id in ("isinstance", "issubclass") and len(node.args) == 2:
            _unordered(node.args[1])
        # "u1" is a numpy type only where numpy takes one (elsewhere it may be a field name).
        name = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", "")
        if name in ("dtype", "frombuffer", "astype", "view", "array", "asarray", "zeros", "empty", "full", "ones"):
            for arg in node.args:
                arg.dtype = True
        for keyword in node.keywords:
            if keyword.arg == "dtype":
                keyword.value.dtype = True
        self.generic_visit(node)

    def visit_BinOp(self, node):
        new = BINOP_SWAP.get(type(node.op))
        if new is not None:
            self._site(node, f"{type(node.op).__name__} -> {new.__name__}", lambda: setattr(node, "op", new()))
        self.generic_visit(node)

    def visit_AugAssign(self, node):
        new = BINOP_SWAP.get(type(node.op))
        if new is not None:
            self._site(node, f"{type(node.op).__name__}= -> {new.__name__}=", lambda: setattr(node, "op", new()))
        self.generic_visit(node)

    def visit_UnaryOp(self, node):
        if isinstance(node.op, (ast.Not, ast.USub, ast.Invert)) and not (
            isinstance(node.op, ast.USub) and isinstance(node.operand, ast.Constant)
        ):
            self._site(node, f"drop {type(node.op).__name__}", lambda: _replace_with(node, node.operand))
        self.generic_visit(node)

    def visit_BoolOp(self, node):
        new = ast.Or if isinstance(node.op, ast.And) else ast.And
        self._site(node, f"{type(node.op).__name__} -> {new.__name__}", lambda: setattr(node, "op", new()))
        self.generic_visit(node)

    def visit_Compare(self, node):
        for op, right in zip(node.ops, node.comparators):
            if isinstance(op, (ast.In, ast.NotIn)):
                _unordered(right)
        for i, op in enumerate(node.ops):
            new = CMP_SWAP.get(type(op))
            if new is not None:
                def mutate(i=i, new=new):
                    node.ops[i] = new()
                self._site(node, f"{type(op).__name__} -> {new.__name__}", mutate)
        self.generic_visit(node)

    # A condition is negated only when no other mutant does it already (a single
    # comparison is flipped by the comparison mutants, ``not x`` by dropping the not).
    def _negate(self, node, what):
        test = node.test
        if not (isinstance(test, ast.Compare) and len(test.ops) == 1) and not (
            isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not)
        ):
            self._site(node, f"{what}: condition negated", lambda: setattr(node, "test", ast.UnaryOp(ast.Not(), test)))

    def visit_IfExp(self, node):
        self._negate(node, "conditional expression")
        self.generic_visit(node)

    def visit_If(self, node):
        self._negate(node, "if")
        self.generic_visit(node)

    def visit_While(self, node):
        self._negate(node, "while")
        self.generic_visit(node)

    def visit_Constant(self, node):
        value = node.value
        if isinstance(value, bool):
            self._site(node, f"{value} -> {not value}", lambda: setattr(node, "value", not value))
        elif isinstance(value, int):
            new = value + 1 if value != 1 else 0
            self._site(node, f"{value} -> {new}", lambda: setattr(node, "value", new))
        elif isinstance(value, float):
            new = value * 2 if value else 1.0
            self._site(node, f"{value!r} -> {new!r}", lambda: setattr(node, "value", new))
        elif isinstance(value, str) and STRUCT_FORMAT.match(value) and len(value) > 1 or (
            isinstance(value, str) and DTYPE_STRING.match(value) and (value[0] in "<>|=" or getattr(node, "dtype", False))
        ):
            single_bytes = not DTYPE_STRING.match(value) and set(value.lstrip("<>=!@")) <= set("0123456789bBxcs?")
            for i, ch in enumerate(value):
                swap = STRUCT_SWAP.get(ch) if not DTYPE_STRING.match(value) else {"i": "u", "u": "i", "<": ">"}.get(ch)
                if single_bytes and ch in "<>":
                    continue  # byte order means nothing to single bytes
                if swap:
                    new = value[:i] + swap + value[i + 1:]
                    self._site(node, f"format {value!r} -> {new!r}", lambda new=new: setattr(node, "value", new))

    def _swap_items(self, node, items, kind):
        for i in range(len(items) - 1):
            a, b = items[i], items[i + 1]
            if ast.dump(a) == ast.dump(b) or isinstance(a, ast.Starred) or isinstance(b, ast.Starred):
                continue
            def mutate(i=i):
                items[i], items[i + 1] = items[i + 1], items[i]
            self._site(node, f"{kind}: items {i} and {i + 1} swapped", mutate)

    def visit_Tuple(self, node):
        if len(node.elts) == 2 and isinstance(node.elts[0], ast.Constant) and isinstance(node.elts[0].value, str):
            node.elts[1].dtype = True  # a (name, type) field of a structured dtype
        if isinstance(node.ctx, ast.Load) and not getattr(node, "unordered", False) and 2 <= len(node.elts) <= 8:
            self._swap_items(node, node.elts, "tuple")
        self.generic_visit(node)

    def visit_List(self, node):
        if isinstance(node.ctx, ast.Load) and not getattr(node, "unordered", False) and 2 <= len(node.elts) <= 8:
            self._swap_items(node, node.elts, "list")
        self.generic_visit(node)

    def generic_visit(self, node):
        # Two adjacent statements that are calls (a writer's fields) swapped.
        for name in ("body", "orelse"):
            body = getattr(node, name, None)
            if isinstance(body, list) and body and isinstance(body[0], ast.stmt):
                for i in range(len(body) - 1):
                    a, b = body[i], body[i + 1]
                    if (isinstance(a, ast.Expr) and isinstance(b, ast.Expr) and isinstance(a.value, ast.Call)
                            and isinstance(b.value, ast.Call) and ast.dump(a) != ast.dump(b)):
                        def mutate(body=body, i=i):
                            body[i], body[i + 1] = body[i + 1], body[i]
                        self._site(a, "statement swapped with the next", mutate)
        super().generic_visit(node)


def _unordered(node: ast.AST | None) -> None:
    if isinstance(node, (ast.Tuple, ast.List)):
        node.unordered = True


def _replace_with(node: ast.UnaryOp, operand: ast.AST) -> None:
    # A node cannot replace itself from inside the walk: ``not x`` becomes ``not (not x)``
    # (the truth of x), ``-x`` and ``~x`` become ``+x``.
    if isinstance(node.op, ast.Not):
        node.operand = ast.UnaryOp(ast.Not(), operand)
    else:
        node.op = ast.UAdd()


def sites(path: Path, only: list[str] | None) -> list[tuple[int, int, int, str]]:
    visitor = _Sites(only)
    visitor.visit(ast.parse(path.read_text()))
    return visitor.sites


def mutated_source(path: Path, only: list[str] | None, index: int) -> str:
    tree = ast.parse(path.read_text())
    visitor = _Sites(only, target=index)
    visitor.visit(tree)
    return ast.unparse(ast.fix_missing_locations(tree))


def plain_source(path: Path) -> str:
    """The module unparsed with annotations dropped the way the visitor drops them, to
    compare a mutant against."""
    tree = ast.parse(path.read_text())
    _Sites(None, target=-1).visit(tree)
    return ast.unparse(tree)


# ----------------------------------------------------------------------------- running


class _ServeMutant(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    def __init__(self, name: str, path: Path, source: str):
        self.name, self.path, self.source = name, path, source

    def find_spec(self, fullname, path=None, target=None):
        if fullname != self.name:
            return None
        return importlib.util.spec_from_file_location(fullname, self.path, loader=self)

    def create_module(self, spec):
        return None

    def exec_module(self, module):
        exec(compile(self.source, str(self.path), "exec"), module.__dict__)


def module_name(rel: str) -> str:
    return "animspec." + rel.removesuffix(".py").replace("/", ".")


def serve(rel: str, source: str | None, also: tuple[str, ...] = ()) -> None:
    """In a forked child: drop animspec (and the modules ``also`` names, which hold parts of it)
    from the module cache, so the next import takes ``source`` as module ``rel`` (served from
    memory; None: the module on disk) and everything that imports it."""
    for name in [n for n in sys.modules if n == "animspec" or n.startswith("animspec.") or n in also]:
        del sys.modules[name]
    if source is not None:
        sys.meta_path.insert(0, _ServeMutant(module_name(rel), PACKAGE / rel, source))


class _LineTrace:
    """pytest plugin for the unmutated run: which test executes which line of one module
    (None for lines run outside any test: the module's import, at collection).

    Two things would hide a test from a line it depends on: a fixture shared by a test
    file runs during its first test's setup only, and an ``lru_cache`` computes once. So a
    line run during a setup is credited to every test of that file ("file::" entries), and
    the module's caches are cleared before each test."""

    def __init__(self, filename: str, module: str):
        self.filename = filename
        self.module = module
        self.current: str | None = None
        self.order: list[str] = []
        self.lines: dict[int, set] = {}

    @pytest.hookimpl(hookwrapper=True)
    def pytest_runtest_setup(self, item):
        test = self.current
        self.current = "file::" + item.nodeid.split("::", 1)[0]
        yield
        self.current = test

    def tracer(self, frame, event, arg):
        if frame.f_code.co_filename != self.filename:
            return None
        return self._local

    def _local(self, frame, event, arg):
        if event == "line":
            self.lines.setdefault(frame.f_lineno, set()).add(self.current)
        return self._local

    def pytest_runtest_protocol(self, item, nextitem):
        self.current = item.nodeid
        self.order.append(item.nodeid)
        module = sys.modules.get(self.module)
        for value in list(vars(module).values()) if module else ():
            if callable(getattr(value, "cache_clear", None)):
                value.cache_clear()


def trace_child(rel: str, tests: list[str], out: Path) -> int:
    """In a forked child: run the unmutated tests and write, for each line of ``rel``, the
    tests that executed it."""
    import threading

    trace = _LineTrace(str(PACKAGE / rel), module_name(rel))
    sys.settrace(trace.tracer)
    threading.settrace(trace.tracer)
    code = run_child(rel, None, tests, plugins=[trace], stop_first=False)
    sys.settrace(None)
    out.write_text(json.dumps({"order": trace.order,
                               "lines": {line: sorted(t or "" for t in ts) for line, ts in trace.lines.items()}}))
    return code


def tests_for(mutant: Mutant, trace: dict, all_tests: list[str]) -> list[str] | None:
    """The tests that run the mutated lines, in the unmutated run's order: all of them for a
    line run at import (a module constant, a default argument), None when no test runs it."""
    chosen: set[str] = set()
    for line in range(mutant.start_line or mutant.line, max(mutant.line, mutant.end_line) + 1):
        chosen |= set(trace["lines"].get(str(line), ()))
    if "" in chosen:
        return [t for t in all_tests if not t.startswith(NOT_A_KILL)]
    if not chosen:
        return None
    files = {c.removeprefix("file::") + "::" for c in chosen if c.startswith("file::")}
    return [t for t in trace["order"]
            if (t in chosen or any(t.startswith(f) for f in files)) and not t.startswith(NOT_A_KILL)] or None


def planted_mutants(rel: str, text: str, first_index: int) -> list[tuple[Mutant, str | None]]:
    """The hand-made mutants of ``rel`` (:data:`PLANTED`) and their sources; a source of None
    when the text to replace is no longer in the module exactly once (reported as stale)."""
    lines = text.splitlines()
    out = []
    for k, (what, old, new) in enumerate(PLANTED.get(rel, ())):
        at = text.find(old)
        line = text.count("\n", 0, at) + 1 if at >= 0 else 0
        end = line + old.rstrip("\n").count("\n")
        m = Mutant(rel, first_index + k, line, what, lines[line - 1] if line else old, start_line=line, end_line=end,
                   planted=True)
        out.append((m, text.replace(old, new) if text.count(old) == 1 else None))
    return out


def run_child(rel: str, source: str | None, tests: list[str], plugins=(), stop_first: bool = True) -> int:
    """In a forked child: re-import animspec (the mutant served from memory) and run the tests."""
    import pytest
    from hypothesis import Phase, settings

    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, 1)
    os.dup2(devnull, 2)
    serve(rel, source)
    # No shrinking: a mutant is killed by its first failing example; shrinking it would only
    # cost time (minutes for some writer mutants).
    settings.register_profile("mutation", database=None, derandomize=True, deadline=None,
                              phases=[Phase.explicit, Phase.reuse, Phase.generate])
    settings.load_profile("mutation")
    flags = ["-x"] if stop_first else []
    return pytest.main([*flags, "-q", "-p", "no:cacheprovider", "--no-header", "-o", "addopts=", *tests], plugins=list(plugins))


def preload() -> None:
    """Import once in the parent what every child needs, so a fork starts warm."""
    import hypothesis  # noqa: F401
    import numpy  # noqa: F401
    import pytest  # noqa: F401

    sys.path.insert(0, str(ROOT / "tests"))
    import animspec.animbin  # noqa: F401
    import animspec.animclip  # noqa: F401
    import animspec.meshbin  # noqa: F401
    import animspec.cli  # noqa: F401


def run_all(jobs_todo: list[tuple[Mutant, str | None, list[str]]], jobs: int, timeout: float) -> None:
    running: dict[int, tuple[Mutant, float]] = {}
    todo = list(jobs_todo)
    done = 0
    while todo or running:
        while todo and len(running) < jobs:
            mutant, source, tests = todo.pop(0)
            pid = os.fork()
            if pid == 0:
                try:
                    code = run_child(mutant.module, source, tests)
                except BaseException:
                    code = 99
                os._exit(int(code))
            running[pid] = (mutant, time.monotonic())
        pid, status = os.waitpid(-1, os.WNOHANG)
        if pid == 0:
            time.sleep(0.05)
            now = time.monotonic()
            for p, (mutant, started) in list(running.items()):
                if now - started > timeout:
                    os.kill(p, signal.SIGKILL)
                    os.waitpid(p, 0)
                    mutant.status, mutant.seconds = "timeout", now - started
                    del running[p]
                    _report(mutant)
            continue
        mutant, started = running.pop(pid)
        done += 1
        if done % 25 == 0:
            print(f"  {done}/{len(jobs_todo)} run", flush=True)
        code = os.waitstatus_to_exitcode(status)
        mutant.seconds = time.monotonic() - started
        mutant.status = {0: "survived", 1: "killed"}.get(code, f"killed (exit {code})" if code != 5 else "no tests")
        _report(mutant)


def _report(m: Mutant) -> None:
    if m.index < 0:
        return
    mark = "SURVIVED" if m.status == "survived" else m.status
    if m.status == "survived":
        print(f"  {m.module}:{m.line}: {'planted: ' if m.planted else ''}{m.what}: {m.source_line.strip()} -- {mark}",
              flush=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("modules", nargs="*", help=f"modules under python/animspec (default: all of {len(MODULES)})")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--timeout-factor", type=float, default=10.0, help="a mutant running this many times longer than "
                        "the unmutated tests is killed and counted as killed (an endless loop)")
    parser.add_argument("--list", action="store_true", help="list the mutants and run nothing")
    parser.add_argument("--json", type=Path, help="write every mutant and its outcome here")
    parser.add_argument("--limit", type=int, help="at most this many mutants per module (a quick look)")
    parser.add_argument("--every", type=int, default=1, metavar="N",
                        help="a fixed sample: every Nth mutant of each module, in source order (a bounded run of a large "
                        "module); the hand-made mutants always run")
    parser.add_argument("--phase", type=int, default=0, metavar="K",
                        help="with --every N, the mutants whose number is K modulo N (default 0): --every 2 --phase 1 is "
                        "the half --every 2 leaves out, so two runs, one per core or one after the other, make a full one")
    parser.add_argument("--survivors-of", type=Path, metavar="JSON",
                        help="only the mutants that survived an earlier --json run (matched by module, source line and "
                        "mutation, so lines may have moved): the rerun after tests were added")
    parser.add_argument("--planted", action="store_true", help="only the hand-made mutants (PLANTED)")
    args = parser.parse_args(argv)
    if not 0 <= args.phase < args.every:
        parser.error(f"--phase {args.phase} with --every {args.every}: it must be from 0 to {args.every - 1}")
    earlier = _survivors(args.survivors_of) if args.survivors_of else None
    chosen = args.modules or list(MODULES)
    unknown = [m for m in chosen if m not in MODULES]
    if unknown:
        parser.error(f"not in the map: {', '.join(unknown)} (known: {', '.join(MODULES)})")
    flaky = sorted({t for m in chosen for t in MODULES[m]["tests"] if t.startswith(NOT_A_KILL)})
    if flaky:
        parser.error(f"{', '.join(flaky)}: a flake there is not a kill (NOT_A_KILL); take it out of the map")

    preload()
    results: dict[str, list[Mutant]] = {}
    for rel in chosen:
        conf = MODULES[rel]
        path = PACKAGE / rel
        only = conf.get("only")
        lines = path.read_text().splitlines()
        found = sites(path, only)
        plain = plain_source(path)
        mutants = []
        for i, (line, start_line, end_line, what) in enumerate(found):
            if args.planted or args.limit is not None and len(mutants) >= args.limit:
                break
            if i % args.every != args.phase:
                continue
            mutants.append(Mutant(rel, i, line, what, lines[line - 1] if line else "", start_line=start_line, end_line=end_line))
        planted = planted_mutants(rel, path.read_text(), len(found))
        planted_source = {m.index: source for m, source in planted}
        mutants += [m for m, _ in planted]
        if earlier is not None:
            mutants = [m for m in mutants if (rel, m.source_line.strip(), m.what) in earlier]
        if args.list:
            for m in mutants:
                print(f"{rel}:{m.line}: {'planted: ' if m.planted else ''}{m.what}: {m.source_line.strip()}")
            continue
        sample = f" (every {args.every}th of {len(found)})" if args.every > 1 else ""
        sample += f", {len(planted)} planted" if planted else ""
        print(f"{rel}: {len(mutants)} mutants{sample}, tests {' '.join(conf['tests'])}", flush=True)
        started = time.monotonic()
        trace_file = Path(f"/tmp/animspec-mutation-trace-{os.getpid()}.json")
        pid = os.fork()
        if pid == 0:
            try:
                code = trace_child(rel, conf["tests"], trace_file)
            except BaseException:
                code = 99
            os._exit(int(code))
        _, status = os.waitpid(pid, 0)
        base_seconds = time.monotonic() - started
        if os.waitstatus_to_exitcode(status) != 0:
            print(f"  the unmutated tests fail (exit {os.waitstatus_to_exitcode(status)}): fix them first", flush=True)
            return 2
        trace = json.loads(trace_file.read_text())
        trace_file.unlink()
        todo = []
        for m in mutants:
            if m.planted:
                if planted_source[m.index] is None:
                    m.status = "stale"  # its text is gone: the PLANTED entry needs updating
                    print(f"  {rel}: planted mutant {m.what!r} no longer applies: update PLANTED", flush=True)
                    continue
                source = planted_source[m.index]
            else:
                source = mutated_source(path, only, m.index)
            if source == plain:
                m.status = "identical"
                continue
            selected = tests_for(m, trace, conf["tests"])
            if selected is None:
                m.status = "survived"  # no test runs the line
                m.what += NO_TEST_RUNS
                _report(m)
                continue
            m.tests_run = len(selected)
            todo.append((m, source, selected))
        run_all(todo, args.jobs, max(60.0, args.timeout_factor * base_seconds))
        results[rel] = mutants
        _summary_line(rel, mutants, time.monotonic() - started)
        if args.json:  # after each module, so a run cut short keeps what it found
            args.json.write_text(json.dumps({r: [asdict(m) for m in ms] for r, ms in results.items()}, indent=1))

    if args.list:
        return 0
    print()
    print("| module | mutants | killed (by a timeout) | survived (equivalent, within contract) | kill rate "
          "| kill rate without the equivalent |")
    print("| --- | ---: | ---: | ---: | ---: | ---: |")
    open_survivors = []
    stale: list[Mutant] = []
    planted_killed = [0, 0]
    for rel, mutants in results.items():
        counted = [m for m in mutants if m.status not in ("identical", "stale")]
        survived = [m for m in counted if m.status == "survived"]
        equivalent = [m for m in survived if excused(m) is EQUIVALENT]
        within = [m for m in survived if excused(m) is WITHIN_CONTRACT]
        stale += [m for m in mutants if m.status == "stale"]
        planted = [m for m in counted if m.planted]
        planted_killed[0] += sum(m.status != "survived" for m in planted)
        planted_killed[1] += len(planted)
        open_survivors += [m for m in survived if m not in equivalent and m not in within]
        killed = len(counted) - len(survived)
        timeouts = sum(m.status == "timeout" for m in counted)
        rate = killed / len(counted) if counted else 1.0
        real = len(counted) - len(equivalent)
        rate_real = killed / real if real else 1.0
        print(f"| {rel} | {len(counted)} | {killed} ({timeouts}) | {len(survived)} ({len(equivalent)}, {len(within)}) "
              f"| {rate:.1%} | {rate_real:.1%} |")
    if args.json:
        args.json.write_text(json.dumps({rel: [asdict(m) for m in ms] for rel, ms in results.items()}, indent=1))
    if planted_killed[1]:
        print(f"\nhand-made mutants (PLANTED): {planted_killed[0]}/{planted_killed[1]} killed")
    for m in stale:
        print(f"  stale planted mutant (its text is gone): {m.module}: {m.what}")
    if open_survivors:
        print(f"\n{len(open_survivors)} survivor(s) neither equivalent nor within the module's contract:")
        for m in open_survivors:
            print(f"  {m.module}:{m.line}: {'planted: ' if m.planted else ''}{m.what}: {m.source_line.strip()}")
        return 1
    return 1 if stale else 0


NO_TEST_RUNS = " (no test runs this line)"


def excused(m: Mutant) -> dict[tuple[str, str, str], str] | None:
    """The table that argues survivor ``m`` (EQUIVALENT or WITHIN_CONTRACT), or None: a gap.
    A hand-made mutant is never excused; a line no test runs is matched by its mutation alone
    (the note the run adds to its name is not part of the key)."""
    if m.planted:
        return None
    key = (m.module, m.source_line.strip(), m.what.removesuffix(NO_TEST_RUNS))
    return next((table for table in (EQUIVALENT, WITHIN_CONTRACT) if key in table), None)


def _survivors(path: Path) -> set[tuple[str, str, str]]:
    """(module, stripped source line, mutation) of every mutant that survived in the
    ``--json`` file at ``path``; exits with a message if it cannot be read."""
    try:
        runs = json.loads(path.read_text())
        return {(m["module"], m["source_line"].strip(), m["what"].removesuffix(NO_TEST_RUNS))
                for mutants in runs.values() for m in mutants if m["status"] == "survived"}
    except (OSError, ValueError, KeyError, TypeError, AttributeError) as e:
        sys.exit(f"--survivors-of {path}: not the --json of an earlier run ({e})")


def _summary_line(rel: str, mutants: list[Mutant], seconds: float) -> None:
    counted = [m for m in mutants if m.status not in ("identical", "stale")]
    survived = sum(m.status == "survived" for m in counted)
    print(f"  {rel}: {len(counted) - survived}/{len(counted)} killed in {seconds:.0f} s", flush=True)


if __name__ == "__main__":
    sys.exit(main())
