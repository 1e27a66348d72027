#!/usr/bin/env bash
# Checks that everything FullBand's build, tests and CI steps use from outside the tree comes from a
# Debian package that packaging/fullband.sh installs (or that one of those depends on), or that every
# Debian 12 system has (Essential and Priority: required packages, build-essential). A package that
# was installed by hand on the CI machine fails here, instead of a newcomer's first build.
#   packaging/check-deps.sh [-v] [--self-test] [--drop PKG]... BUILD_DIR...
#     -v           also lists what is ignored: machine state no package owns (/etc, /var caches),
#                  optional run-time loads, CMake finds the build does not use, commands not here
#     --self-test  also proves that the check bites: with libqt6opengl6-dev dropped from the lists
#                  (Qt Charts needs Qt6OpenGL's CMake files and nothing else installs them) the check
#                  has to fail and name it
#     --drop PKG   checks as if PKG were not in the lists (shows what needs it); repeatable
# Steps:
#  1. The allowed packages: `fullband.sh packages MODE` for every mode .ci/run runs and every mode
#     with a list of its own, with the base
#     set, resolved as apt does on an empty machine (a simulated install with an empty dpkg status).
#  2. The files each BUILD_DIR used: what CMake read (build.ninja's re-run inputs) and found
#     (CMakeCache.txt), headers (ninja -t deps), libraries and programs on the command lines (ninja -t
#     commands), what the compiler driver adds (each compile and link command again with -###:
#     cc1plus, crt files, libstdc++, sanitizer and libFuzzer runtimes), moc and uic (AutogenInfo.json).
#     At run time, under strace: the quick tests (programs run, shared objects mapped, data files read
#     such as fonts), and cpack where the directory holds a .deb (dpkg-shlibdeps, strip ...).
#  3. The programs that .ci/run and the scripts it runs call.
#  4. Who owns each file: one dpkg -S for all of them, as used and resolved (/lib and /usr/lib alike).
#  5. One line for each package that is used but not allowed, naming one file that needed it, and
#     one for each file no package owns (outside /etc and /var); or one OK line with the counts.
# CHECK_DEPS_KEEP=1 keeps the scratch directory (file lists, traces, owners) and prints its name.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
selftest_pkg=libqt6opengl6-dev
verbose=0 selftest=0 drop=() dirs=()
while [ $# -gt 0 ]; do
  case "$1" in
    -v) verbose=1 ;;
    --self-test) selftest=1 ;;
    --drop) drop+=("${2:?--drop needs a package}"); shift ;;
    -*) echo "usage: check-deps.sh [-v] [--self-test] [--drop PKG]... BUILD_DIR..." >&2; exit 2 ;;
    *) dirs+=("$(cd "$1" && pwd)") ;;
  esac
  shift
done
[ ${#dirs[@]} -gt 0 ] || { echo "usage: check-deps.sh [-v] [--self-test] [--drop PKG]... BUILD_DIR..." >&2; exit 2; }
command -v strace >/dev/null || { echo "check-deps: strace is missing (packaging/fullband.sh deps installs it)" >&2; exit 1; }
for d in "${dirs[@]}"; do
  [ -f "$d/CMakeCache.txt" ] && [ -f "$d/build.ninja" ] || { echo "check-deps: $d is not a configured Ninja build" >&2; exit 1; }
done

tmp=$(mktemp -d)
trap '[ -n "${CHECK_DEPS_KEEP:-}" ] && echo "check-deps: kept $tmp" || rm -rf "$tmp"' EXIT
started=$SECONDS

# 1. The allowed packages, resolved in the background while the files are collected.
if ! ls /var/lib/apt/lists/*_Packages* >/dev/null 2>&1; then
  [ "$(id -u)" -eq 0 ] || { echo "check-deps: apt has no package lists; run apt-get update" >&2; exit 1; }
  apt-get update -qq
fi
# Every mode .ci/run runs, and every mode with a list of its own in fullband.sh (step 3 checks the
# programs all of fullband.sh calls, the baselines' and screenshots' modes too).
ci_modes=$( { bash --pretty-print "$here/.ci/run" | grep -oE 'fullband\.sh +[a-z][a-z-]*' | awk '{print $2}'
              grep -oE '^  [a-z]+\) packages\+=' "$here/packaging/fullband.sh" | tr -d ' )' | sed 's/packages+=//'; } | sort -u)
for m in $ci_modes; do bash "$here/packaging/fullband.sh" packages "$m"; done | sort -u > "$tmp/listed"
for p in "${drop[@]}"; do
  grep -qx -- "$p" "$tmp/listed" || echo "check-deps: --drop $p: not in packaging/fullband.sh's lists" >&2
  grep -vx -- "$p" "$tmp/listed" > "$tmp/listed.new" || true
  mv "$tmp/listed.new" "$tmp/listed"
done
# What apt installs on a machine with nothing installed, for the base set and PKG...
closure() {
  local out=$1
  shift
  apt-get -s -o Dir::State::status=/dev/null -o Debug::NoLocking=1 install --no-install-recommends \
    '?essential' '?priority(required)' build-essential "$@" > "$out.log" 2>&1 \
    || { echo "check-deps: apt cannot resolve the lists:" >&2; grep -E '^(E|W):' "$out.log" >&2; return 1; }
  awk '/^Inst /{print $2}' "$out.log" | sort -u > "$out"
}
# shellcheck disable=SC2046
closure "$tmp/allowed" $(cat "$tmp/listed") & closure_pid=$!
if [ $selftest = 1 ]; then
  grep -qx -- "$selftest_pkg" "$tmp/listed" \
    || { echo "check-deps: self-test FAILED: $selftest_pkg is not in packaging/fullband.sh's lists"; exit 1; }
  # shellcheck disable=SC2046
  closure "$tmp/allowed-selftest" $(grep -vx -- "$selftest_pkg" "$tmp/listed") & selftest_pid=$!
fi

# 2. The files each build directory used. Lines of $tmp/used: KIND<TAB>PATH<TAB>WHERE.
used() { awk -v kind="$1" -v where="$2" 'NF { print kind "\t" $0 "\t" where }' >> "$tmp/used"; }
: > "$tmp/used"
: > "$tmp/absent"  # commands the scripts call that this machine does not have
files_only() { while read -r f; do if [ -f "$f" ]; then echo "$f"; fi; done; }
abs_files() { { grep -oE '(^|[ =,:])/[^] ,;:"'\''<>()]+' || true; } | sed 's/^[ =,:]//' | sort -u | files_only; }
trace() {  # OUT CMD...: runs CMD under strace, recording programs run, objects mapped, files opened
  local out=$1
  shift
  strace -f -qq --seccomp-bpf -y -e trace=execve,open,openat,mmap -e status=successful -o "$out.raw" "$@" \
    > "$out.log" 2>&1 || true
  # Programs run, objects mapped executable, and data files opened. Shared objects count only where
  # mapped: Qt opens every plugin in a directory to read its metadata, and loads one.
  awk '/execve\("/ && match($0, /execve\("[^"]*"/) { print substr($0, RSTART + 8, RLENGTH - 9) }
       /mmap\(/ && /PROT_EXEC/ && match($0, /[0-9]+<\/[^>]*>/) { f = substr($0, RSTART, RLENGTH); sub(/^[0-9]+</, "", f); sub(/>$/, "", f); print f }
       /open(at)?\(/ && match($0, /= [0-9]+<\/[^>]*>$/) { f = substr($0, RSTART, RLENGTH); sub(/^= [0-9]+</, "", f); sub(/>$/, "", f)
                                                          if (f !~ /\.so(\.[0-9]+)*$/) print f }' "$out.raw" \
    | sort -u | files_only > "$out"
}
for b in "${dirs[@]}"; do
  name=${b#"$here"/}
  # What CMake read: build.ninja is re-generated when any of these changes.
  awk '/^build build\.ninja:/ { for (i = 1; i <= NF; i++) if ($i ~ /^\//) print $i; exit }' "$b/build.ninja" \
    | used "CMake read" "$name"
  # What CMake found. The compiler, ninja and cmake's own programs are used; every other path (a
  # library, a linker, addr2line ...) counts only where a command line, a header or a run uses it.
  sed -n 's/^\([A-Za-z0-9_]*\):[A-Z]*=\(\/.*\)/\1 \2/p' "$b/CMakeCache.txt" \
    | { grep -vE '^(CMAKE_INSTALL_|_GNUInstallDirs|CMAKE_HOME_DIRECTORY|CMAKE_CACHEFILE_DIR|[A-Za-z0-9_]*_(BINARY|SOURCE)_DIR )' || true; } \
    | while read -r key value; do
        IFS=';' read -ra paths <<< "$value"
        for f in "${paths[@]}"; do
          if [[ $key =~ ^CMAKE_([A-Z]+_COMPILER|MAKE_PROGRAM|COMMAND|CTEST_COMMAND|CPACK_COMMAND)$ ]]; then
            printf 'CMake tool %s\t%s\t%s\n' "$key" "$f" "$name"
          elif [ -e "$f" ]; then printf 'CMake found %s\t%s\t%s\n' "$key" "$f" "$name"; fi
        done
      done >> "$tmp/used"
  ninja -C "$b" -t deps | sed -n 's/^    \(\/.*\)/\1/p' | sort -u | used "compiled against" "$name"
  ninja -C "$b" -t commands > "$tmp/commands"
  abs_files < "$tmp/commands" | used "command line uses" "$name"
  { echo /bin/sh  # ninja runs every command through it
    awk -f "$here/packaging/shell-commands.awk" "$tmp/commands" | sort -u | while read -r c; do
      case "$c" in /*) echo "$c" ;; *) type -P -- "$c" || true ;; esac
    done
    find "$b" -name AutogenInfo.json -exec sed -n 's/.*"[A-Z_]*_EXECUTABLE" : "\(\/[^"]*\)".*/\1/p' {} + | sort -u
  } | used "build runs" "$name"
  # The compiler driver's own files: each distinct compile command and each link command, with -###.
  compilers=$(sed -n 's/^CMAKE_\(C\|CXX\)_COMPILER:[A-Z]*=//p' "$b/CMakeCache.txt" | tr '\n' ' ')
  awk -v compilers=" $compilers" '{
      n = split($0, seg, / && /)
      for (i = 1; i <= n; i++) {
        split(seg[i], w, " ")
        if (index(compilers, " " w[1] " ") == 0) continue
        key = seg[i]
        if (key ~ / -c /) gsub(/ -(o|c|MF|MT) [^ ]+/, "", key)   # one compile per distinct set of flags
        if (!(key in seen)) { seen[key] = 1; print seg[i] }
      }
    }' "$tmp/commands" > "$tmp/driver"
  while read -r cmd; do
    (cd "$b" && eval "$cmd -###" 2>&1 >/dev/null) || true
  done < "$tmp/driver" > "$tmp/driver.out"
  # Its programs (cc1plus, as, collect2, ld) and the files named in its commands (crt*.o, runtimes).
  awk '/^ / { gsub(/"/, "")
        print ($1 ~ /^\// ? "FILE " : "PROG ") $1
        for (i = 2; i <= NF; i++) {
          m = split($i, part, /[=,]/)
          for (j = 1; j <= m; j++) if (part[j] ~ /^\//) print "FILE " part[j]
        }
      }' "$tmp/driver.out" | sort -u > "$tmp/driver.files"
  { sed -n 's/^FILE //p' "$tmp/driver.files" | files_only
    sed -n 's/^PROG //p' "$tmp/driver.files" | while read -r p; do type -P -- "$p" || true; done
  } | used "compiler driver uses" "$name"
  # -l libraries resolved in the -L directories in the order the driver gave them.
  awk '/^ / { gsub(/"/, ""); nd = 0; delete dirs
        for (i = 2; i <= NF; i++) {
          if ($i ~ /^-L/) { d = substr($i, 3); if (d == "") d = $(i + 1); dirs[++nd] = d }
        }
        for (i = 2; i <= NF; i++) if ($i ~ /^-l/) {
          l = substr($i, 3); s = ""
          for (j = 1; j <= nd; j++) s = s " " dirs[j]
          print l s
        }
      }' "$tmp/driver.out" | sort -u | while read -r l ds; do
        for d in $ds; do
          if [ "${l:0:1}" = ":" ] && [ -f "$d/${l:1}" ]; then realpath -s "$d/${l:1}"; break; fi
          if [ -f "$d/lib$l.so" ]; then realpath -s "$d/lib$l.so"; break; fi
          if [ -f "$d/lib$l.a" ]; then realpath -s "$d/lib$l.a"; break; fi
        done
      done | sort -u | used "links" "$name"

  # Run time: the quickest tests under strace, as many as fit in $CHECK_DEPS_TEST_SECONDS (30) of
  # their last run's time (here all but the two stress tests).
  if [[ "$(ctest --test-dir "$b" -N 2>/dev/null || true)" == *"Test #"* ]]; then
    costs=$b/Testing/Temporary/CTestCostData.txt
    if [ -f "$costs" ]; then
      # (A failed test has no time: "NAME 0 0".)
      quick=$(awk '/^---/ { exit } NF == 3 && $2 > 0 { print $3, $1 }' "$costs" | sort -g \
        | awk -v budget="${CHECK_DEPS_TEST_SECONDS:-30}" '(sum += $1) <= budget { printf "%s%s", sep, $2; sep = "|" }')
    else  # never run: the first test of each area
      quick=$(ctest --test-dir "$b" -N | sed -n 's/^ *Test *#[0-9]*: *//p' | awk -F/ '!seen[$1]++' | paste -sd'|')
    fi
    if [ -n "$quick" ]; then
      # LeakSanitizer does not run under ptrace; ThreadSanitizer wants no ASLR on newer kernels.
      norandom=()
      if setarch -R true 2>/dev/null; then norandom=(setarch -R); fi
      QT_QPA_PLATFORM=offscreen ASAN_OPTIONS=detect_leaks=0 \
        trace "$tmp/run" timeout 300 "${norandom[@]}" ctest --test-dir "$b" -R "^($quick)\$" -j "$(nproc)" --timeout 120
      used "tests use" "$name" < "$tmp/run"
    fi
  fi
  # The package step: cpack again (into a scratch directory) where it made a .deb.
  if [ -f "$b/CPackConfig.cmake" ] && ls "$b"/*.deb >/dev/null 2>&1; then
    trace "$tmp/cpack" cpack -G DEB -B "$tmp/cpack-out" --config "$b/CPackConfig.cmake"
    used "cpack uses" "$name" < "$tmp/cpack"
  fi
done

# 3. The programs CI's scripts call: .ci/run and the scripts of packaging/ it runs, and theirs.
scripts=(.ci/run) i=0
while [ $i -lt ${#scripts[@]} ]; do
  s=${scripts[$i]}
  i=$((i + 1))
  for r in $(grep -oE '(packaging|\.ci)/[A-Za-z0-9_.-]+\.sh' "$here/$s" | sort -u); do
    if [ -f "$here/$r" ] && [[ " ${scripts[*]} " != *" $r "* ]]; then scripts+=("$r"); fi
  done
  echo /bin/bash | used "runs" "$s"
  bash --pretty-print "$here/$s" > "$tmp/script"
  functions=" $(sed -n 's/^\([A-Za-z_][A-Za-z0-9_]*\) () *$/\1/p' "$tmp/script" | tr '\n' ' ') "
  awk -f "$here/packaging/shell-commands.awk" "$tmp/script" | sort -u | while read -r c; do
    [[ "$functions" == *" $c "* ]] && continue
    case "$c" in
      /*) echo "$c" ;;
      *) t=$(bash --norc --noprofile -c 'type -t -- "$1"' _ "$c" 2>/dev/null || true)
         if [ "$t" = file ]; then type -P -- "$c"; elif [ -z "$t" ]; then printf '%s\t%s\n' "$c" "$s" >> "$tmp/absent"; fi ;;
    esac
  done | used "calls" "$s"
done

# 4. Owners. Each file as used and resolved, each with its /usr-merged alias.
awk -F'\t' -v here="$here" -v home="${HOME:-/nonexistent}" -v dirs="${dirs[*]}" '
  BEGIN { n = split(dirs, d, " "); for (i = 1; i <= n; i++) tree[d[i]] = 1; tree[here] = 1 }
  function inside(p, t) { return p == t || index(p, t "/") == 1 }
  {
    p = $2
    # Scratch and kernel files; and what the tests and cpack opened in $HOME (their own settings).
    # A program found in $HOME (a shim on PATH) is checked, and belongs to no package.
    if (p ~ /^\/(proc|sys|dev|run|tmp)\// || (($1 == "tests use" || $1 == "cpack uses") && inside(p, home))) next
    for (t in tree) if (inside(p, t)) next
    print
  }' "$tmp/used" > "$tmp/used.out"
cut -f2 "$tmp/used.out" | sort -u > "$tmp/paths"
xargs -r -d '\n' realpath -s -m -- < "$tmp/paths" > "$tmp/paths.as-used"
xargs -r -d '\n' realpath -m -- < "$tmp/paths" > "$tmp/paths.resolved"
paste "$tmp/paths" "$tmp/paths.as-used" "$tmp/paths.resolved" > "$tmp/forms"
cut -f2,3 "$tmp/forms" | tr '\t' '\n' | awk '{ print }
    /^\/usr\/(bin|sbin|lib|lib32|lib64|libx32)\// { print substr($0, 5) }
    /^\/(bin|sbin|lib|lib32|lib64|libx32)\// { print "/usr" $0 }' | sort -u \
  | xargs -r -d '\n' dpkg -S 2>/dev/null | grep -v '^diversion ' > "$tmp/owners" || true

wait "$closure_pid"
[ $selftest = 1 ] && { wait "$selftest_pid" || exit 1; }

# 5. The verdict against an allowed list: prints one line per missing package, then a summary.
verdict() {
  awk -F'\t' -v verbose="$verbose" -v allowed_file="$1" -v forms_file="$tmp/forms" -v owners_file="$tmp/owners" \
      -v absent_file="$tmp/absent" '
    function alias(p) {
      if (p ~ /^\/usr\/(bin|sbin|lib|lib32|lib64|libx32)\//) return substr(p, 5)
      if (p ~ /^\/(bin|sbin|lib|lib32|lib64|libx32)\//) return "/usr" p
      return ""
    }
    function own(p,   a, s) {
      s = (p in owner) ? owner[p] : ""
      a = alias(p)
      if (a != "" && (a in owner)) s = s (s == "" ? "" : ", ") owner[a]
      return s
    }
    # Owners of a file, allowed ones first: "" if none, else the first owner that is not allowed
    # ("+" if one is allowed), counting packages found.
    function judge(list,   n, i, k, bad) {
      n = split(list, k, /, /); bad = ""
      for (i = 1; i <= n; i++) {
        sub(/:[a-z0-9]+$/, "", k[i]); found[k[i]] = 1
        if (k[i] in allowed) return "+"
        if (bad == "") bad = k[i]
      }
      return bad
    }
    BEGIN {
      while ((getline l < allowed_file) > 0) allowed[l] = 1
      while ((getline l < forms_file) > 0) { split(l, f, "\t"); as_used[f[1]] = f[2]; resolved[f[1]] = f[3] }
      while ((getline l < owners_file) > 0) {
        i = index(l, ": /"); if (i == 0) continue
        owner[substr(l, i + 2)] = substr(l, 1, i - 1)
      }
      while ((getline l < absent_file) > 0) {
        split(l, f, "\t"); nabsent++
        if (verbose) print "check-deps: (not on this machine, so not checked) " f[1] ", called by " f[2]
      }
      # Files no package owns that every machine makes itself: configuration and state (/etc, /var)
      # and the caches packages'\'' triggers build (MIME, icons, GIO, locales).
      state = "^/etc/|^/var/(cache|lib)/|^/usr/share/mime/|/(gconv-modules|icon-theme|mimeinfo|loaders|giomodule)\\.cache$|/gschemas\\.compiled$|^/usr/lib/locale/locale-archive$"
      # Files found at run time that the program only looks for and does without.
      optional["/locale\\.alias$"] = "glibc reads it where the locales package is installed"
      optional["^/etc/ld\\.so\\.conf\\.d/"] = "dpkg-shlibdeps reads every file there"
      optional["^/usr/lib/debug/"] = "sanitizers symbolize reports with debug files where installed"
      optional["/perl5/[0-9.]+/(auto/)?Locale/gettext"] = "Dpkg::Gettext uses Locale::gettext where installed"
    }
    {
      kind = $1; p = $2; where = $3
      if (!(p in seen)) { seen[p] = 1; files++ }
      o1 = own(as_used[p]); o2 = own(resolved[p])
      if (o1 == "" && o2 == "") {
        if (p ~ state) { if (!(p in st)) { st[p] = 1; nstate++; if (verbose) print "check-deps: (no package, machine state) " p } }
        else if (kind ~ /^CMake found/) { if (!(p in nf)) { nf[p] = 1; nunused++; if (verbose) print "check-deps: (no package, unused CMake find) " p } }
        else if (!(p in orphan)) { orphan[p] = 1; norphan++; print "check-deps: from no Debian package: " p " (" where ": " kind ")" }
        next
      }
      for (t = 1; t <= 2; t++) {
        o = t == 1 ? o1 : o2
        if (o == "") continue
        pkg = judge(o)
        if (pkg == "+") continue
        why = ""
        for (r in optional) if (p ~ r) why = optional[r]
        if (why != "") { if (!(p in opt)) { opt[p] = 1; nopt++; if (verbose) print "check-deps: (optional, " why ") " p " [" pkg "]" } continue }
        if (kind ~ /^CMake found/) { if (!(p in nf)) { nf[p] = 1; nunused++; if (verbose) print "check-deps: (unused CMake find, " pkg ") " kind " " p } continue }
        if (!(pkg in missing)) { missing[pkg] = 1; nmissing++; print "check-deps: " pkg " is used but packaging/fullband.sh does not install it: " kind " " (t == 1 ? p : resolved[p]) " (" where ")" }
      }
    }
    END {
      for (k in found) nfound++
      for (k in allowed) nallowed++
      if (nmissing + norphan > 0) {
        printf "check-deps: FAIL: %d package(s) missing from packaging/fullband.sh, %d file(s) from no package (%d files checked)\n", nmissing, norphan, files
        exit 1
      }
      printf "check-deps: OK: %d files checked, %d packages found, %d packages allowed", files, nfound, nallowed
      printf " (ignored: %d machine-state files, %d optional run-time loads, %d unused CMake finds, %d commands not on this machine%s)\n", nstate, nopt, nunused, nabsent, verbose ? "" : "; -v lists them"
    }' "$tmp/used.out"
}

rc=0
verdict "$tmp/allowed" || rc=1
if [ $selftest = 1 ]; then
  if verdict "$tmp/allowed-selftest" > "$tmp/selftest.out"; then
    echo "check-deps: self-test FAILED: with $selftest_pkg dropped from the lists the check still passes"
    rc=1
  elif grep -q "^check-deps: $selftest_pkg is used but" "$tmp/selftest.out"; then
    echo "check-deps: self-test OK: with $selftest_pkg dropped from the lists the check fails:"
    grep -v '^check-deps: (' "$tmp/selftest.out" | sed 's/^/  /' || true
  else
    echo "check-deps: self-test FAILED: with $selftest_pkg dropped the check fails, but does not name it:"
    sed 's/^/  /' "$tmp/selftest.out"
    rc=1
  fi
fi
echo "check-deps: $((SECONDS - started)) s for ${dirs[*]#"$here"/}"
exit $rc
