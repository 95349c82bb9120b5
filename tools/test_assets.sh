#!/usr/bin/env bash
# Third-party skinned glTF samples for tests/test_third_party_rigs.py, from Debian's packages
# (never committed): Khronos SimpleSkin in assimp-testmodels, RiggedSimple and RiggedFigure
# in qt3d5-examples. Installs them where it can (root with apt-get); otherwise says why, and
# the tests that need them skip with that reason (under CI they fail instead).
set -u
want=()
[ -f /usr/share/assimp/models/glTF2/simple_skin/simple_skin.gltf ] || want+=(assimp-testmodels)
[ -f /usr/lib/x86_64-linux-gnu/qt5/examples/qt3d/exampleresources/assets/gltf/2.0/RiggedFigure/RiggedFigure.gltf ] \
  || want+=(qt3d5-examples)
[ ${#want[@]} -eq 0 ] && exit 0
if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null 2>&1; then
  echo "test assets: cannot install ${want[*]} here (needs root and apt-get): the third-party rig tests will skip" >&2
  exit 0
fi
echo "test assets: installing Debian's ${want[*]}" >&2
apt-get update -qq >/dev/null 2>&1
if ! DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${want[@]}" >/dev/null; then
  echo "test assets: apt-get install ${want[*]} failed: the third-party rig tests will skip" >&2
fi
exit 0
