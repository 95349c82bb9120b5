/*
 * scene.js: the 3D view (three.js, window.THREE from web/build/three.js).
 *
 * Bones are composed as the engine does (Forceh91/psyqo-madnight-engine,
 * src/mesh/skeleton/skeleton.cpp):
 * local = rotation of the bone's local quaternion + its rest translation, world =
 * parent.world * local, parents before children. The MESHBIN mesh is rigidly skinned: each
 * vertex follows its bone's motion away from the rest pose (world * restWorld^-1).
 * Positions are raw 20.12 values (the file's units). The console's model space is the engine
 * exporter's: Blender's Z-up armature space through diag(1, -1, -1), so "up" is -Z there; the
 * model sits under a group turned +90 degrees about X, the same turn animspec's glTF writer
 * gives roots (python/animspec/gltf/axes.py), so the viewer and a glTF viewer agree.
 */
(function (root) {
  'use strict';

  var PALETTE = [0x5fb3f6, 0x86d19a, 0xf2c46d, 0xf07178, 0xc79bff, 0x6fd6d6, 0xff9e64, 0xb5e86b];

  function webglAvailable() {
    try {
      var c = document.createElement('canvas');
      return !!(c.getContext('webgl2') || c.getContext('webgl'));
    } catch (e) {
      return false;
    }
  }

  function Scene3D(container) {
    var THREE = root.THREE;
    this.THREE = THREE;
    this.container = container;
    this.renderer = new THREE.WebGLRenderer({ antialias: true, preserveDrawingBuffer: true });
    this.renderer.setPixelRatio(Math.min(root.devicePixelRatio || 1, 2));
    this.renderer.setClearColor(0x000000, 0);
    container.appendChild(this.renderer.domElement);
    this.scene = new THREE.Scene();
    this.camera = new THREE.PerspectiveCamera(40, 1, 0.1, 10000);
    this.controls = new THREE.OrbitControls(this.camera, this.renderer.domElement);
    this.controls.enableDamping = false;
    this.scene.add(new THREE.HemisphereLight(0xdde8ff, 0x2a2418, 1.6));
    var sun = new THREE.DirectionalLight(0xffffff, 1.8);
    sun.position.set(2, 3, 4);
    this.scene.add(sun);
    this.model = new THREE.Group();
    this.model.rotation.x = Math.PI / 2; // console model space (-Z up) -> Y-up, as in the GLBs animspec writes
    this.scene.add(this.model);
    this.grid = null;
    this.showMesh = true;
    this.showBones = true;
    this.skeleton = null;
    var self = this;
    this.resize();
    if (root.ResizeObserver) new ResizeObserver(function () { self.resize(); self.render(); }).observe(container);
    this.controls.addEventListener('change', function () { self.render(); });
  }

  Scene3D.prototype.resize = function () {
    var w = this.container.clientWidth || 640, h = this.container.clientHeight || 400;
    this.renderer.setSize(w, h, true);
    this.camera.aspect = w / h;
    this.camera.updateProjectionMatrix();
  };

  function clearGroup(g) {
    while (g.children.length) {
      var c = g.children.pop();
      if (c.geometry) c.geometry.dispose();
      if (c.material) c.material.dispose();
    }
  }

  /**
   * skel: { bones: [{parent, position: [x,y,z] raw, rotation: [w,x,y,z] raw}], mesh: null or
   * {vertices, colours, quads, boneForVertex}, label, yUp: true for a Y-up model space (no turn),
   * frame: optional {position, quaternion, scale} of the model (a glTF armature's parent) }.
   */
  Scene3D.prototype.setSkeleton = function (skel) {
    var THREE = this.THREE;
    clearGroup(this.model);
    // A glTF rig's armature may sit under a transform (frame: its parent's world position,
    // quaternion x y z w and scale); an .animclip's stand-in chain has no turn (yUp); the
    // console's skeletons turn +90 degrees about X.
    this.model.position.set(0, 0, 0);
    this.model.scale.set(1, 1, 1);
    this.model.rotation.set(skel.yUp ? 0 : Math.PI / 2, 0, 0);
    if (skel.frame) {
      this.model.position.fromArray(skel.frame.position);
      this.model.quaternion.fromArray(skel.frame.quaternion);
      this.model.scale.fromArray(skel.frame.scale);
    }
    this.model.updateMatrixWorld(true);
    this.stubMeshes = [];
    this.skeleton = skel;
    var n = skel.bones.length;
    this.children = skel.bones.map(function () { return []; });
    var self = this;
    skel.bones.forEach(function (b, i) {
      if (b.parent >= 0 && b.parent < i) self.children[b.parent].push(i);
    });
    this.jointMeshes = [];
    this.boneMeshes = [];
    this.restLocal = skel.bones.map(function (b) { return self.localMatrix(b.rotation.map(function (c) { return c / 4096; }), b.position); });
    this.restWorld = this.compose(this.restLocal);
    this.restWorldInv = this.restWorld.map(function (m) { return m.clone().invert(); });

    // Size of things, from the rest pose.
    var pts = this.restWorld.map(function (m) { return new THREE.Vector3().setFromMatrixPosition(m); });
    var seg = 0;
    skel.bones.forEach(function (b, i) { if (b.parent >= 0 && b.parent < i) seg = Math.max(seg, pts[i].distanceTo(pts[b.parent])); });
    if (skel.mesh) skel.mesh.vertices.forEach(function (v) { pts.push(new THREE.Vector3(v[0], v[1], v[2])); });
    var box = new THREE.Box3().setFromPoints(pts.length ? pts : [new THREE.Vector3()]);
    var size = Math.max(box.getSize(new THREE.Vector3()).length(), seg, 1);
    this.unit = n ? Math.max(seg, size / 6, 1) : 64; // an empty scene: the grid at a typical bone size
    this.stub = this.unit * 0.6;
    // A leaf's stub is at most 0.4 of the bone into it (a hand, a head, a foot): the unit's
    // floor of 1 suits the console's raw units, and would draw 0.6 m stubs on a rig in metres.
    var stub = this.stub;
    this.leafStub = skel.bones.map(function (b, i) {
      var len = b.parent >= 0 && b.parent < i ? pts[i].distanceTo(pts[b.parent]) : 0;
      return len > 0 ? Math.min(stub, 0.4 * len) : stub;
    });

    // Joints and bone segments.
    this.jointMeshes = [];
    this.boneMeshes = [];
    var jointGeo = new THREE.SphereGeometry(this.unit * 0.075, 20, 14);
    var boneGeo = new THREE.CylinderGeometry(this.unit * 0.025, this.unit * 0.06, 1, 10, 1);
    boneGeo.translate(0, 0.5, 0);
    for (var i = 0; i < n; i++) {
      var colour = PALETTE[i % PALETTE.length];
      var jm = new THREE.Mesh(jointGeo, new THREE.MeshStandardMaterial({ color: colour, roughness: 0.4, metalness: 0.1 }));
      this.model.add(jm);
      this.jointMeshes.push(jm);
      var bm = new THREE.Mesh(boneGeo, new THREE.MeshStandardMaterial({ color: colour, roughness: 0.5, transparent: true, opacity: 0.9 }));
      this.model.add(bm);
      this.boneMeshes.push(bm);
    }

    // Mesh, rigidly skinned.
    this.mesh = null;
    if (skel.mesh && skel.mesh.quads.length) {
      var m = skel.mesh;
      var src = [];
      m.quads.forEach(function (q) {
        if (q.some(function (k) { return k < 0 || k >= m.vertices.length; })) return;
        // stored [i0, i1, i2, i3] = OBJ a, d, b, c (obj-to-meshbin.py order)
        src.push(q[0], q[2], q[3], q[0], q[3], q[1]);
      });
      var geo = new THREE.BufferGeometry();
      var pos = new Float32Array(src.length * 3);
      var col = new Float32Array(src.length * 3);
      src.forEach(function (k, j) {
        var c = m.colours[k] || [255, 255, 255];
        var none = c[0] === 255 && c[1] === 255 && c[2] === 255;
        for (var a = 0; a < 3; a++) col[j * 3 + a] = none ? 0.75 : Math.min(1, c[a] / 128);
      });
      geo.setAttribute('position', new THREE.BufferAttribute(pos, 3));
      geo.setAttribute('color', new THREE.BufferAttribute(col, 3));
      var mat = new THREE.MeshStandardMaterial({ vertexColors: true, flatShading: true, side: THREE.DoubleSide, roughness: 0.65, transparent: true, opacity: 0.88 });
      this.mesh = new THREE.Mesh(geo, mat);
      this.mesh.userData.src = src;
      this.model.add(this.mesh);
    }

    this.fitCamera(box);
    this.setPose(null, null);
  };

  Scene3D.prototype.localMatrix = function (q, position) {
    var THREE = this.THREE;
    var quat = new THREE.Quaternion(q[1], q[2], q[3], q[0]);
    if (quat.lengthSq() === 0) quat.set(0, 0, 0, 1);
    quat.normalize();
    return new THREE.Matrix4().compose(new THREE.Vector3(position[0], position[1], position[2]), quat, new THREE.Vector3(1, 1, 1));
  };

  Scene3D.prototype.compose = function (locals) {
    var bones = this.skeleton.bones;
    var world = [];
    for (var i = 0; i < locals.length; i++) {
      var p = bones[i].parent;
      world.push(p >= 0 && p < i ? world[p].clone().multiply(locals[i]) : locals[i].clone());
    }
    return world;
  };

  /** World matrices of a pose (see setPose for the arguments). */
  Scene3D.prototype.worldFor = function (rotations, translations) {
    var bones = this.skeleton.bones;
    var self = this;
    return this.compose(bones.map(function (b, i) {
      var q = rotations && rotations[i] ? rotations[i] : b.rotation.map(function (c) { return c / 4096; });
      var t = translations && translations[i] ? translations[i] : b.position;
      return self.localMatrix(q, t);
    }));
  };

  /** Frame the camera on everything the given poses reach (joints, stubs, skinned mesh). */
  Scene3D.prototype.fitPoses = function (poses) {
    var THREE = this.THREE;
    if (!this.skeleton) return;
    var box = new THREE.Box3();
    var self = this;
    var m = this.skeleton.mesh;
    var stride = m ? Math.max(1, Math.floor(m.vertices.length / 500)) : 1;
    poses.forEach(function (pose) {
      // a pose: rotations alone (rest translations), or {rotations, translations}
      var world = pose && !Array.isArray(pose) ? self.worldFor(pose.rotations, pose.translations) : self.worldFor(pose, null);
      world.forEach(function (w, i) {
        box.expandByPoint(new THREE.Vector3().setFromMatrixPosition(w));
        if (!self.children[i].length) box.expandByPoint(new THREE.Vector3(0, self.leafStub[i], 0).applyMatrix4(w));
      });
      if (m && m.boneForVertex.length) {
        var skin = world.map(function (w, i) { return w.clone().multiply(self.restWorldInv[i]); });
        for (var k = 0; k < m.vertices.length; k += stride) {
          var b = m.boneForVertex[k];
          var v = new THREE.Vector3(m.vertices[k][0], m.vertices[k][1], m.vertices[k][2]);
          if (b >= 0 && b < skin.length) v.applyMatrix4(skin[b]);
          box.expandByPoint(v);
        }
      }
    });
    if (!box.isEmpty()) this.fitCamera(box, 1.08);
    this.render();
  };

  Scene3D.prototype.fitCamera = function (modelBox, margin) {
    var THREE = this.THREE;
    this.model.updateMatrixWorld(true);
    var box = modelBox.clone().applyMatrix4(this.model.matrixWorld);
    var sphere = box.getBoundingSphere(new THREE.Sphere());
    // By default leave room around the rest bounds for the pose to swing into.
    var r = Math.max(sphere.radius, this.unit * 0.5) * (margin || 1.25);
    var c = sphere.center;
    var fov = this.camera.fov * Math.PI / 180;
    var fit = Math.min(fov, 2 * Math.atan(Math.tan(fov / 2) * this.camera.aspect));
    var dist = r / Math.sin(fit / 2);
    var dir = new THREE.Vector3(0.42, 0.22, 0.88).normalize();
    this.camera.near = r / 100;
    this.camera.far = r * 100;
    this.camera.position.copy(c).addScaledVector(dir, dist);
    this.camera.updateProjectionMatrix();
    this.controls.target.copy(c);
    this.controls.update();
    if (this.grid) { this.scene.remove(this.grid); this.grid.geometry.dispose(); this.grid.material.dispose(); }
    var span = r * 4;
    this.grid = new THREE.GridHelper(span, 16, 0x3d4860, 0x252d3b);
    this.grid.position.set(c.x, box.min.y - r * 0.15, c.z);
    this.scene.add(this.grid);
  };

  /**
   * rotations: [joint][w,x,y,z] floats (need not be unit), null = rest. translations:
   * [joint][x,y,z] raw, null = rest.
   */
  Scene3D.prototype.setPose = function (rotations, translations) {
    if (!this.skeleton) return;
    var THREE = this.THREE;
    var bones = this.skeleton.bones;
    var self = this;
    var locals = bones.map(function (b, i) {
      var q = rotations && rotations[i] ? rotations[i] : b.rotation.map(function (c) { return c / 4096; });
      var t = translations && translations[i] ? translations[i] : b.position;
      return self.localMatrix(q, t);
    });
    var world = this.compose(locals);
    this.world = world;
    var pos = world.map(function (m) { return new THREE.Vector3().setFromMatrixPosition(m); });
    var up = new THREE.Vector3(0, 1, 0);
    bones.forEach(function (b, i) {
      self.jointMeshes[i].position.copy(pos[i]);
      self.jointMeshes[i].visible = self.showBones;
      var from, to;
      if (b.parent >= 0 && b.parent < i) {
        from = pos[b.parent];
        to = pos[i];
      } else if (!self.children[i].length || bones.length === 1) {
        // a lone root: show its orientation with a stub along its local +Z (down in the
        // console's model space)
        from = pos[i];
        to = new THREE.Vector3(0, 0, self.stub).applyMatrix4(world[i]);
      }
      var bm = self.boneMeshes[i];
      if (!from) { bm.visible = false; return; }
      var dir = new THREE.Vector3().subVectors(to, from);
      var len = dir.length();
      bm.visible = self.showBones && len > 1e-9;
      if (!bm.visible) return;
      bm.position.copy(from);
      bm.quaternion.setFromUnitVectors(up, dir.normalize());
      bm.scale.set(1, len, 1);
    });
    // Leaf bones: a stub past the joint, along the direction from the parent, so the last
    // bone's rotation shows.
    this.updateStubs(world, pos);
    if (this.mesh) {
      this.mesh.visible = this.showMesh;
      var m = this.skeleton.mesh;
      var skin = world.map(function (w, i) { return w.clone().multiply(self.restWorldInv[i]); });
      var attr = this.mesh.geometry.getAttribute('position');
      var v = new THREE.Vector3();
      this.mesh.userData.src.forEach(function (k, j) {
        var p = m.vertices[k];
        v.set(p[0], p[1], p[2]);
        var b = m.boneForVertex.length ? m.boneForVertex[k] : -1;
        if (b >= 0 && b < skin.length) v.applyMatrix4(skin[b]);
        attr.setXYZ(j, v.x, v.y, v.z);
      });
      attr.needsUpdate = true;
      this.mesh.geometry.computeVertexNormals();
      this.mesh.geometry.computeBoundingSphere();
    }
  };

  Scene3D.prototype.updateStubs = function (world, pos) {
    var THREE = this.THREE;
    if (!this.stubMeshes) this.stubMeshes = [];
    var bones = this.skeleton.bones;
    var self = this;
    var k = 0;
    bones.forEach(function (b, i) {
      if (self.children[i].length || !(b.parent >= 0 && b.parent < i)) return;
      var local = new THREE.Vector3(b.position[0], b.position[1], b.position[2]);
      if (local.lengthSq() === 0) local.set(0, 0, 1); // down, as a rest chain hangs
      local.normalize().multiplyScalar(self.leafStub ? self.leafStub[i] : self.stub);
      var to = local.applyMatrix4(world[i]);
      var bm = self.stubMeshes[k];
      if (!bm) {
        bm = new THREE.Mesh(self.boneMeshes[i].geometry, new THREE.MeshStandardMaterial({ color: 0x9aa6b8, roughness: 0.6, transparent: true, opacity: 0.75 }));
        self.model.add(bm);
        self.stubMeshes.push(bm);
      }
      var dir = new THREE.Vector3().subVectors(to, pos[i]);
      var len = dir.length();
      bm.visible = self.showBones;
      bm.position.copy(pos[i]);
      bm.quaternion.setFromUnitVectors(new THREE.Vector3(0, 1, 0), dir.normalize());
      bm.scale.set(1, len, 1);
      k++;
    });
  };

  Scene3D.prototype.render = function () {
    this.renderer.render(this.scene, this.camera);
  };

  /**
   * Joint positions in the model's space (raw units: PS1 space for a console skeleton): for
   * tests and the HUD. inScene: in the scene's space instead, the model's frame (a glTF rig's
   * nodes above its armature) and turn applied, where a glTF viewer would draw them.
   */
  Scene3D.prototype.jointPositions = function (inScene) {
    var THREE = this.THREE;
    var model = this.model;
    return (this.world || []).map(function (m) {
      var v = new THREE.Vector3().setFromMatrixPosition(m);
      if (inScene) v.applyMatrix4(model.matrixWorld);
      return [v.x, v.y, v.z];
    });
  };

  root.AnimScene = {
    webglAvailable: webglAvailable,
    create: function (container) { return new Scene3D(container); },
  };
})(typeof self !== 'undefined' ? self : this);
