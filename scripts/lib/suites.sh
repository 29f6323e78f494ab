# Sourced by scripts/test: suites that all run, whatever the ones before them did, and the summary
# of them. The caller sets `reports` (a folder it owns) and the repository is the working folder.
#
#   suites_begin                        empties $reports and starts the clock
#   suite NAME REPORT COMMAND...        runs COMMAND in a subshell (a failure ends only that
#                                       suite), then adds its line to the summary; REPORT: a glob
#                                       of the JUnit files it writes ("-": none)
#   skip NAME WHY                       a suite that cannot run because one it needs failed
#   suites_end                          prints the summary; its status is 1 when any failed
suites_begin() {
  rm -rf "$reports"
  mkdir -p "$reports"
  summary=$reports/summary.txt
  : >"$summary"
  started=$SECONDS
  failed=0
  last=0
}

suite() {
  local name=$1 report=$2
  shift 2
  echo
  echo "== $name"
  local begin=$SECONDS status
  ("$@")
  status=$?
  last=$status
  [ "$status" = 0 ] || failed=1
  .venv/bin/python scripts/test_summary.py "$name" "$status" "$((SECONDS - begin))" "$report" \
    | tee -a "$summary"
}

skip() {
  echo "$(printf '%-22s' "$1") not run: $2" | tee -a "$summary"
  failed=1
}

suites_end() {
  echo
  echo "== summary ($(((SECONDS - started) / 60)) min $(((SECONDS - started) % 60)) s)"
  cat "$summary"
  return "$failed"
}
