#!/bin/sh
# Runs the official DTS 1.0 validator (distributed-text-services/validator, checked out at
# $VALIDATOR; its dependencies are Debian's python3-pytest, -jsonschema, -uritemplate and
# -requests) against a corpus: once on `dts serve` (Level 1), once on python's http.server
# over the static profile (Level 0). The validator picks a random resource each run, so it runs
# $RUNS times. Usage: VALIDATOR=~/validator tools/run-validator.sh <corpus> [runs]
set -eu
corpus=$1
runs=${2:-5}
: "${VALIDATOR:?set VALIDATOR to a checkout of distributed-text-services/validator}"
here=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
pids=""
trap 'kill $pids 2>/dev/null; rm -rf "$work"' EXIT
port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
wait_for() { for _ in $(seq 1 100); do curl -s -o /dev/null "$1" && return 0; sleep 0.1; done; echo "no answer at $1" >&2; return 1; }
validate() {
  for _ in $(seq 1 "$runs"); do
    (cd "$VALIDATOR" && python3 -m pytest tests --entry-endpoint="$1" -p no:cacheprovider -q -W error::DeprecationWarning 2>&1 | grep -E "^(FAILED|ERROR)|passed|failed" | sed "s/ - .*//")
  done
}

p=$(port)
node "$here/bin/dts.js" build --corpus "$corpus" --out "$work/serve" --api 1.0 > /dev/null
node "$here/bin/dts.js" serve --dist "$work/serve" --port "$p" > /dev/null 2>&1 &
pids="$pids $!"
wait_for "http://127.0.0.1:$p/api/dts/v1/"
echo "dts serve (Level 1), $corpus:"
validate "http://127.0.0.1:$p/api/dts/v1/"

p=$(port)
node "$here/bin/dts.js" build --corpus "$corpus" --out "$work/static" --api 1.0 --static-paths --site-url "http://127.0.0.1:$p" > /dev/null
python3 -m http.server "$p" --bind 127.0.0.1 --directory "$work/static" > /dev/null 2>&1 &
pids="$pids $!"
wait_for "http://127.0.0.1:$p/api/dts/v1/index.jsonld"
echo "python3 -m http.server on the static profile (Level 0), $corpus:"
validate "http://127.0.0.1:$p/api/dts/v1/index.jsonld"
