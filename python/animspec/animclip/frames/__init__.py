"""The per-frame codec of .animclip: Sample Elem and Sample Data over Base State, root motion
and camera paths, both ways. Modules, bottom up (each imports only those above it in this
list, plus the clip model; none imports :mod:`..views`, except :mod:`.pose`, which reports
frames against the clip's view):

* :mod:`.coding`: what both directions share, each written once: the 12 components of a
  joint and their slices, element codes (small u8, large u16), the bit packing of a sample,
  the one dequantisation (the 32767-vs-32768 quaternion scale is stated there, with why),
  the lookup alignment, the field limits. numpy only: the model uses it too.
* :mod:`.inputs`: the decoder's inputs (:func:`~.inputs.sample_inputs`), the memory rule
  (:func:`~.inputs.memory_bound`, :func:`~.inputs.check_built`) and the one "decodable?"
  list (:func:`~.inputs.sample_problems`, Motion Data's and the camera's problems) that the
  validator reports and the decoder refuses on.
* :mod:`.motion`: Motion Data (root motion) decoded and encoded, and a camera clip's path.
* :mod:`.decode`: every frame of a clip (:func:`~.decode.decode_clip`).
* :mod:`.encode`: per-frame transforms to an encoding (:func:`~.encode.encode`), its error
  measured with :mod:`.coding`'s dequantisation, the reader's own.
* :mod:`.sections`: an encoding put into a clip model (:func:`~.sections.clip_model`).
* :mod:`.pose`: what ``play`` and ``dump`` report (base pose, frames, world positions).
* :mod:`.blender_import`: the Blender import's plan and bounds (no bpy).

Where a change goes:

* **A fact of the coding** (a component, a code's bits, the bit order, how a component
  becomes a scale, rotation or translation, a field limit): :mod:`.coding`, once; the
  decoder and the encoder both follow, and the round-trip tests (tests/test_animclip_encode.py,
  tests/test_animclip_samples.py) check that they agree.
* **What makes a clip undecodable** (a new refusal, a finding code): :mod:`.inputs`'
  problem lists; the validator reports it and the decoder refuses on it without another
  change, and docs/findings.md names the code.
* **Decode arithmetic or speed**: :mod:`.decode` (bench/decode.py measures it).
* **Encoder choices** (bases, shifts, widths, lookups): :mod:`.encode`; Built fields and
  which template sections are replaced: :mod:`.sections`. ``make examples`` must then
  regenerate byte-identical files unless the change means to alter them.
* **Root motion or camera paths**: :mod:`.motion`.
"""
