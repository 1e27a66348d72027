#!/usr/bin/env bash
# FullBand's one entry point for a fresh Debian 12 machine (run as root, or with sudo available).
#   packaging/fullband.sh run       install missing packages, build, start the app
#   packaging/fullband.sh test      install missing packages, build, run every test through CTest
#   packaging/fullband.sh build     install missing packages and build only
#   packaging/fullband.sh package   portable Release build, .deb and .tar.gz (CPack), installed-package check
#   packaging/fullband.sh sanitize  build-asan: every test under AddressSanitizer + UndefinedBehaviorSanitizer
#   packaging/fullband.sh tsan      build-tsan: the Qt-free core and its tests that start threads under ThreadSanitizer
#   packaging/fullband.sh fuzz      build-asan's fuzz targets: the scene/deck loader and the model file reader under libFuzzer, bounded time
#   packaging/fullband.sh stress    the tests that wait for other threads, with both cores kept busy
#                                   by two busy loops this script starts and stops (once; N times
#                                   in a row with FULLBAND_STRESS_ROUNDS=N)
#   packaging/fullband.sh screenshots [OUT_DIR]  build, then a screenshot of every lab under Xvfb
#                                   (SCREEN=1024x768 for a projector's size; default 1600x1000)
#   packaging/fullband.sh deps DIR...    check that everything those build directories and CI's scripts use
#                                   comes from packages these lists install (packaging/check-deps.sh)
#   packaging/fullband.sh baselines  the tiny transformer against its PyTorch reference, one thread
#                                   each, in the same run: ms/step of both and their ratio, then
#                                   FullBand's GFLOP/s, two threads, memory and the k-pass cost;
#                                   then the text size against torch_char_transformer.py on the
#                                   same text, and FullBand against this core's FMA peak
#   packaging/fullband.sh packages MODE  print the packages MODE installs, one a line
# Environment: BUILD_DIR (default: build, for run/test/build), FULLBAND_JOBS (default: number of
# cores), FUZZ_SECONDS (default 60), FULLBAND_BASELINES (default: ../shared/baselines beside the
# checkout, where torch_tiny_transformer.py and torch_char_transformer.py live), BASELINE_STEPS
# (default 300), BASELINE_ROUNDS (the text size's rounds, default 3; medians), BASELINE_TEXT (the
# text of the text-size comparison, default README.md),
# FULLBAND_PORTABLE=1 (run/test/build/stress/package: the portable binary the package ships, no
# -march; package then packs the tested build itself instead of building build-pkg; CI sets it),
# FULLBAND_AVX2_ONLY=1 (x86-64-v3 even where the CPU has AVX-512; the sanitizer builds set it).
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build_dir=${BUILD_DIR:-$here/build}
jobs=${FULLBAND_JOBS:-$(nproc)}
mode=${1:-run}
shift || true
list_only=0
[ "$mode" = packages ] && { list_only=1; mode=${1:-run}; }

# Build and test dependencies, all from Debian 12. fonts-dejavu-extra has the italic faces the views
# use (without it fontconfig slants the regular face, and the views render differently);
# fonts-noto-mono has the glyphs Qt's fallback finds missing from DejaVu Sans Mono (subscripts).
# locales has the sources of de_DE.UTF-8, which the locale test compiles with localedef into a folder of its own.
# libblas3 and liblapack3: FFmpeg's libavfilter pulls in pocketsphinx, which needs some BLAS and LAPACK;
# on a machine without OpenBLAS apt picks these two, and every test that links the app maps them.
# FFmpeg's libraries write animations (H.264 through libavcodec59's libx264, GIF with the
# palettegen/paletteuse filters); no test needs the ffmpeg program (apt-get install ffmpeg to play
# or probe what fullband animate wrote).
# Every build compiles with clang 14 and links with lld (clang finds it as ld.lld, which the package
# lld provides): on FullBand's Eigen and Qt code clang takes about 55% of the compile time GCC 12
# does (the whole tree: 1,190 s against 2,090 s of compiling on one machine), most of CI's time. With
# clang, CMake archives with llvm-ar-14 and llvm-ranlib-14 (llvm-14), so every machine builds alike.
packages=(build-essential cmake ninja-build pkg-config clang-14 lld-14 lld llvm-14
          qt6-base-dev qt6-charts-dev qt6-svg-dev libqt6svg6 libqt6opengl6-dev libgl-dev
          libeigen3-dev libtbb-dev
          libavcodec-dev libavformat-dev libavfilter-dev libswscale-dev libavutil-dev libblas3 liblapack3
          xvfb xauth fonts-dejavu-core fonts-dejavu-extra fonts-noto-mono locales)
case "$mode" in
  # dpkg-shlibdeps computes the .deb's library dependencies; the validators check the desktop files.
  package) packages+=(dpkg-dev file desktop-file-utils appstream) ;;
  # libFuzzer and the sanitizers' runtimes come with Debian's clang.
  fuzz|sanitize|tsan|tsan-build) packages+=(libclang-rt-14-dev) ;;
  # check-deps.sh watches the quick tests and cpack with strace.
  deps) packages+=(strace) ;;
  # Debian's PyTorch for the reference, and OpenBLAS: without it torch uses the reference BLAS
  # (about 8 times slower) and the comparison means nothing.
  baselines) packages+=(python3-torch libopenblas0-pthread) ;;
  # packaging/screenshots.sh grabs the Xvfb screen with ImageMagick's import.
  screenshots) packages+=(imagemagick) ;;
esac
[ $list_only = 1 ] && { printf '%s\n' "${packages[@]}"; exit 0; }

install_missing() {
  local missing=()
  for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  echo "fullband: installing missing packages: ${missing[*]}"
  local sudo=""
  [ "$(id -u)" -ne 0 ] && sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
}

configure() {
  # The widest vectors the CPU has: x86-64-v4 (AVX-512) where it has the level's five AVX-512 sets
  # (Eigen's 16-float kernels: about 2.2 times the AVX2 build's text-size training on a core with
  # whole 512-bit units), x86-64-v3 (AVX2/FMA) where it has AVX2, else a portable build; portable
  # also when asked (FULLBAND_PORTABLE=1). The sanitizer builds stay at x86-64-v3 (FULLBAND_AVX2_ONLY=1),
  # as before: the AVX-512 build is checked by running the tests on it, not under the sanitizers. Always
  # given, so that a build directory follows it.
  local march_args=(-DFULLBAND_MARCH=x86-64-v3)
  local flags
  flags=$(grep -m1 '^flags' /proc/cpuinfo 2>/dev/null || true)
  local v4=1
  for f in avx512f avx512bw avx512cd avx512dq avx512vl; do
    [[ " $flags " == *" $f "* ]] || v4=0
  done
  [ $v4 = 1 ] && [ "${FULLBAND_AVX2_ONLY:-0}" != 1 ] && march_args=(-DFULLBAND_MARCH=x86-64-v4)
  if [ "${FULLBAND_PORTABLE:-0}" = 1 ] || [[ " $flags " != *" avx2 "* ]]; then
    march_args=(-DFULLBAND_MARCH=)
  fi
  cmake -S "$here" -B "$build_dir" -G Ninja -DCMAKE_CXX_COMPILER=clang++-14 -DCMAKE_BUILD_TYPE=Release "${march_args[@]}" "$@"
}

configure_and_build() {
  configure "$@"
  cmake --build "$build_dir" -j "$jobs"
}

# ctest over a build directory, every test headless.
run_ctest() {
  local dir=$1
  shift
  QT_QPA_PLATFORM=offscreen ctest --test-dir "$dir" --output-on-failure -j "$jobs" "$@"
}

# build-asan: AddressSanitizer + UndefinedBehaviorSanitizer, and the fuzz targets beside the tests
# (tests/fuzz links this build's objects, so the fuzz step compiles only its own few files).
asan_configure() {
  build_dir=$here/build-asan
  # -g1 (line tables only): the reports keep their file:line, the builds and links take less time;
  # views/ and app/ at -O0 (FULLBAND_FRONT_OPT in CMakeLists.txt), the core they drive at -O2
  FULLBAND_PORTABLE=0 FULLBAND_AVX2_ONLY=1 configure -DCMAKE_BUILD_TYPE=RelWithDebInfo "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O2 -g1 -DNDEBUG" \
            -DFULLBAND_FRONT_OPT=-O0 -DFULLBAND_SANITIZE=address,undefined -DFULLBAND_FUZZ=ON "$@"
}

sanitize() {
  asan_configure "$@"
  cmake --build "$build_dir" -j "$jobs"
  # Any ASan or UBSan report fails its test; leaks are checked at exit, with the known leaks of
  # third-party libraries (fontconfig ...) suppressed in packaging/lsan.supp.
  export ASAN_OPTIONS=detect_leaks=1:detect_stack_use_after_return=1:check_initialization_order=1:strict_init_order=1:halt_on_error=1
  export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
  export LSAN_OPTIONS=suppressions=$here/packaging/lsan.supp:print_suppressions=0
  run_ctest "$build_dir"
}

tsan_build() {
  build_dir=$here/build-tsan
  # -O1: the threaded tests take seconds either way, and the build (beside the stress step's tests,
  # as long as they are) compiles faster
  FULLBAND_AVX2_ONLY=1 configure_and_build -DCMAKE_BUILD_TYPE=RelWithDebInfo \
        "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O1 -g1 -DNDEBUG" -DFULLBAND_SANITIZE=thread -DFULLBAND_CORE_ONLY=ON "$@"
}

tsan() {
  tsan_build "$@"
  export TSAN_OPTIONS="suppressions=$here/packaging/tsan.supp:halt_on_error=1:second_deadlock_stack=1"
  # Newer kernels randomise mmap more than GCC 12's ThreadSanitizer accepts; run without ASLR then.
  local norandom=()
  if [ "$(cat /proc/sys/vm/mmap_rnd_bits 2>/dev/null || echo 28)" -gt 28 ] && setarch -R true 2>/dev/null; then
    norandom=(setarch -R)
  fi
  QT_QPA_PLATFORM=offscreen "${norandom[@]}" ctest --test-dir "$build_dir" --output-on-failure -j "$jobs"
}

fuzz() {
  # The budget is in core-seconds, shared: two thirds for the scene and deck loader, one third for
  # the model file reader. libFuzzer's fork mode runs one fuzzing process per core on a shared
  # corpus, so the wall time is the budget divided by the cores. The targets live in build-asan
  # (the sanitize step builds them with everything else; alone, this builds what they link).
  local seconds=${FUZZ_SECONDS:-60}
  local modelSeconds=$((seconds / 3))
  seconds=$((seconds - modelSeconds))
  seconds=$(( (seconds + jobs - 1) / jobs )) modelSeconds=$(( (modelSeconds + jobs - 1) / jobs ))
  asan_configure
  cmake --build "$build_dir" -j "$jobs" --target fuzz_scene fuzz_model fuzz_dict
  local dir=$build_dir/tests/fuzz
  # The working corpus grows in the build tree; the committed seeds stay as they are.
  mkdir -p "$dir/corpus" "$dir/artifacts"
  cp -n "$here"/tests/fuzz/corpus/* "$here"/resources/decks/*.fullband "$dir/corpus/"
  # The dictionary: the structural words, then every lab's name, keys and choices from core's list.
  { cat "$here/tests/fuzz/scene.dict"; "$dir/fuzz_dict"; } > "$dir/scene.dict"
  echo "fullband: fuzzing the scene and deck loader for ${seconds} s on $jobs cores"
  ASAN_OPTIONS=detect_leaks=1:halt_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
    "$dir/fuzz_scene" -fork="$jobs" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=4096 \
      -dict="$dir/scene.dict" -artifact_prefix="$dir/artifacts/" -print_final_stats=1 \
      "$dir/corpus"
  mkdir -p "$dir/model-corpus"
  cp -n "$here"/tests/fuzz/model-corpus/* "$dir/model-corpus/"
  echo "fullband: fuzzing the model file reader for ${modelSeconds} s on $jobs cores"
  ASAN_OPTIONS=detect_leaks=1:halt_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
    "$dir/fuzz_model" -fork="$jobs" -max_total_time="$modelSeconds" -timeout=10 -rss_limit_mb=2048 -max_len=65536 \
      -artifact_prefix="$dir/artifacts/model-" -print_final_stats=1 "$dir/model-corpus"
}

# Tests labelled "timing" (tests/CMakeLists.txt) must not depend on how fast the machine is: run them
# while two busy loops (one per core, started and stopped here) compete with them, as on a shared CI
# machine. Once in CI (a second round took three minutes of its budget; the sanitizer step runs them
# again, 2 to 5 times slower, both cores busy), FULLBAND_STRESS_ROUNDS=N times in a row on demand.
busy_pids=() busy_file=""
stop_busy() {
  # the busy loops started after a command beside the tests wrote their pids to busy_file
  [ -n "$busy_file" ] && [ -f "$busy_file" ] && busy_pids+=($(cat "$busy_file"))
  [ ${#busy_pids[@]} -eq 0 ] && return 0
  kill "${busy_pids[@]}" 2>/dev/null || true
  wait "${busy_pids[@]}" 2>/dev/null || true
  busy_pids=()
}
spin() { exec bash -c 'while :; do :; done' </dev/null >/dev/null 2>&1; }  # run as spin &: its pid is the loop's

stress() {
  configure_and_build
  # Stopped on every way out of the script (a failed test included), never left running.
  trap stop_busy EXIT INT TERM
  # FULLBAND_STRESS_BESIDE: a command (CI: the ThreadSanitizer build) that keeps the cores busy with
  # work of its own first; two busy loops take over when it ends, until the tests are done.
  local beside=${FULLBAND_STRESS_BESIDE:-} beside_rc=$build_dir/stress-beside.rc beside_log=$build_dir/stress-beside.log
  busy_file=$build_dir/stress-busy.pids
  rm -f "$beside_rc" "$busy_file"
  if [ -n "$beside" ]; then
    echo "fullband: beside the tests: $beside (output in $beside_log)"
    ( rc=0
      bash -c "$beside" >"$beside_log" 2>&1 </dev/null || rc=$?
      spin &
      echo $! >>"$busy_file"
      spin &
      echo $! >>"$busy_file"
      echo $rc >"$beside_rc"
      wait ) &
    busy_pids+=($!)
  else
    local n
    for n in 1 2; do
      spin &
      busy_pids+=($!)
    done
  fi
  local rounds=${FULLBAND_STRESS_ROUNDS:-1}
  case "$rounds" in
    [1-9]|[1-9][0-9]) ;;
    *) echo "fullband: FULLBAND_STRESS_ROUNDS must be a whole number from 1 to 99, got '$rounds'" >&2; return 2 ;;
  esac
  if [ -n "$beside" ]; then
    echo "fullband: the command beside the tests keeps the cores busy, two busy loops once it ends; running the timing tests $rounds time(s)"
  else
    echo "fullband: both cores busy (busy loops, pids ${busy_pids[*]}); running the timing tests $rounds time(s)"
  fi
  local rc=0
  # The shutdown test closes the window 20 times per run here (50 in the test step).
  FULLBAND_STRESS_CYCLES=20 run_ctest "$build_dir" -L timing --repeat "until-fail:$rounds" "$@" || rc=$?
  if [ -n "$beside" ]; then
    while [ ! -s "$beside_rc" ]; do sleep 1; done
    if [ "$(cat "$beside_rc")" != 0 ]; then
      tail -n 40 "$beside_log"
      echo "fullband: '$beside' beside the stress tests failed (exit $(cat "$beside_rc"))" >&2
      rc=1
    else
      echo "fullband: '$beside' beside the stress tests done"
    fi
  fi
  stop_busy
  return $rc
}

package() {
  # A portable binary (no -march) for any x86-64 machine; the tests are not part of the package.
  if [ "${FULLBAND_PORTABLE:-0}" = 1 ]; then
    # The build the tests ran on is already portable: the package ships the binary they tested.
    configure_and_build "$@"
  else
    build_dir=$here/build-pkg
    FULLBAND_PORTABLE=1 configure_and_build -DFULLBAND_BUILD_TESTS=OFF "$@"
  fi
  (cd "$build_dir" && cpack -G "DEB;TGZ")
  bash "$here/packaging/check-package.sh" "$(ls -t "$build_dir"/fullband_*.deb | head -n1)"
}

# The PyTorch reference and FullBand's benchmark at the same defaults, one thread each, one after
# the other in this run (the machine's load is printed by the benchmark).
baselines() {
  local dir=${FULLBAND_BASELINES:-$here/../shared/baselines} steps=${BASELINE_STEPS:-300}
  local rounds=${BASELINE_ROUNDS:-3}
  if ! [[ $rounds =~ ^[1-9][0-9]?$ ]]; then
    echo "fullband: BASELINE_ROUNDS=$rounds is not a whole number from 1 to 99" >&2
    exit 2
  fi
  local script=$dir/torch_tiny_transformer.py
  [ -f "$script" ] || { echo "fullband: $script not found (set FULLBAND_BASELINES)" >&2; exit 2; }
  configure
  cmake --build "$build_dir" --target bench_transformer -j "$jobs"
  # torch with OpenBLAS's own choice of kernels: an OPENBLAS_CORETYPE of an older core (Haswell on an
  # AVX-512 machine) slows torch and flatters the ratio, so it is not passed on.
  if [ -n "${OPENBLAS_CORETYPE:-}" ]; then
    echo "fullband: OPENBLAS_CORETYPE=$OPENBLAS_CORETYPE is set; torch runs without it, with the kernels OpenBLAS picks for this core"
  fi
  local torch_json ours_json
  torch_json=$(env -u OPENBLAS_CORETYPE OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 /usr/bin/python3 "$script" steps="$steps" eval_every=0 | tail -n1)
  echo "torch (1 thread): $torch_json"
  ours_json=$("$build_dir/tests/bench_transformer" --steps "$steps" --speed --kpass | tee -a /dev/stderr | grep '^{"ms_per_step"')
  /usr/bin/python3 - "$torch_json" "$ours_json" <<'PY'
import json, sys
torch, ours = json.loads(sys.argv[1]), json.loads(sys.argv[2])
print(f"torch {torch['ms_per_step']:.3f} ms/step, FullBand {ours['ms_per_step']:.3f} ms/step (1 thread each): "
      f"FullBand is {torch['ms_per_step'] / ours['ms_per_step']:.2f}x faster; with 2 threads "
      f"{ours['ms_per_step_2_threads']:.3f} ms/step")
PY
  # The text task at nanoGPT's CPU size on the same text: torch_char_transformer.py with one thread
  # against FullBand with one and two threads, and FullBand's figures as a fraction of this core's
  # FMA peak (bench_transformer --peak).
  local char_script=$dir/torch_char_transformer.py text=${BASELINE_TEXT:-$here/README.md}
  [ -f "$char_script" ] || { echo "fullband: $char_script not found (set FULLBAND_BASELINES)" >&2; exit 2; }
  [ -f "$text" ] || { echo "fullband: $text not found (set BASELINE_TEXT)" >&2; exit 2; }
  # BASELINE_ROUNDS rounds (default 3), each running torch with one thread, with two, and FullBand in
  # turn, and the medians compared: this machine's speed drifts by 5-15% between minutes, and a
  # single pair of runs can land on either side of a drift.
  local round torch_text torch_text2 ours_text
  local -a torch_runs=() torch2_runs=() ours_runs=()
  for ((round = 1; round <= rounds; round++)); do
    torch_text=$(env -u OPENBLAS_CORETYPE OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 /usr/bin/python3 "$char_script" text="$text" \
                   steps="$steps" threads=1 eval_every=0 sample=0 | tail -n1)
    echo "round $round, torch text size (1 thread): $torch_text"
    # torch with two threads too: FullBand's two threads are compared with torch's faster setting
    torch_text2=$(env -u OPENBLAS_CORETYPE OMP_NUM_THREADS=2 OPENBLAS_NUM_THREADS=2 /usr/bin/python3 "$char_script" text="$text" \
                    steps="$steps" threads=2 eval_every=0 sample=0 | tail -n1)
    echo "round $round, torch text size (2 threads): $torch_text2"
    ours_text=$("$build_dir/tests/bench_transformer" --steps "$steps" --peak --text "$text" | tee -a /dev/stderr |
                grep '^{"peak_gflops"')
    torch_runs+=("$torch_text")
    torch2_runs+=("$torch_text2")
    ours_runs+=("$ours_text")
  done
  /usr/bin/python3 - "$rounds" "${torch_runs[@]}" "${torch2_runs[@]}" "${ours_runs[@]}" <<'PY'
import json, statistics, sys
n = int(sys.argv[1])
runs = [json.loads(a) for a in sys.argv[2:]]
torch, torch2, ours = runs[:n], runs[n:2 * n], runs[2 * n:]
for r in range(n):
    t, t2 = torch[r]["ms_per_step"], torch2[r]["ms_per_step"]
    one, two = ours[r]["text_ms_per_step"], ours[r]["text_ms_per_step_2_threads"]
    print(f"round {r + 1}: torch {t:.2f} / {t2:.2f} ms (1 / 2 threads), FullBand {one:.2f} / {two:.2f} ms: "
          f"{t / one:.2f}x torch's 1 thread, {min(t, t2) / two:.2f}x torch's fastest with 2 threads")
med = statistics.median
t, t2 = med(x["ms_per_step"] for x in torch), med(x["ms_per_step"] for x in torch2)
one, two = med(x["text_ms_per_step"] for x in ours), med(x["text_ms_per_step_2_threads"] for x in ours)
best, setting = (t, "1 thread") if t <= t2 else (t2, "2 threads")
peak = med(x["peak_gflops"] for x in ours)
flops = ours[0].get("text_gflop_per_step", 0.0)
print(f"text size (4L, 4H, d 128, T 64, batch 12), medians of {n} rounds: torch {t:.3f} ms/step (1 thread), "
      f"{t2:.3f} ms/step (2 threads); FullBand {one:.3f} ms/step (1 thread, {t / one:.2f}x torch's 1 thread) and "
      f"{two:.3f} ms/step (2 threads, {best / two:.2f}x torch's fastest, {setting}; {one / two:.2f}x FullBand's 1 thread)")
if flops > 0:
    ind1 = med(x["induction_ms_per_step"] for x in ours)
    ind2 = med(x["induction_ms_per_step_2_threads"] for x in ours)
    iflops = ours[0].get("induction_gflop_per_step", 0.0)
    print(f"FMA peak of one core {peak:.1f} GFLOP/s (median): FullBand at the text size {flops / one * 1e3 / peak:.0%} "
          f"of it with 1 thread, {flops / two * 1e3 / peak:.0%} of one core's with 2; at the induction defaults "
          f"{iflops / ind1 * 1e3 / peak:.0%} ({ind1:.2f} ms) and {iflops / ind2 * 1e3 / peak:.0%} ({ind2:.2f} ms)")
    # the matrix products alone at each size's shapes, one thread: the ceiling a step made of them sets
    prod = med(x.get("products_gflops", 0.0) for x in ours)
    iprod = med(x.get("induction_products_gflops", 0.0) for x in ours)
    print(f"matrix products alone (1 thread): {prod / peak:.0%} of the peak at the text size, "
          f"{iprod / peak:.0%} at the induction defaults")
PY
}

install_missing
case "$mode" in
  build) configure_and_build "$@" ;;
  run)
    configure_and_build
    if [ -z "${DISPLAY:-}" ] && [ -z "${WAYLAND_DISPLAY:-}" ]; then
      echo "fullband: no display found; starting under xvfb-run (set DISPLAY to see the window)"
      exec xvfb-run -a -s '-screen 0 1600x1000x24' "$build_dir/app/fullband" "$@"
    fi
    exec "$build_dir/app/fullband" "$@" ;;
  test)
    configure_and_build
    export QT_QPA_PLATFORM=offscreen
    ctest --test-dir "$build_dir" --output-on-failure -j "$jobs" "$@" ;;
  sanitize) sanitize "$@" ;;
  tsan) tsan "$@" ;;
  tsan-build) tsan_build "$@" ;;
  fuzz) fuzz ;;
  stress) stress "$@" ;;
  package) package "$@" ;;
  deps) bash "$here/packaging/check-deps.sh" "$@" ;;
  baselines) baselines ;;
  screenshots)
    configure_and_build
    BUILD_DIR=$build_dir bash "$here/packaging/screenshots.sh" "$@" ;;
  *) echo "usage: $0 run|test|build|package|sanitize|tsan|tsan-build|fuzz|stress|screenshots|deps|baselines|packages" >&2; exit 2 ;;
esac
