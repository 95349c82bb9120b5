#!/usr/bin/env node
// Runs the viewer's JavaScript ANIMBIN code (web/js/engine.js, validate.js, formats.js)
// under node for tests/test_js_parsers.py, which compares the output with Python's
// play_engine, sample_reference_frames, fixed_point and validate.
//
// Input: a JSON request file (argv[2]):
//   {"normalize_table": true}  -> {"normalize_scale": [r or null for s = 0..32767]}
//   {"files": [{"path", "bone_count", "engine_runs": [{"deltas", "rest_rotations",
//              "num_joints", "empty_track"}], "reference": {"frames", "rest_rotations",
//              "rest_translations", "num_joints"}}]}
//   -> {"files": [{"path", "error", "findings", "animations": [{"engine": [...], "reference": {...}}]}]}
'use strict';

const fs = require('fs');
const path = require('path');

const ROOT = path.resolve(__dirname, '..', '..');
const { loadAll, errorInfo } = require(path.join(ROOT, 'tools', 'js_dump.js'));
const AnimFormats = require(path.join(ROOT, 'web', 'js', 'formats.js'));
const AnimEngine = require(path.join(ROOT, 'web', 'js', 'engine.js'));
const AnimValidate = require(path.join(ROOT, 'web', 'js', 'validate.js'));

function main() {
  const req = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'));
  const out = {};
  if (req.normalize_table) {
    const scale = [];
    for (let s = 0; s < 32768; s++) {
      try {
        scale.push(s === 0 ? null : AnimEngine.normalizeScale(s));
      } catch (e) {
        if (!(e instanceof AnimEngine.ConsoleDivisionByZero)) throw e;
        scale.push(null);
      }
    }
    out.normalize_scale = scale;
  }
  if (req.files) {
    const { KaitaiStream, parsers } = loadAll(req.parsers || null);
    out.files = req.files.map((f) => {
      const r = AnimFormats.parseFile(fs.readFileSync(f.path), path.basename(f.path), parsers, KaitaiStream, { format: 'animbin' });
      if (r.error) return { path: f.path, error: errorInfo(r.error) };
      const model = AnimFormats.animbinModel(r.root);
      const res = { path: f.path, error: null, findings: AnimValidate.validate(model, f.bone_count === undefined ? null : f.bone_count), animations: [] };
      for (const anim of model.animations) {
        const a = { name: anim.name, engine: [], reference: null };
        for (const run of f.engine_runs || []) {
          const p = AnimEngine.playEngine(anim, run.deltas, {
            numJoints: run.num_joints, restRotations: run.rest_rotations, emptyTrack: run.empty_track,
          });
          a.engine.push({ frames: p.frames, rotations: p.rotations, end_frame: p.endFrame, events: p.events });
        }
        if (f.reference) {
          const s = AnimEngine.sampleReferenceFrames(anim, f.reference.frames, {
            numJoints: f.reference.num_joints, restRotations: f.reference.rest_rotations,
            restTranslations: f.reference.rest_translations,
          });
          a.reference = { frames: s.frames, rotations: s.rotations, translations: s.translations, has_rotation: s.hasRotation, has_translation: s.hasTranslation };
        }
        res.animations.push(a);
      }
      return res;
    });
  }
  process.stdout.write(JSON.stringify(out));
}

main();
