#!/usr/bin/env node
// Runs the viewer's .animclip frame decoder (web/js/clip.js) under node on the parsers
// generated from ksy/ (tools/js_dump.js compiles them), for tests/test_web.py, which compares
// every frame with Python's animspec.animclip.frames.decode.decode_clip.
//
// argv: the clip files. Prints one JSON object: {"clips": [{path, fps, frame_count, looping,
// animated, joints, frame_sample, rotation, translation, scale (flat, per frame), root_motion}
// or {path, decode_error: {name, field, message}} when the decoder refuses the clip]}.
'use strict';

const fs = require('fs');
const path = require('path');

const ROOT = path.resolve(__dirname, '..', '..');
const { loadAll } = require(path.join(ROOT, 'tools', 'js_dump.js'));
const AnimFormats = require(path.join(ROOT, 'web', 'js', 'formats.js'));
const AnimClip = require(path.join(ROOT, 'web', 'js', 'clip.js'));

function main() {
  const { KaitaiStream, parsers } = loadAll(null);
  const clips = process.argv.slice(2).map((file) => {
    const r = AnimFormats.parseFile(fs.readFileSync(file), path.basename(file), parsers, KaitaiStream, { format: 'animclip' });
    if (r.error) return { path: file, error: String(r.error.message || r.error) };
    let clip;
    try {
      clip = AnimClip.decode(r.root, parsers.animclip.SectionTag);
    } catch (e) {
      return { path: file, error: null, decode_error: { name: e.name, field: e.field || null, message: String(e.message) } };
    }
    const rotation = [], translation = [], scale = [];
    for (let f = 0; f < clip.frameCount; f++) {
      const t = AnimClip.frame(clip, f);
      rotation.push(Array.from(t.rotation));
      translation.push(Array.from(t.translation));
      scale.push(Array.from(t.scale));
    }
    const m = clip.rootMotion;
    return {
      path: file, error: null, fps: clip.fps, frame_count: clip.frameCount, looping: clip.looping, animated: clip.animated,
      joints: clip.joints, joint_hashes: Array.from(clip.jointHashes), frame_sample: Array.from(clip.frameSample),
      rotation, translation, scale, notes: clip.notes,
      root_motion: m ? { translation: Array.from(m.translation), rotation: Array.from(m.rotation) } : null,
    };
  });
  process.stdout.write(JSON.stringify({ clips }));
}

main();
