// World positions of named nodes of a glTF / GLB, frame by frame, as three.js shows them:
// GLTFLoader reads the file, an AnimationMixer plays its first animation, and each node's
// matrixWorld gives its position. Used by tests/test_examples_look_right.py so that the look
// of the examples is not judged only by animspec's own reading of what it wrote.
//
// usage: node three_world_positions.mjs FILE.glb FPS FRAMES NAME...
// prints {"animation": name, "duration": s, "positions": [frame][name][x, y, z]}
import fs from 'node:fs';
import * as THREE from 'three';
import { GLTFLoader } from 'three/examples/jsm/loaders/GLTFLoader.js';

const [file, fps, frames, ...names] = process.argv.slice(2);
const bytes = fs.readFileSync(file);
const buffer = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);

new GLTFLoader().parse(buffer, '', (gltf) => {
  const clip = gltf.animations[0];
  const mixer = new THREE.AnimationMixer(gltf.scene);
  const action = mixer.clipAction(clip);
  // Once and held at the end, so the last frame is the last pose (a repeating action wraps
  // the clip's end time round to its start).
  action.setLoop(THREE.LoopOnce, 1);
  action.clampWhenFinished = true;
  action.play();
  const nodes = names.map((name) => {
    const node = gltf.scene.getObjectByName(name);
    if (!node) throw new Error(`no node named ${name}`);
    return node;
  });
  const positions = [];
  const where = new THREE.Vector3();
  for (let f = 0; f < Number(frames); f++) {
    mixer.setTime(Math.min(f / Number(fps), clip.duration));
    gltf.scene.updateMatrixWorld(true);
    positions.push(nodes.map((node) => node.getWorldPosition(where).toArray()));
  }
  process.stdout.write(JSON.stringify({ animation: clip.name, duration: clip.duration, positions }));
}, (error) => {
  process.stderr.write(String(error));
  process.exit(1);
});
