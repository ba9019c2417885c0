#!/usr/bin/env bash
# Regenerate the pictures in docs/images from the example scenes (needs xvfb-run and Mesa's
# software Vulkan, as the GUI smoke test does). Usage: scripts/docs-images.sh [path/to/tabula]
set -euo pipefail
cd "$(dirname "$0")/.."
bin="${1:-${CARGO_TARGET_DIR:-target}/release/tabula}"
export XDG_RUNTIME_DIR="${XDG_RUNTIME_DIR:-$(mktemp -d)}"
shot() {
    local out="$1"
    shift
    xvfb-run -a -s "-screen 0 1600x1000x24" "$bin" open "$@" --screenshot "docs/images/$out" 2>/dev/null
    echo "docs/images/$out"
}
shot tomb-gm.png scenes/tomb.ron --moves 3
shot tomb-projector.png scenes/tomb.ron --moves 3 --view projector
shot farmstead-gm.png scenes/farmstead.ron --moves 25
shot farmstead-round-gm.png scenes/farmstead.ron --moves 5 --rounds 1
shot farmstead-move-gm.png scenes/farmstead.ron --moves 6
shot pasture-gm.png scenes/pasture.ron --moves 3
shot night-camp-gm.png scenes/night-camp.ron --moves 3
shot ambush-trail-gm.png scenes/ambush-trail.ron --moves 3
rested="$(mktemp -d)/infirmary-rested.ron"
"$bin" rest scenes/infirmary.ron --days 3 --final "$rested" 2>/dev/null
shot roster-gm.png "$rested" --roster
shot market-town-gm.png scenes/market-town.ron --moves 6 --temptations
shot prisoner-escort-gm.png scenes/prisoner-escort.ron --moves 6 --prisoners
shot schloss-gallery-gm.png scenes/schloss-gallery.ron --moves 1 --magic
shot schloss-gallery-projector.png scenes/schloss-gallery.ron --moves 1 --view projector
shot fog-projector.png scenes/goblin-warren.ron --moves 1 --view projector --fog
shot manhunt-gm.png scenes/manhunt.ron --moves 12 --trails
shot wall-raid-gm.png scenes/wall-raid.ron --moves 1 --obstacles
shot goblin-warren-gm.png scenes/goblin-warren.ron --moves 49 --osr
"$bin" playtest scenes/farmstead.ron --runs 200 --moves 25 --heatmap docs/images/playtest-heatmap.png >/dev/null
echo docs/images/playtest-heatmap.png
xvfb-run -a -s "-screen 0 1600x1000x24" "$bin" record scenes/farmstead.ron --moves 20 -o docs/images/farmstead.gif 2>/dev/null
if [ -e ../shared/uvtt/cave-20x20.dd2vtt ]; then
    shot cave-map-gm.png ../shared/uvtt/cave-20x20.dd2vtt
fi
