/*
 * app.js: the viewer page. Loads dropped / opened files, shows each one's structure and
 * decoded data, validates ANIMBIN files and plays ANIMBIN clips on a skeleton, and plays
 * .animclip / .performanceclip animations frame by frame (web/js/clip.js decodes them).
 *
 * window.animspecViewer is a small API for tests and the console (see the bottom).
 */
(function () {
  'use strict';

  var $ = function (id) { return document.getElementById(id); };

  function el(tag, attrs, children) {
    var e = document.createElement(tag);
    if (attrs) {
      Object.keys(attrs).forEach(function (k) {
        var v = attrs[k];
        if (v === undefined || v === null || v === false) return;
        if (k === 'text') e.textContent = v;
        else if (k === 'class') e.className = v;
        else if (k === 'html') e.innerHTML = v;
        else if (k.slice(0, 2) === 'on') e.addEventListener(k.slice(2), v);
        else e.setAttribute(k, v === true ? '' : v);
      });
    }
    (children || []).forEach(function (c) {
      if (c === null || c === undefined || c === false) return;
      e.appendChild(typeof c === 'string' || typeof c === 'number' ? document.createTextNode(String(c)) : c);
    });
    return e;
  }

  function card(title, children, attrs) {
    return el('div', Object.assign({ class: 'card' }, attrs || {}), [title ? el('h3', null, typeof title === 'string' ? [title] : title) : null].concat(children));
  }

  function dl(rows) {
    var d = el('dl', { class: 'summary' });
    rows.forEach(function (r) {
      if (!r) return;
      d.appendChild(el('dt', { text: r[0] }));
      d.appendChild(el('dd', r[2] || null, [r[1]]));
    });
    return d;
  }

  function hex(n, width) {
    var s = (n >>> 0).toString(16).toUpperCase();
    while (s.length < (width || 8)) s = '0' + s;
    return s;
  }

  function fmt(v, digits) {
    if (typeof v !== 'number') return String(v);
    if (!Number.isFinite(v)) return String(v);
    if (digits === undefined) return Number.isInteger(v) ? String(v) : v.toFixed(4);
    return v.toFixed(digits);
  }

  function plural(n, word) { return n + ' ' + word + (n === 1 ? '' : 's'); }

  // --- static data ---------------------------------------------------------------------------

  var built = typeof self.ANIMSPEC_PARSERS !== 'undefined' && typeof self.ANIMSPEC_SPECS !== 'undefined' && typeof self.KaitaiStream !== 'undefined';
  var classMaps = {};
  if (built) {
    Object.keys(self.ANIMSPEC_PARSERS).forEach(function (fmtId) {
      classMaps[fmtId] = KsyWalk.buildClassMap(self.ANIMSPEC_SPECS[fmtId], self.ANIMSPEC_PARSERS[fmtId]);
    });
  }

  function enumInfo(fmtId, enumName, value) {
    var spec = self.ANIMSPEC_SPECS[fmtId];
    var e = spec && spec.enums && spec.enums[enumName] && spec.enums[enumName][value];
    if (!e) return null;
    return typeof e === 'object' ? e : { id: e };
  }

  // --- state ---------------------------------------------------------------------------------

  var state = {
    files: [],
    active: null,
    animbin: null,
    meshbin: null,
    animIndex: 0,
    trackIndex: 0,
    mode: 'engine',
    refresh: 'ntsc',
    delta: 1,
    speed: 1,
    playing: false,
    engine: null,
    tick: 0,
    frame: null,
    refVsync: 0,
    vsyncAcc: 0,
    pose: null,
    translations: null,
    scene: null,
    webgl: false,
    skeletonSource: null,
    rig: null, // a glTF / GLB entry whose skin (joint names, parents, rest pose) clips play on
    rigPose: null,
    clip: null, // the .animclip entry whose frames play (entry.clip: AnimClip.decode's result)
    player: null, // 'animbin' or 'clip': which of the two plays in the 3D view
    clipTime: 0,
    clipFrame: 0,
    clipPose: null,
    rootMotion: true,
  };
  var nextId = 1;

  // --- loading -------------------------------------------------------------------------------

  function readFile(file) {
    if (file.arrayBuffer) return file.arrayBuffer();
    return new Promise(function (resolve, reject) {
      var r = new FileReader();
      r.onload = function () { resolve(r.result); };
      r.onerror = function () { reject(r.error); };
      r.readAsArrayBuffer(file);
    });
  }

  function isGltf(name, buffer) {
    var b = new Uint8Array(buffer, 0, Math.min(4, buffer.byteLength));
    return /\.(glb|gltf)$/i.test(name) || (b.length === 4 && String.fromCharCode(b[0], b[1], b[2], b[3]) === 'glTF');
  }

  /**
   * A glTF / GLB rig, read by three.js's GLTFLoader: the bones of its first skin (else every
   * bone) with names, parents and rest transforms, and the transform above the armature.
   */
  function rigModel(gltf) {
    var skeleton = null, bones = [];
    gltf.scene.updateMatrixWorld(true);
    gltf.scene.traverse(function (o) { if (!skeleton && o.isSkinnedMesh) skeleton = o.skeleton; });
    if (skeleton) bones = skeleton.bones.slice();
    else gltf.scene.traverse(function (o) { if (o.isBone) bones.push(o); });
    if (!bones.length) throw new Error('the glTF has no skin and no bones: nothing to play a clip on');
    var model = bones.map(function (b) {
      return {
        name: b.name, hash: AnimClip.nameHash(b.name), parent: bones.indexOf(b.parent),
        position: [b.position.x, b.position.y, b.position.z],
        rotation: [b.quaternion.w, b.quaternion.x, b.quaternion.y, b.quaternion.z].map(function (c) { return c * 4096; }),
      };
    });
    var top = bones.filter(function (b) { return bones.indexOf(b.parent) < 0; })[0];
    var frame = null;
    if (top && top.parent) {
      var p = new THREE.Vector3(), q = new THREE.Quaternion(), sc = new THREE.Vector3();
      top.parent.matrixWorld.decompose(p, q, sc);
      frame = { position: p.toArray(), quaternion: q.toArray(), scale: sc.toArray() };
    }
    return { bones: model, frame: frame };
  }

  function addRig(name, buffer) {
    var entry = { id: nextId++, name: name, size: buffer.byteLength, format: 'gltf', root: null, error: null, inflated: null, model: null, findings: null, rig: null };
    return new Promise(function (resolve) {
      try {
        new THREE.GLTFLoader().parse(buffer, '', function (gltf) {
          try { entry.rig = rigModel(gltf); } catch (e) { entry.error = e; }
          resolve(entry);
        }, function (e) { entry.error = e; resolve(entry); });
      } catch (e) {
        entry.error = e;
        resolve(entry);
      }
    }).then(function (e) {
      state.files = state.files.filter(function (f) {
        if (f.name !== name) return true;
        if (state.rig === f) state.rig = null;
        return false;
      });
      state.files.push(e);
      return e;
    });
  }

  function loadFiles(list) {
    var files = Array.prototype.slice.call(list || []);
    return Promise.all(files.map(function (f) {
      return readFile(f).then(function (buf) { return { name: f.name, buffer: buf }; });
    })).then(function (loaded) {
      return Promise.all(loaded.map(function (l) { return isGltf(l.name, l.buffer) ? addRig(l.name, l.buffer) : addFile(l.name, l.buffer); }));
    }).then(function (entries) {
      // meshbin (and a glTF rig) before animbin, so a clip dropped with its skeleton plays on it at once
      var order = { meshbin: 0, gltf: 0, animclip: 1, animbin: 2 };
      entries.sort(function (a, b) { return (order[a.format] || 3) - (order[b.format] || 3); });
      entries.forEach(function (entry) {
        if (entry.format === 'meshbin' && entry.model) state.meshbin = entry;
        if (entry.format === 'animbin' && entry.model) state.animbin = entry;
        if (entry.format === 'animclip' && entry.clip) state.clip = entry;
        if (entry.format === 'gltf' && entry.rig) state.rig = entry;
      });
      if (entries.length) {
        var show = entries.filter(function (e) { return e.format === 'animbin' || e.format === 'animclip'; });
        state.active = (show.length ? show[show.length - 1] : entries[entries.length - 1]).id;
      }
      var active = activeFile();
      state.player = active && active === state.clip ? 'clip' : state.animbin ? 'animbin' : state.clip ? 'clip' : null;
      if (entries.some(function (e) { return (e.format === 'animbin' || e.format === 'meshbin') && e.model || e.clip || e.rig; })) {
        state.animIndex = 0;
        state.trackIndex = 0;
        setupPlayback();
      }
      renderAll();
      return state.files.length;
    });
  }

  function addFile(name, buffer) {
    var bytes = new Uint8Array(buffer);
    var entry = { id: nextId++, name: name, size: bytes.length, format: null, root: null, error: null, inflated: null, model: null, findings: null };
    try {
      var r = AnimFormats.parseFile(buffer, name, self.ANIMSPEC_PARSERS, self.KaitaiStream);
      entry.format = r.format;
      entry.root = r.root;
      entry.error = r.error;
      entry.inflated = r.inflated;
      if (!r.error && r.root) {
        if (r.format === 'animbin') entry.model = AnimFormats.animbinModel(r.root);
        if (r.format === 'meshbin') entry.model = AnimFormats.meshbinModel(r.root);
        if (r.format === 'animclip') {
          try {
            entry.clip = AnimClip.decode(r.root, self.ANIMSPEC_PARSERS.animclip.SectionTag);
            if (entry.clip && !(entry.clip.joints > 0 && entry.clip.frameCount > 0)) entry.clip = null;
          } catch (e) {
            entry.clipError = e;
          }
        }
      }
    } catch (e) {
      entry.error = e;
    }
    // a file of the same name replaces the earlier one
    state.files = state.files.filter(function (f) {
      if (f.name !== name) return true;
      if (state.animbin === f) state.animbin = null;
      if (state.meshbin === f) state.meshbin = null;
      if (state.clip === f) state.clip = null;
      return false;
    });
    state.files.push(entry);
    return entry;
  }

  function activeFile() {
    return state.files.filter(function (f) { return f.id === state.active; })[0] || null;
  }

  /** `animations[0].tracks[1].keys[4].frame (byte 0x2f)`, with the spec's field names. */
  function errorLocation(f) {
    var loc = AnimFormats.locateFailure(f.root);
    var path = KsyWalk.fieldPath(loc.segments, classMaps[f.format], { bareInstances: true });
    return path + (loc.offset !== null && loc.offset !== undefined ? ' (byte 0x' + loc.offset.toString(16) + ')' : '');
  }

  function findingsFor(entry) {
    var bones = state.meshbin && state.meshbin.model.bones.length ? state.meshbin.model.bones.length : undefined;
    return AnimValidate.validate(entry.model, bones);
  }

  // --- playback ------------------------------------------------------------------------------

  /** True when the 3D view plays an .animclip's frames (not an ANIMBIN clip). */
  function isClip() {
    return state.player === 'clip' && !!(state.clip && state.clip.clip);
  }

  function currentAnimation() {
    if (isClip()) return null;
    var m = state.animbin && state.animbin.model;
    return m && m.animations[state.animIndex] ? m.animations[state.animIndex] : null;
  }

  function skeletonSpec() {
    if (isClip()) return clipSkeleton(state.clip);
    var mesh = state.meshbin && state.meshbin.model;
    if (mesh && mesh.bones.length) {
      return { source: 'meshbin', label: state.meshbin.name, bones: mesh.bones, mesh: mesh };
    }
    var n = 1;
    if (state.animbin) state.animbin.model.animations.forEach(function (a) { n = Math.max(n, AnimEngine.jointCount(a)); });
    n = Math.min(n, 256);
    var bones = [];
    // The stand-in hangs down: +Z is down in the console's model space (Blender's Z-up
    // armature space through diag(1, -1, -1), the engine exporter's).
    for (var i = 0; i < n; i++) bones.push({ parent: i - 1, position: [0, 0, i ? 64 : 0], rotation: [4096, 0, 0, 0] });
    return { source: 'chain', label: 'a chain of ' + plural(n, 'bone') + ' (no .meshbin loaded)', bones: bones, mesh: mesh && !mesh.bones.length ? mesh : null };
  }

  /**
   * The stand-in a clip plays on: its joints in clip order, each the child of the one before
   * (the viewer's stand-in chain), at frame 0's local transforms. An .animclip stores no
   * parents (Joint Hashes are name CRC32s only) and the viewer loads no rig with joint names
   * (a .meshbin's bones are unnamed), so this is a chain, not the character's hierarchy: it
   * shows every joint's motion, composed down the chain. Joint space is Y-up (no turn).
   */
  function clipSkeleton(entry) {
    var clip = entry.clip;
    if (state.rig) return rigSkeleton(clip, state.rig);
    var pose = AnimClip.poseArrays(clip.joints);
    AnimClip.poseInto(clip, 0, pose.rotations, pose.translations, null, false);
    var bones = [];
    for (var j = 0; j < clip.joints; j++) {
      bones.push({ parent: j - 1, position: pose.translations[j].slice(), rotation: pose.rotations[j].map(function (c) { return c * 4096; }) });
    }
    return { source: 'clip-chain', label: 'a chain of the clip\'s ' + plural(clip.joints, 'joint') + ' in file order (a clip stores no parents)', bones: bones, mesh: null, yUp: true };
  }

  /**
   * A glTF rig: clip joints drive the bones whose name's CRC32 is their Joint Hashes entry
   * (local rotation and translation replaced, as animspec play --skeleton does); the other
   * bones keep their rest pose.
   */
  function rigSkeleton(clip, rig) {
    var byHash = {};
    rig.rig.bones.forEach(function (b, i) { if (!(b.hash in byHash)) byHash[b.hash] = i; });
    var boneOfJoint = [];
    var matched = 0;
    for (var j = 0; j < clip.joints; j++) {
      var bone = clip.jointHashes[j] in byHash ? byHash[clip.jointHashes[j]] : -1;
      boneOfJoint.push(bone);
      if (bone >= 0) matched++;
    }
    return {
      source: 'gltf', label: rig.name + ' (' + matched + ' of ' + plural(clip.joints, 'clip joint') + ' matched by name hash)',
      bones: rig.rig.bones, mesh: null, yUp: true, frame: rig.rig.frame, boneOfJoint: boneOfJoint,
      roots: rig.rig.bones.map(function (b, i) { return b.parent < 0 ? i : -1; }).filter(function (i) { return i >= 0; }),
    };
  }

  /** Frame f of the playing clip as the 3D view's pose arrays: on the chain, or on the rig's bones. */
  function clipPose(f) {
    var clip = state.clip.clip;
    var skel = state.skeleton;
    if (!state.clipPose || state.clipPose.rotations.length !== clip.joints) state.clipPose = AnimClip.poseArrays(clip.joints);
    if (!skel || !skel.boneOfJoint) {
      AnimClip.poseInto(clip, f, state.clipPose.rotations, state.clipPose.translations, [0], state.rootMotion);
      return state.clipPose;
    }
    AnimClip.poseInto(clip, f, state.clipPose.rotations, state.clipPose.translations, null, false);
    if (!state.rigPose || state.rigPose.rotations.length !== skel.bones.length) state.rigPose = AnimClip.poseArrays(skel.bones.length);
    var rp = state.rigPose;
    skel.bones.forEach(function (b, i) {
      for (var k = 0; k < 4; k++) rp.rotations[i][k] = b.rotation[k] / 4096;
      for (var a = 0; a < 3; a++) rp.translations[i][a] = b.position[a];
    });
    skel.boneOfJoint.forEach(function (bone, j) {
      if (bone < 0) return;
      for (var k = 0; k < 4; k++) rp.rotations[bone][k] = state.clipPose.rotations[j][k];
      for (var a = 0; a < 3; a++) rp.translations[bone][a] = state.clipPose.translations[j][a];
    });
    if (state.rootMotion) AnimClip.applyRootMotion(clip, f, rp.rotations, rp.translations, skel.roots);
    if (skel.frame) takeFrameOut(skel.frame, rp, skel.roots.filter(function (i) { return skel.boneOfJoint.indexOf(i) >= 0; }));
    return rp;
  }

  /**
   * A clip's root joint is in the character's model space, the glTF scene's, whatever nodes a
   * rig has above its armature (the rule `animspec convert` and `play --skeleton` follow: the
   * nodes above stay in the rig and are taken back out of each root). The 3D view puts
   * `frame` (those nodes) over the whole model, so the roots the clip drives get its inverse:
   * local = frame^-1 * clip. A scale in `frame` is taken out of the roots' positions only (the
   * view's bones have no scale of their own): the chain below a scaled frame stays scaled.
   */
  function takeFrameOut(frame, pose, roots) {
    var inv = new THREE.Quaternion().fromArray(frame.quaternion).invert();
    var s = frame.scale[0] || 1;
    var q = new THREE.Quaternion(), v = new THREE.Vector3();
    roots.forEach(function (i) {
      var r = pose.rotations[i], t = pose.translations[i];
      q.set(r[1], r[2], r[3], r[0]).premultiply(inv);
      r[0] = q.w; r[1] = q.x; r[2] = q.y; r[3] = q.z;
      v.set(t[0] - frame.position[0], t[1] - frame.position[1], t[2] - frame.position[2]).applyQuaternion(inv).divideScalar(s);
      t[0] = v.x; t[1] = v.y; t[2] = v.z;
    });
  }

  function setupPlayback() {
    var skel = skeletonSpec();
    state.skeleton = skel;
    state.skeletonSource = skel.source;
    if (state.scene) state.scene.setSkeleton(skel);
    resetPlayback();
    fitView();
  }

  /** Frame the camera on every pose the current clip takes (engine mode, one loop). */
  function fitView() {
    if (!state.scene || !state.skeleton) return;
    if (isClip()) {
      var clip = state.clip.clip;
      var every = Math.max(1, Math.floor(clip.frameCount / 60));
      var clipPoses = [];
      for (var f = 0; f < clip.frameCount; f += every) {
        var p = clipPose(f);
        clipPoses.push({ rotations: p.rotations.map(function (q) { return q.slice(); }), translations: p.translations.map(function (t) { return t.slice(); }) });
      }
      state.scene.fitPoses(clipPoses);
      applyPose();
      return;
    }
    var anim = currentAnimation();
    var poses = [null];
    if (anim) {
      var n = Math.max(1, Math.min(anim.length || 1, 600));
      var deltas = [];
      for (var i = 0; i < n; i++) deltas.push(1);
      var played = AnimEngine.playEngine(anim, deltas, {
        numJoints: state.skeleton.bones.length, restRotations: state.skeleton.bones.map(function (b) { return b.rotation; }),
      });
      var stride = Math.max(1, Math.floor(n / 60));
      played.rotations.forEach(function (r, t) {
        if (t % stride === 0) poses.push(r.map(function (q) { return q.map(function (c) { return c / 4096; }); }));
      });
    }
    state.scene.fitPoses(poses);
    applyPose();
  }

  function resetPlayback() {
    var anim = currentAnimation();
    var skel = state.skeleton;
    state.tick = 0;
    state.frame = null;
    state.refVsync = 0;
    state.vsyncAcc = 0;
    state.engine = null;
    state.pose = null;
    state.translations = null;
    state.clipTime = 0;
    state.clipFrame = 0;
    if (skel && !isClip()) {
      state.engine = new AnimEngine.EngineSkeleton({ numJoints: skel.bones.length, restRotations: skel.bones.map(function (b) { return b.rotation; }) });
      if (anim) state.engine.setAnimation(anim);
    }
    applyPose();
  }

  function sampleReference() {
    var anim = currentAnimation();
    var skel = state.skeleton;
    if (!anim || !skel) return;
    var s = AnimEngine.sampleReferenceFrames(anim, [state.refVsync], {
      restRotations: skel.bones.map(function (b) { return b.rotation; }),
      restTranslations: skel.bones.map(function (b) { return b.position; }),
    });
    state.frame = s.frames[0];
    state.pose = s.rotations[0];
    state.translations = s.translations[0].map(function (v) { return v.map(function (c) { return c * 4096; }); });
  }

  /** One game frame: PlayAnimation(deltaTime) in engine mode, deltaTime vsyncs in reference mode. */
  function stepTick() {
    if (isClip()) {
      var clip = state.clip.clip;
      var next = state.clipFrame + 1;
      state.clipFrame = clip.looping ? next % clip.frameCount : Math.min(next, clip.frameCount - 1);
      state.clipTime = state.clipFrame / clip.fps;
      return;
    }
    if (!currentAnimation() || !state.engine) return;
    if (state.mode === 'engine') {
      state.frame = state.engine.play(state.delta);
      state.pose = state.engine.localRotations.map(function (q) { return q.map(function (c) { return c / 4096; }); });
      state.translations = null;
    } else {
      state.refVsync += state.delta;
      sampleReference();
    }
    state.tick++;
  }

  function applyPose() {
    if (state.scene && state.skeleton && isClip()) {
      var p = clipPose(state.clipFrame);
      state.scene.setPose(p.rotations, p.translations);
      state.scene.render();
    } else if (state.scene && state.skeleton) {
      state.scene.setPose(state.pose, state.translations);
      state.scene.render();
    }
    renderPlaybackInfo();
  }

  var lastTime = null;
  function loop(now) {
    if (lastTime === null) lastTime = now;
    var dt = Math.min((now - lastTime) / 1000, 0.25);
    lastTime = now;
    if (state.playing && isClip()) {
      var clip = state.clip.clip;
      state.clipTime += dt * state.speed;
      var f = AnimClip.frameAt(clip, state.clipTime);
      if (!clip.looping && state.clipTime * clip.fps >= clip.frameCount - 1) setPlaying(false); // once: stop on the last frame
      if (f !== state.clipFrame) {
        state.clipFrame = f;
        applyPose();
      }
    } else if (state.playing && currentAnimation()) {
      var hz = AnimEngine.refreshHz(state.refresh);
      if (state.mode === 'engine') {
        state.vsyncAcc += dt * hz * state.speed;
        var steps = 0;
        while (state.vsyncAcc >= state.delta && steps < 64) {
          state.vsyncAcc -= state.delta;
          stepTick();
          steps++;
        }
        if (steps) applyPose();
      } else {
        state.refVsync += dt * hz * state.speed;
        sampleReference();
        state.tick = Math.floor(state.refVsync / state.delta);
        applyPose();
      }
    }
    requestAnimationFrame(loop);
  }

  function setPlaying(on) {
    if (on && isClip() && !state.clip.clip.looping && state.clipFrame >= state.clip.clip.frameCount - 1) {
      state.clipFrame = 0; // a clip that plays once starts over from its end
      state.clipTime = 0;
    }
    state.playing = on && (!!currentAnimation() || isClip());
    $('btn-play').textContent = state.playing ? '❚❚ Pause' : '▶ Play';
  }

  function seek(frame) {
    if (isClip()) {
      var clip = state.clip.clip;
      state.clipFrame = Math.max(0, Math.min(clip.frameCount - 1, Math.round(frame)));
      state.clipTime = state.clipFrame / clip.fps;
      applyPose();
      return;
    }
    var anim = currentAnimation();
    if (!anim) return;
    if (state.mode === 'engine') {
      state.engine.currentFrame = frame & 0xFFFF;
      stepTick();
    } else {
      state.refVsync = frame;
      sampleReference();
    }
    applyPose();
  }

  // --- rendering: left panel -----------------------------------------------------------------

  function renderTabs() {
    var nav = $('file-tabs');
    nav.innerHTML = '';
    state.files.forEach(function (f) {
      var roles = [];
      if (f === state.animbin && state.player === 'animbin') roles.push('playing');
      if (f === state.clip && state.player === 'clip') roles.push('playing');
      if (f === state.meshbin) roles.push('skeleton');
      if (f === state.rig) roles.push('the rig of .animclip playback');
      var tab = el('span', {
        class: 'file-tab' + (f.id === state.active ? ' active' : ''), 'data-testid': 'file-tab', 'data-name': f.name,
        title: roles.length ? 'used for ' + roles.join(' and ') : null,
        onclick: function () { selectFile(f); },
      }, [el('span', { class: 'badge ' + (f.error ? 'bad' : f.format || 'bad'), text: f.format || '?' }), f.name]);
      nav.appendChild(tab);
    });
  }

  function renderFile() {
    var view = $('file-view');
    view.innerHTML = '';
    var f = activeFile();
    $('welcome').hidden = !!f;
    if (!f) return;
    var head = el('div', { class: 'file-head' }, [
      el('span', { class: 'badge ' + (f.format || 'bad'), text: f.format || 'unknown', 'data-testid': 'format' }),
      el('span', { class: 'name', text: f.name }),
      el('span', { class: 'muted', text: f.size + ' bytes' }),
    ]);
    var parts = [head];
    if (f.error) {
      var where = f.root ? errorLocation(f) : '';
      parts.push(el('div', { class: 'parse-error', 'data-testid': 'parse-error' }, [
        (f.error.name || 'Error') + (where ? ' at ' + where : '') + ': ' + AnimFormats.describeError(f.error)]));
      if (f.root) parts.push(el('div', { class: 'muted', text: 'The structure below shows what was read before the error.' }));
    }
    var summary = card(null, parts, { 'data-testid': 'file-card' });
    view.appendChild(summary);
    if (f.format === 'animbin' && f.model) renderAnimbin(view, f, summary);
    if (f.format === 'meshbin' && f.model) renderMeshbin(view, f, summary);
    if (f.format === 'animclip' && f.root) renderAnimclip(view, f, summary);
    if (f.format === 'gltf' && f.rig) renderRig(view, f, summary);
    if (f.root && f.format && classMaps[f.format]) {
      var c = card(['Structure ', el('span', { class: 'muted', text: '(fields from ksy/' + f.format + '.ksy; hover a name for its doc)' })], [], { 'data-testid': 'structure' });
      AnimTree.render(c, f.root, classMaps[f.format], f.format);
      view.appendChild(c);
    }
  }

  function renderFindings(view, findings) {
    var counts = { error: 0, warning: 0, info: 0 };
    findings.forEach(function (x) { counts[x.severity]++; });
    var title = ['Validator findings ', el('span', { class: 'muted', text: findings.length
      ? [counts.error && plural(counts.error, 'error'), counts.warning && plural(counts.warning, 'warning'), counts.info && counts.info + ' info'].filter(Boolean).join(', ')
      : '' })];
    var body;
    if (!findings.length) body = el('div', { class: 'ok', text: '✓ No findings: the engine plays this file as authored.' });
    else {
      body = el('ul', { class: 'findings scroll' });
      findings.forEach(function (x) {
        body.appendChild(el('li', { 'data-testid': 'finding', 'data-code': x.code, 'data-severity': x.severity }, [
          el('span', { class: 'sev ' + x.severity, text: x.severity }),
          el('span', null, [el('span', { class: 'code', text: x.code }), ' ', el('span', { class: 'where', text: AnimValidate.location(x) })]),
          el('span', { class: 'msg', text: x.message }),
        ]));
      });
    }
    view.appendChild(card(title, [body], { 'data-testid': 'findings' }));
  }

  function renderAnimbin(view, f, summary) {
    var m = f.model;
    var ntsc = AnimEngine.NTSC_VSYNC_HZ, pal = AnimEngine.PAL_VSYNC_HZ;
    summary.appendChild(dl([
      ['version', m.version],
      ['animations', m.animations.length],
      ['trailing bytes', m.trailing],
      ['skeleton', state.meshbin && state.meshbin.model.bones.length ? state.meshbin.name + ' (' + plural(state.meshbin.model.bones.length, 'bone') + ')' : 'none: drop a .meshbin to use its bones'],
    ]));
    f.findings = findingsFor(f);
    renderFindings(view, f.findings);

    var table = el('table', { class: 'grid', 'data-testid': 'animations' }, [el('tr', null, [
      el('th', { text: '#' }), el('th', { text: 'name' }), el('th', { class: 'num', text: 'frames' }), el('th', { text: 'loop' }),
      el('th', { class: 'num', text: 'NTSC s' }), el('th', { class: 'num', text: 'PAL s' }), el('th', { class: 'num', text: 'tracks' }),
      el('th', { class: 'num', text: 'keys' }), el('th', { class: 'num', text: 'markers' })])]);
    m.animations.forEach(function (a, i) {
      var keys = a.tracks.reduce(function (s, t) { return s + t.keys.length; }, 0);
      var playing = f === state.animbin && i === state.animIndex;
      table.appendChild(el('tr', {
        class: 'clickable' + (playing ? ' selected' : ''), 'data-testid': 'animation-row', 'data-name': a.name,
        onclick: function () {
          state.animbin = f;
          if (state.player !== 'animbin') { state.player = 'animbin'; setPlaying(false); setupPlayback(); }
          selectAnimation(i);
        },
      }, [
        el('td', { class: 'num', text: i }), el('td', { class: 'mono', text: a.name + (a.nameInfo.terminated ? '' : ' (no NUL!)') }),
        el('td', { class: 'num', text: a.length }), el('td', { text: a.isLooping ? 'loops' : 'once' }),
        el('td', { class: 'num', text: (a.length / ntsc).toFixed(3) }), el('td', { class: 'num', text: (a.length / pal).toFixed(3) }),
        el('td', { class: 'num', text: a.tracks.length }), el('td', { class: 'num', text: keys }), el('td', { class: 'num', text: a.markers.length }),
      ]));
    });
    view.appendChild(card(['Animations ', el('span', { class: 'muted', text: '(click one to play it; frames are vsyncs)' })], [table]));

    var a = f === state.animbin ? m.animations[state.animIndex] : m.animations[0];
    if (!a) return;
    var tt = el('table', { class: 'grid small', 'data-testid': 'tracks' }, [el('tr', null, [
      el('th', { class: 'num', text: 'track' }), el('th', { class: 'num', text: 'joint' }), el('th', { class: 'num', text: 'keys' }),
      el('th', { text: 'frames' }), el('th', { text: 'kinds' }), el('th', { text: 'first key (w, x, y, z raw FP12)' })])]);
    a.tracks.forEach(function (t, j) {
      var kinds = {};
      t.keys.forEach(function (k) { var n = k.keyType === 0 ? 'rot' : k.keyType === 1 ? 'trans' : 'type ' + k.keyType; kinds[n] = (kinds[n] || 0) + 1; });
      var k0 = t.keys[0];
      tt.appendChild(el('tr', { class: 'clickable' + (j === state.trackIndex ? ' selected' : ''), onclick: function () { state.trackIndex = j; renderAll(); } }, [
        el('td', { class: 'num', text: j }), el('td', { class: 'num', text: t.jointId }), el('td', { class: 'num', text: t.keys.length }),
        el('td', { class: 'mono', text: t.keys.length ? t.keys[0].frame + '…' + t.keys[t.keys.length - 1].frame : '–' }),
        el('td', { text: Object.keys(kinds).map(function (n) { return kinds[n] + ' ' + n; }).join(', ') }),
        el('td', { class: 'mono', text: !k0 ? '' : k0.keyType === 0 ? [k0.w, k0.x, k0.y, k0.z].join(', ') : k0.keyType === 1 ? 'T ' + [k0.x, k0.y, k0.z].join(', ') : '(no payload)' }),
      ]));
    });
    var parts = [el('div', { class: 'scroll' }, [tt])];
    var sel = a.tracks[state.trackIndex];
    if (sel) {
      var kt = el('table', { class: 'grid small' }, [el('tr', null, [el('th', { class: 'num', text: 'key' }), el('th', { class: 'num', text: 'frame' }), el('th', { text: 'type' }),
        el('th', { class: 'num', text: 'w' }), el('th', { class: 'num', text: 'x' }), el('th', { class: 'num', text: 'y' }), el('th', { class: 'num', text: 'z' })])]);
      sel.keys.forEach(function (k, i) {
        var type = k.keyType === 0 ? 'ROTATION' : k.keyType === 1 ? 'TRANSLATION' : 'unknown (' + k.keyType + ')';
        kt.appendChild(el('tr', null, [el('td', { class: 'num', text: i }), el('td', { class: 'num', text: k.frame }), el('td', { text: type }),
          el('td', { class: 'num', text: k.keyType === 0 ? k.w : '' }), el('td', { class: 'num', text: k.keyType <= 1 ? k.x : '' }),
          el('td', { class: 'num', text: k.keyType <= 1 ? k.y : '' }), el('td', { class: 'num', text: k.keyType <= 1 ? k.z : '' })]));
      });
      var d = el('details', null, [el('summary', { text: 'Keys of track ' + state.trackIndex + ' (joint ' + sel.jointId + ')' }), el('div', { class: 'scroll' }, [kt])]);
      parts.push(d);
    }
    if (a.markers.length) {
      parts.push(el('div', { class: 'chips', style: 'margin-top:8px' }, a.markers.map(function (mk) {
        return el('span', { class: 'chip', text: '⚑ ' + mk.name + ' @' + mk.frame });
      })));
    }
    view.appendChild(card(['Tracks of ', el('span', { class: 'mono', text: '"' + a.name + '"' })], parts));
  }

  function renderMeshbin(view, f, summary) {
    var m = f.model;
    var root = f.root;
    summary.appendChild(dl([
      ['version', m.version],
      ['vertices', m.vertices.length],
      ['quads', m.quads.length + (m.numFaces !== m.quads.length ? ' (header says ' + m.numFaces + ' faces)' : '')],
      ['normals / uvs', root.numNormals + ' / ' + root.numUvs],
      ['skeleton', m.bones.length ? plural(m.bones.length, 'bone') + (m.declaredBones !== m.bones.length ? ' (header says ' + m.declaredBones + ')' : '') : 'none'],
      ['bounding box', '(' + [root.aabbMin.x, root.aabbMin.y, root.aabbMin.z].join(', ') + ') – (' + [root.aabbMax.x, root.aabbMax.y, root.aabbMax.z].join(', ') + ')'],
      ['trailing bytes', root.trailing ? root.trailing.length : 0],
    ]));
    if (!root.isLoadable) summary.appendChild(el('div', { class: 'parse-error', text: 'num_faces >= 1000: the engine refuses this file' }));
    if (m.bones.length) {
      var t = el('table', { class: 'grid small', 'data-testid': 'bones' }, [el('tr', null, [el('th', { class: 'num', text: 'bone' }), el('th', { class: 'num', text: 'parent' }),
        el('th', { text: 'rest position (raw 20.12)' }), el('th', { text: 'rest rotation (w, x, y, z FP12)' }), el('th', { class: 'num', text: 'vertices' })])]);
      m.bones.forEach(function (b, i) {
        var count = m.boneForVertex.filter(function (x) { return x === i; }).length;
        t.appendChild(el('tr', null, [el('td', { class: 'num', text: i }), el('td', { class: 'num', text: b.parent }),
          el('td', { class: 'mono', text: b.position.join(', ') }), el('td', { class: 'mono', text: b.rotation.join(', ') }), el('td', { class: 'num', text: count })]));
      });
      view.appendChild(card(['Skeleton ', el('span', { class: 'muted', text: state.meshbin === f ? '(playing ANIMBIN clips on it)' : '' })], [t]));
    }
  }

  function sectionName(tag) {
    var e = enumInfo('animclip', 'section_tag', tag);
    if (!e) return null;
    var m = /"([^"]+)"/.exec(e.doc || '');
    return { id: e.id, title: m ? m[1] : e.id };
  }

  function sparkline(values) {
    var w = 160, h = 28;
    var finite = values.filter(function (v) { return Number.isFinite(v); });
    var lo = Math.min.apply(null, finite.length ? finite : [0]), hi = Math.max.apply(null, finite.length ? finite : [1]);
    if (hi === lo) { hi += 1; lo -= 1; }
    var pts = values.map(function (v, i) {
      var x = values.length > 1 ? (i / (values.length - 1)) * (w - 4) + 2 : w / 2;
      var y = h - 3 - ((Number.isFinite(v) ? v : lo) - lo) / (hi - lo) * (h - 6);
      return x.toFixed(1) + ',' + y.toFixed(1);
    }).join(' ');
    var svg = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
    svg.setAttribute('class', 'spark');
    svg.setAttribute('viewBox', '0 0 ' + w + ' ' + h);
    svg.innerHTML = '<polyline fill="none" stroke="#86d19a" stroke-width="1.5" points="' + pts + '"/>'
      + (values.length === 1 ? '<circle cx="' + pts.split(',')[0] + '" cy="' + pts.split(',')[1] + '" r="2" fill="#86d19a"/>' : '');
    return svg;
  }

  function tryGet(fn) {
    try { return fn(); } catch (e) { return undefined; }
  }

  function renderRig(view, f, summary) {
    var bones = f.rig.bones;
    summary.appendChild(dl([
      ['bones', bones.length],
      ['used for', state.rig === f ? '.animclip playback: clip joints drive the bones whose name hashes match' : '–'],
    ]));
    var t = el('table', { class: 'grid small', 'data-testid': 'rig-bones' }, [el('tr', null, [el('th', { class: 'num', text: 'bone' }), el('th', { text: 'name' }),
      el('th', { text: 'CRC32' }), el('th', { class: 'num', text: 'parent' }), el('th', { text: 'rest translation' })])]);
    bones.forEach(function (b, i) {
      t.appendChild(el('tr', null, [el('td', { class: 'num', text: i }), el('td', { class: 'mono', text: b.name }), el('td', { class: 'mono', text: hex(b.hash) }),
        el('td', { class: 'num', text: b.parent }), el('td', { class: 'mono', text: b.position.map(function (c) { return c.toFixed(3); }).join(', ') })]));
    });
    view.appendChild(card('Rig (glTF skin)', [el('div', { class: 'scroll' }, [t])]));
  }

  /** What the frame decoder made of the clip (web/js/clip.js), or why it could not. */
  function renderClipFrames(view, f) {
    if (f.clipError) {
      view.appendChild(card('Frames', [el('div', { class: 'parse-error', 'data-testid': 'clip-decode-error' }, [
        'The frames do not decode' + (f.clipError.field ? ' (' + f.clipError.field + ')' : '') + ': ' + AnimFormats.describeError(f.clipError)])]));
      return;
    }
    var c = f.clip;
    if (!c) return;
    var m = c.rootMotion;
    var travel = m ? [0, 1, 2].map(function (i) { return (m.translation[3 * (m.count - 1) + i] - m.translation[i]).toFixed(3); }).join(', ') : null;
    var rows = [
      ['frames', c.frameCount + ' at ' + fmt(c.fps, 3) + ' fps (' + ((c.looping ? c.frameCount : c.frameCount - 1) / c.fps).toFixed(3) + ' s), ' + (c.looping ? 'looping' : 'plays once')],
      ['samples', c.animated ? c.sampleCount + ' distinct, ' + plural(c.joints, 'joint') : 'none: every frame is the base pose'],
      ['root motion', m ? plural(m.count, 'sample') + ', travel ' + travel : 'none'],
    ];
    c.notes.forEach(function (n) { rows.push(['note', n]); });
    var body = [dl(rows)];
    if (state.clip !== f || state.player !== 'clip') {
      body.push(el('button', { class: 'button', text: '▶ Play in the 3D view', onclick: function () { selectFile(f); } }));
    }
    view.appendChild(card(['Frames ', el('span', { class: 'muted', text: '(Sample Elem + Sample Data over Base State, decoded here)' })], body, { 'data-testid': 'clip-frames' }));
  }

  function renderAnimclip(view, f, summary) {
    var root = f.root;
    // 36-byte outer header, Spider-Man 2's STG wrapper, or a bare DAT1 (no header)
    var head = root.header ? { magic: root.header.magic, lenDat1: root.header.lenDat1, what: 'outer header' }
      : root.stg ? { magic: root.stg.assetHeader.assetType, lenDat1: root.stg.assetHeader.lenDat1, what: 'STG wrapper' }
      : { magic: root.dat1 ? root.dat1.typeId : 0, lenDat1: root.dat1 ? root.dat1.lenDat1 : 0, what: 'bare DAT1' };
    var assetType = enumInfo('animclip', 'asset_type', head.magic);
    var rows = [
      ['asset type', (assetType ? assetType.id : 'unknown') + ' (0x' + hex(head.magic) + ')'],
      ['container', head.what],
      ['DAT1 size (header)', head.lenDat1],
    ];
    if (f.inflated && f.inflated.bytes) rows.push(['body', 'LZ4 block, ' + f.inflated.compressedSize + ' → ' + f.inflated.size + ' bytes (decompressed here; offsets below are in the decompressed file)']);
    else if (f.inflated && f.inflated.error) rows.push(['body', f.inflated.error]);
    else rows.push(['body', 'plain DAT1']);
    var dat1 = root.dat1;
    if (dat1) {
      var typeId = enumInfo('animclip', 'asset_type', dat1.typeId);
      rows.push(['DAT1 type id', (typeId ? typeId.id : 'unknown') + ' (0x' + hex(dat1.typeId) + ')']);
      rows.push(['DAT1 size', dat1.lenDat1 + (dat1.lenDat1 !== head.lenDat1 ? ' (differs from the ' + head.what + '!)' : '')]);
      rows.push(['sections / unknowns', dat1.numSections + ' / ' + dat1.numUnknowns]);
    }
    summary.appendChild(dl(rows));
    if (!dat1) return;

    var builtSec = tryGet(function () { return dat1.builtSection; });
    if (builtSec) {
      var name = tryGet(function () { return builtSec.name; });
      view.appendChild(card('Clip (Anim Clip Built)', [dl([
        ['name', name === undefined ? '?' : JSON.stringify(name)],
        ['name hash', '0x' + hex(builtSec.nameHash)],
        ['fps', fmt(builtSec.fps, 3)],
        ['duration', fmt(builtSec.duration, 3) + ' s'],
        ['joints (base state)', builtSec.numJoints],
        ['frames', builtSec.numFrames],
        ['flags', '0x' + hex(builtSec.flags)],
        ['sample elements (small / large)', builtSec.numElems + ' / ' + builtSec.numLargeElems],
        ['stride', builtSec.stride + ' bytes'],
        ['custom tracks', builtSec.numCustomTracks],
        ['sound event hash', builtSec.hasDeadMarkers ? 'DEADDEAD (none)' : '0x' + hex(builtSec.soundEventHash)],
      ])], { 'data-testid': 'clip' }));
    }

    renderClipFrames(view, f);

    var st = el('table', { class: 'grid small', 'data-testid': 'sections' }, [el('tr', null, [el('th', { class: 'num', text: '#' }), el('th', { text: 'tag' }),
      el('th', { text: 'section' }), el('th', { class: 'num', text: 'offset' }), el('th', { class: 'num', text: 'size' }), el('th', { text: 'payload' })])]);
    var byTag = {};
    dat1.sections.forEach(function (s, i) {
      var info = sectionName(s.tag);
      var body, status;
      try {
        body = s.body;
        status = body instanceof Uint8Array ? 'raw bytes (unknown tag)' : 'parsed';
      } catch (e) {
        status = '⚠ ' + (e.name || 'Error') + ': ' + e.message;
      }
      if (info) byTag[info.id] = { entry: s, body: body };
      st.appendChild(el('tr', { 'data-testid': 'section-row', 'data-tag': hex(s.tag), 'data-name': info ? info.id : '' }, [
        el('td', { class: 'num', text: i }), el('td', { class: 'mono', text: hex(s.tag) }), el('td', { text: info ? info.title : 'unknown' }),
        el('td', { class: 'num', text: '0x' + s.ofsBody.toString(16) }), el('td', { class: 'num', text: s.lenBody }), el('td', { class: status === 'parsed' ? 'muted' : '', text: status }),
      ]));
    });
    view.appendChild(card(['Sections ', el('span', { class: 'muted', text: '(DAT1 section table; offsets from "1TAD")' })], [st]));

    var strings = (dat1.stringsBlock && dat1.stringsBlock.strings || []).filter(function (s) { return s.length; });
    if (strings.length) view.appendChild(card('Strings', [el('div', { class: 'chips' }, strings.map(function (s) { return el('span', { class: 'chip', text: s }); }))]));

    var hashes = byTag.joint_hashes && byTag.joint_hashes.body ? tryGet(function () { return byTag.joint_hashes.body.hashes; }) || [] : [];
    var base = byTag.base_state && byTag.base_state.body;
    if (base) {
      var joints = tryGet(function () { return base.joints; }) || [];
      var bt = el('table', { class: 'grid small', 'data-testid': 'base-state' }, [el('tr', null, [el('th', { class: 'num', text: 'joint' }), el('th', { text: 'hash' }),
        el('th', { text: 'rotation (x, y, z, w, normalised)' }), el('th', { text: 'translation' }), el('th', { class: 'num', text: 'exp' })])]);
      joints.forEach(function (j, i) {
        var q = [j.rotX, j.rotY, j.rotZ, j.rotW];
        var n = Math.hypot(q[0], q[1], q[2], q[3]) || 1;
        bt.appendChild(el('tr', null, [el('td', { class: 'num', text: i }), el('td', { class: 'mono', text: hashes[i] !== undefined ? hex(hashes[i]) : '' }),
          el('td', { class: 'mono', text: q.map(function (c) { return (c / n).toFixed(4); }).join(', ') }),
          el('td', { class: 'mono', text: [j.posX, j.posY, j.posZ].map(function (c) { return fmt(c, 4); }).join(', ') }),
          el('td', { class: 'num', text: j.logScale2 })]));
      });
      var extra = base.isSizeConsistent ? null : el('div', { class: 'note', text: 'The payload is shorter than 16·J + 32·T bytes: records were cut to what fits.' });
      view.appendChild(card(['Base state ', el('span', { class: 'muted', text: '(' + plural(joints.length, 'joint record') + ', ' + plural(base.numThings, '32-byte thing') + ')' })], [el('div', { class: 'scroll' }, [bt]), extra]));
    }

    var ct = byTag.custom_tracks && byTag.custom_tracks.body;
    if (ct) {
      var entries = tryGet(function () { return ct.entries; }) || [];
      var tt = el('table', { class: 'grid small', 'data-testid': 'custom-tracks' }, [el('tr', null, [el('th', { text: 'track' }), el('th', { text: 'hash' }),
        el('th', { class: 'num', text: 'values' }), el('th', { text: 'curve' }), el('th', { text: 'range' })])]);
      entries.forEach(function (e) {
        var values = tryGet(function () { return e.values; }) || [];
        var finite = values.filter(Number.isFinite);
        tt.appendChild(el('tr', null, [el('td', { class: 'mono', text: tryGet(function () { return e.name; }) || '?' }), el('td', { class: 'mono', text: hex(e.nameHash) }),
          el('td', { class: 'num', text: e.numValues }), el('td', null, [values.length ? sparkline(values) : '–']),
          el('td', { class: 'mono', text: finite.length ? fmt(Math.min.apply(null, finite), 3) + ' … ' + fmt(Math.max.apply(null, finite), 3) : '' })]));
      });
      view.appendChild(card('Custom tracks', [tt]));
    }

    var se = byTag.sample_elem && byTag.sample_elem.body;
    var sd = byTag.sample_data && byTag.sample_data.entry;
    var td = byTag.trigger_data && byTag.trigger_data.body;
    var other = [];
    if (se) other.push(['sample elements', se.numElems]);
    if (sd) other.push(['sample data', sd.lenBody + ' bytes' + (f.clip ? ' (decoded: see Frames)' : '')]);
    if (td) other.push(['trigger records', td.numRecords]);
    if (hashes.length) other.push(['joint hashes', hashes.length + (hashes[hashes.length - 1] === 0xffffffff ? ' (ends with FFFFFFFF)' : '')]);
    if (other.length) view.appendChild(card('Other data', [dl(other)]));
  }

  // --- rendering: playback side --------------------------------------------------------------

  function renderAnimSelect() {
    var s = $('anim-select');
    s.innerHTML = '';
    if (isClip()) {
      var c = state.clip.clip;
      s.appendChild(el('option', { text: state.clip.name + ' (' + plural(c.frameCount, 'frame') + ' at ' + fmt(c.fps, 3).replace(/\.?0+$/, '') + ' fps, ' + (c.looping ? 'loops' : 'once') + ')' }));
      s.disabled = true;
      return;
    }
    var m = state.animbin && state.animbin.model;
    if (!m) { s.appendChild(el('option', { text: '(no .animbin loaded)' })); s.disabled = true; return; }
    s.disabled = false;
    m.animations.forEach(function (a, i) {
      s.appendChild(el('option', { value: i, text: i + ': ' + a.name + ' (' + a.length + ' frames, ' + (a.isLooping ? 'loops' : 'once') + ')', selected: i === state.animIndex }));
    });
  }

  function renderTimeline() {
    var tl = $('timeline');
    tl.innerHTML = '';
    delete tl.dataset.span;
    $('timeline-label').textContent = '';
    var scrub = $('scrub');
    if (isClip()) {
      var c = state.clip.clip;
      var last = Math.max(c.frameCount - 1, 1);
      tl.dataset.span = last;
      var at = function (f) { return (f / last * 100).toFixed(3) + '%'; };
      if (c.frameCount <= 200) for (var k = 0; k < c.frameCount; k++) tl.appendChild(el('div', { class: 'tick', style: 'left:' + at(k) + (k % 5 ? ';height:4px' : '') }));
      tl.appendChild(el('div', { class: 'playhead', id: 'playhead', style: 'left:0%' }));
      scrub.max = c.frameCount - 1;
      scrub.value = state.clipFrame;
      $('timeline-label').textContent = 'frames 0–' + (c.frameCount - 1) + ' at ' + fmt(c.fps, 3).replace(/\.?0+$/, '') + ' fps'
        + (c.sampleCount < c.frameCount ? ' (' + plural(c.sampleCount, 'distinct sample') + ')' : '') + ' · click or drag the slider to scrub';
      return;
    }
    var a = currentAnimation();
    if (!a) return;
    var maxKey = 0;
    a.tracks.forEach(function (t) { t.keys.forEach(function (k) { maxKey = Math.max(maxKey, k.frame + 1); }); });
    var span = Math.max(a.length, maxKey, 1);
    tl.dataset.span = span;
    var pct = function (f) { return (f / span * 100).toFixed(3) + '%'; };
    if (span <= 200) for (var f = 0; f <= span; f++) tl.appendChild(el('div', { class: 'tick', style: 'left:' + pct(f) + (f % 5 ? ';height:4px' : '') }));
    var t = a.tracks[state.trackIndex] || a.tracks[0];
    if (t) t.keys.forEach(function (k) { tl.appendChild(el('div', { class: 'key', style: 'left:' + pct(k.frame) + (k.keyType !== 0 ? ';background:#f2c46d' : ''), title: 'key at frame ' + k.frame })); });
    a.markers.forEach(function (m) {
      var label = m.name.length > 14 ? m.name.slice(0, 13) + '…' : m.name;
      tl.appendChild(el('div', { class: 'marker', style: 'left:' + pct(m.frame), title: 'marker "' + m.name + '" at frame ' + m.frame }, [el('span', { text: label })]));
    });
    tl.appendChild(el('div', { class: 'playhead', id: 'playhead', style: 'left:0%' }));
    $('timeline-label').textContent = 'frames 0–' + span + ' · green: keys of track ' + (t ? state.trackIndex + ' (joint ' + t.jointId + ')' : '–')
      + (a.markers.length ? ' · dashed: markers' : '') + ' · click to seek';
  }

  function renderPlaybackInfo() {
    var a = currentAnimation();
    var hud = $('hud');
    var hz = AnimEngine.refreshHz(state.refresh);
    if (isClip()) {
      var c = state.clip.clip;
      var m = AnimClip.rootMotionAt(c, state.clipFrame);
      hud.textContent = state.clip.name + '  .animclip · ' + fmt(c.fps, 3).replace(/\.?0+$/, '') + ' fps · ' + (c.looping ? 'loops' : 'plays once') + '\n'
        + 'frame ' + state.clipFrame + ' / ' + (c.frameCount - 1) + '   t = ' + (state.clipFrame / c.fps).toFixed(3) + ' s\n'
        + 'root motion: ' + (!m ? 'none' : !state.rootMotion ? 'hidden' : [0, 1, 2].map(function (i) { return m.translation[i].toFixed(3); }).join(', ')) + '\n'
        + 'skeleton: ' + (state.skeleton ? state.skeleton.label : '–');
      hud.dataset.frame = String(state.clipFrame);
      hud.dataset.tick = '';
      $('scrub').value = state.clipFrame;
    } else if (!a) { hud.textContent = ''; }
    else {
      var frameText = state.frame === null ? '–' : (state.mode === 'engine' ? String(state.frame) : state.frame.toFixed(2));
      hud.textContent = '"' + a.name + '"  ' + (state.mode === 'engine' ? 'engine FP12' : 'reference') + ' · ' + state.refresh.toUpperCase()
        + ' · deltaTime ' + state.delta + '\n'
        + 'tick ' + state.tick + '   frame ' + frameText + ' / ' + a.length + '   t = ' + (state.tick * state.delta / hz).toFixed(3) + ' s\n'
        + 'skeleton: ' + (state.skeleton ? state.skeleton.label : '–');
      hud.dataset.frame = state.frame === null ? '' : String(state.frame);
      hud.dataset.tick = String(state.tick);
    }
    var ph = $('playhead');
    var tl = $('timeline');
    var shownFrame = isClip() ? state.clipFrame : state.frame || 0;
    if (ph && tl.dataset.span) ph.style.left = (shownFrame / Number(tl.dataset.span) * 100).toFixed(3) + '%';
    renderPose();
  }

  function renderPose() {
    var table = $('pose-table');
    table.innerHTML = '';
    var skel = state.skeleton;
    if (isClip()) {
      $('pose-mode').textContent = '(local, unit quaternions w, x, y, z: the decoded frame; root motion not included)';
      $('events').innerHTML = '';
      renderClipPose(table);
      return;
    }
    $('pose-mode').textContent = state.mode === 'engine' ? '(raw FP12, 4096 = 1.0: what the console holds)' : '(unit quaternions, as authored)';
    if (!skel || !currentAnimation()) return;
    table.appendChild(el('tr', null, [el('th', { class: 'num', text: 'joint' }), el('th', { class: 'num', text: 'w' }), el('th', { class: 'num', text: 'x' }),
      el('th', { class: 'num', text: 'y' }), el('th', { class: 'num', text: 'z' }), el('th', { class: 'num', text: 'angle°' })]));
    var rows = state.mode === 'engine' && state.engine ? state.engine.localRotations : (state.pose || skel.bones.map(function (b) { return b.rotation.map(function (c) { return c / 4096; }); }));
    rows.slice(0, 32).forEach(function (q, j) {
      var w = state.mode === 'engine' ? q[0] / 4096 : q[0];
      var n = state.mode === 'engine' ? Math.hypot(q[0], q[1], q[2], q[3]) / 4096 : Math.hypot(q[0], q[1], q[2], q[3]);
      var angle = n > 0 ? 2 * Math.acos(Math.min(1, Math.abs(w) / n)) * 180 / Math.PI : 0;
      table.appendChild(el('tr', { 'data-testid': 'pose-row', 'data-joint': j, 'data-q': q.join(',') }, [el('td', { class: 'num', text: j })].concat(q.map(function (c) {
        return el('td', { class: 'num', text: state.mode === 'engine' ? String(c) : c.toFixed(4) });
      })).concat([el('td', { class: 'num', text: angle.toFixed(1) })])));
    });
    var events = $('events');
    events.innerHTML = '';
    if (state.mode === 'engine' && state.engine && state.engine.events.length) {
      events.appendChild(el('div', { class: 'note' }, [el('b', { text: 'Playback events: ' })].concat(state.engine.events.map(function (e) {
        return el('div', { class: 'mono', 'data-testid': 'event', text: e.kind + ': track ' + e.track + ', joint ' + e.joint_id + ', first at tick ' + e.first_tick + ' (frame ' + e.first_frame + '), ' + plural(e.count, 'tick') });
      }))));
    }
  }

  function renderClipPose(table) {
    var c = state.clip.clip;
    var t = AnimClip.frame(c, state.clipFrame);
    var hashes = c.jointHashes;
    table.appendChild(el('tr', null, [el('th', { class: 'num', text: 'joint' }), el('th', { text: 'hash' }), el('th', { class: 'num', text: 'w' }), el('th', { class: 'num', text: 'x' }),
      el('th', { class: 'num', text: 'y' }), el('th', { class: 'num', text: 'z' }), el('th', { class: 'num', text: 'angle°' }), el('th', { text: 'translation' })]));
    for (var j = 0; j < Math.min(c.joints, 32); j++) {
      var q = [t.rotation[4 * j + 3], t.rotation[4 * j], t.rotation[4 * j + 1], t.rotation[4 * j + 2]];
      var angle = 2 * Math.acos(Math.min(1, Math.abs(q[0]))) * 180 / Math.PI;
      table.appendChild(el('tr', { 'data-testid': 'pose-row', 'data-joint': j, 'data-q': q.join(',') }, [el('td', { class: 'num', text: j }), el('td', { class: 'mono', text: hex(hashes[j]) })]
        .concat(q.map(function (x) { return el('td', { class: 'num', text: x.toFixed(4) }); }))
        .concat([el('td', { class: 'num', text: angle.toFixed(1) }), el('td', { class: 'mono', text: [0, 1, 2].map(function (i) { return t.translation[3 * j + i].toFixed(3); }).join(', ') })])));
    }
  }

  /** A tab click: show the file; an ANIMBIN or a decodable .animclip also takes over the 3D view. */
  function selectFile(f) {
    state.active = f.id;
    var player = f.format === 'animclip' && f.clip ? 'clip' : f.format === 'animbin' && f === state.animbin ? 'animbin' : null;
    if (player && (player !== state.player || (player === 'clip' && state.clip !== f))) {
      if (player === 'clip') state.clip = f;
      state.player = player;
      setPlaying(false);
      setupPlayback();
    }
    renderAll();
  }

  function renderAll() {
    renderTabs();
    renderFile();
    renderAnimSelect();
    renderTimeline();
    var note = $('viewport-note');
    note.classList.remove('bottom');
    if (!state.webgl) { note.hidden = false; note.textContent = 'WebGL is not available in this browser: the 3D view is off (structure and findings still work).'; }
    else if (isClip()) {
      note.hidden = state.clip.clip.animated;
      note.classList.add('bottom');
      note.textContent = 'This clip has no samples: every frame is its base pose.';
    } else if (!state.animbin) {
      note.hidden = false;
      if (state.meshbin) note.classList.add('bottom');
      note.textContent = state.meshbin ? 'Skeleton of ' + state.meshbin.name + ' at rest. Drop an .animbin to animate it.' : 'Drop an .animbin to play it here.';
    } else note.hidden = true;
    // Only .animclip (or unreadable) files: no 3D view, the file's data gets the width.
    document.body.classList.toggle('no-3d', state.files.length > 0 && !state.animbin && !state.meshbin && !isClip());
    document.body.classList.toggle('no-anim', !currentAnimation() && !isClip());
    document.body.classList.toggle('clip-mode', isClip());
    $('btn-play').disabled = $('btn-step').disabled = $('btn-reset').disabled = !currentAnimation() && !isClip();
    renderPlaybackInfo();
  }

  /** Switch clips like SetAnimation: an instant cut to frame 0, bones keep their rotations. */
  function selectAnimation(i) {
    state.animIndex = i;
    state.trackIndex = 0;
    var anim = currentAnimation();
    if (state.engine && anim) {
      state.engine.setAnimation(anim);
      state.tick = 0;
      state.frame = null;
      state.refVsync = 0;
      state.vsyncAcc = 0;
      if (state.mode === 'reference') sampleReference();
      else {
        state.pose = state.engine.localRotations.map(function (q) { return q.map(function (c) { return c / 4096; }); });
        state.translations = null;
      }
    } else resetPlayback();
    fitView();
    renderAll();
  }

  // --- wiring --------------------------------------------------------------------------------

  function init() {
    if (!built) {
      $('missing-build').hidden = false;
      document.querySelector('.layout').hidden = true;
      document.querySelector('label[for=file-input]').hidden = true;
      return;
    }
    var b = self.ANIMSPEC_BUILD || {};
    $('build-info').textContent = 'parsers: kaitai-struct-compiler ' + b.compiler + ' · three.js ' + b.three;
    state.webgl = !!(self.THREE && AnimScene.webglAvailable());
    if (state.webgl) {
      try {
        state.scene = AnimScene.create($('viewport'));
        state.scene.setSkeleton({ bones: [], mesh: null, label: '' });
        state.scene.render();
      } catch (e) {
        state.webgl = false;
        state.scene = null;
      }
    }
    $('file-input').addEventListener('change', function (ev) { loadFiles(ev.target.files); ev.target.value = ''; });
    var overlay = $('drop-overlay');
    var depth = 0;
    document.addEventListener('dragenter', function (ev) { ev.preventDefault(); depth++; overlay.hidden = false; });
    document.addEventListener('dragleave', function () { depth = Math.max(0, depth - 1); if (!depth) overlay.hidden = true; });
    document.addEventListener('dragover', function (ev) { ev.preventDefault(); });
    document.addEventListener('drop', function (ev) {
      ev.preventDefault();
      depth = 0;
      overlay.hidden = true;
      if (ev.dataTransfer && ev.dataTransfer.files && ev.dataTransfer.files.length) loadFiles(ev.dataTransfer.files);
    });
    $('anim-select').addEventListener('change', function (ev) { selectAnimation(Number(ev.target.value)); });
    $('btn-play').addEventListener('click', function () { setPlaying(!state.playing); });
    $('btn-step').addEventListener('click', function () { setPlaying(false); stepTick(); applyPose(); });
    $('btn-reset').addEventListener('click', function () { resetPlayback(); });
    $('speed').addEventListener('input', function (ev) { state.speed = Number(ev.target.value); $('speed-label').textContent = state.speed.toFixed(1) + '×'; });
    document.querySelectorAll('input[name=mode]').forEach(function (r) {
      r.addEventListener('change', function () { setMode(r.value); });
    });
    document.querySelectorAll('input[name=refresh]').forEach(function (r) {
      r.addEventListener('change', function () { state.refresh = r.value; renderPlaybackInfo(); });
    });
    $('delta-select').addEventListener('change', function (ev) { state.delta = Number(ev.target.value); renderPlaybackInfo(); });
    $('show-mesh').addEventListener('change', function (ev) { if (state.scene) { state.scene.showMesh = ev.target.checked; applyPose(); } });
    $('show-bones').addEventListener('change', function (ev) { if (state.scene) { state.scene.showBones = ev.target.checked; applyPose(); } });
    $('scrub').addEventListener('input', function (ev) { setPlaying(false); seek(Number(ev.target.value)); });
    $('show-root-motion').addEventListener('change', function (ev) { state.rootMotion = ev.target.checked; if (isClip()) fitView(); });
    $('timeline').addEventListener('click', function (ev) {
      var tl = $('timeline');
      if (!tl.dataset.span) return;
      var r = tl.getBoundingClientRect();
      setPlaying(false);
      seek(Math.round((ev.clientX - r.left) / r.width * Number(tl.dataset.span)));
    });
    renderAll();
    requestAnimationFrame(loop);
  }

  function setMode(mode) {
    var frame = state.frame || 0;
    state.mode = mode;
    document.getElementById(mode === 'engine' ? 'mode-engine' : 'mode-reference').checked = true;
    if (!currentAnimation()) return;
    if (mode === 'reference') {
      state.refVsync = frame;
      sampleReference();
    } else {
      state.pose = state.engine ? state.engine.localRotations.map(function (q) { return q.map(function (c) { return c / 4096; }); }) : null;
      state.translations = null;
    }
    applyPose();
  }

  // --- API for tests and the console ---------------------------------------------------------

  self.animspecViewer = {
    get ready() { return built; },
    loadFiles: loadFiles,
    /** Load files given as [{name, base64}] (what a test harness can pass in). */
    loadBase64: function (list) {
      return loadFiles(list.map(function (x) {
        var bin = atob(x.base64);
        var bytes = new Uint8Array(bin.length);
        for (var i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
        return new File([bytes], x.name);
      }));
    },
    play: function () { setPlaying(true); },
    /** Show the loaded file of this name (a tab click): a decodable .animclip then plays. */
    select: function (name) { var f = state.files.filter(function (x) { return x.name === name; })[0]; if (f) selectFile(f); return !!f; },
    pause: function () { setPlaying(false); },
    step: function (n) { setPlaying(false); for (var i = 0; i < (n || 1); i++) stepTick(); applyPose(); return state.frame; },
    reset: function () { resetPlayback(); },
    setMode: setMode,
    setAnimation: selectAnimation,
    seek: seek,
    state: function () {
      var f = activeFile();
      return {
        files: state.files.map(function (x) { return { name: x.name, format: x.format, error: x.error ? String(x.error.message || x.error) : null }; }),
        active: f ? f.name : null,
        format: f ? f.format : null,
        animbin: state.animbin ? state.animbin.name : null,
        meshbin: state.meshbin ? state.meshbin.name : null,
        rig: state.rig ? state.rig.name : null,
        animations: state.animbin ? state.animbin.model.animations.map(function (a) { return a.name; }) : [],
        animIndex: state.animIndex,
        mode: state.mode,
        refresh: state.refresh,
        delta: state.delta,
        playing: state.playing,
        tick: state.tick,
        frame: state.frame,
        engineRotations: state.engine ? state.engine.localRotations.map(function (q) { return q.slice(); }) : null,
        pose: state.pose,
        jointPositions: state.scene ? state.scene.jointPositions() : null,
        sceneJointPositions: state.scene ? state.scene.jointPositions(true) : null,
        skeleton: state.skeletonSource,
        findings: f && f.findings ? f.findings.map(function (x) { return x.code; }) : [],
        player: state.player,
        boneNames: state.skeleton ? state.skeleton.bones.map(function (b) { return b.name || null; }) : [],
        clip: isClip() ? {
          name: state.clip.name, frame: state.clipFrame, frameCount: state.clip.clip.frameCount, fps: state.clip.clip.fps,
          looping: state.clip.clip.looping, animated: state.clip.clip.animated, rootMotion: !!state.clip.clip.rootMotion,
        } : null,
        webgl: state.webgl,
      };
    },
  };

  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', init);
  else init();
})();
