#!/usr/bin/env bash
# npm run test:docker: builds the image and checks what a self-hoster relies on (issues #20, #43):
# /healthz, the non-root user, an init as PID 1 that reaps orphans, the health status after a
# minute, exit 0 on SIGTERM, a killed server restarted (the README's --restart), the data in the
# volume kept by a new container, a bind-mounted /data not owned by uid 10001 refused with a
# message; the app's files root's and read-only to the service, /data its alone (0700, files
# 0600, a backup one file), no install-time packages, sources, declarations or apt caches in the
# image (also from a base whose apt keeps its caches). Needs a Docker daemon. Takes minutes (the
# build, then two health probes 30 s apart), so it is not part of CI: run it when the Dockerfile
# changes. IMAGE=name:tag picks the tag (default storymap:test). Ends with "N passed, N failed".
set -uo pipefail
cd "$(dirname "$0")/.."
image=${IMAGE:-storymap:test}
prefix=storymap-test-$$
volume=$prefix-data
bind_dir=$(mktemp -d)
cookies=$(mktemp)
base=node:24-bookworm-slim
apt_base=storymap-test-apt-base:$$
passed=0
failed=0

cleanup() {
  docker rm -f "$prefix-1" "$prefix-2" "$prefix-bind" >/dev/null 2>&1
  docker rmi "$image-apt" "$apt_base" >/dev/null 2>&1
  docker volume rm "$volume" >/dev/null 2>&1
  # Files written by the container belong to uid 10001: removed from inside.
  docker run --rm --user 0 --entrypoint sh -v "$bind_dir:/data" "$image" -c 'rm -rf /data/*' >/dev/null 2>&1
  rm -rf "$bind_dir" "$cookies"
}
trap cleanup EXIT

step() { echo; echo "== $1"; }
# check DESCRIPTION COMMAND...: runs the command, counts and prints the result.
check() {
  local what=$1
  shift
  if "$@"; then
    echo "ok    $what"
    passed=$((passed + 1))
  else
    echo "FAIL  $what"
    failed=$((failed + 1))
  fi
}
equals() {
  [ "$1" = "$2" ] || { echo "      expected: $2"; echo "      got:      $1"; return 1; }
}
summary() {
  echo
  echo "$passed passed, $failed failed"
  [ "$failed" -eq 0 ]
}

port_of() { docker port "$1" 3000/tcp | head -n 1 | sed 's/.*://'; }
# Waits (at most 30 s) for /healthz on a container's published port; prints its answer.
wait_healthz() {
  local port
  port=$(port_of "$1")
  for _ in $(seq 1 60); do
    curl -fsS --max-time 2 "http://127.0.0.1:$port/healthz" 2>/dev/null && return 0
    [ "$(docker inspect -f '{{.State.Running}}' "$1")" = true ] || break
    sleep 0.5
  done
  echo "no answer from /healthz; the container's log:"
  docker logs "$1" 2>&1 | tail -n 20
  return 1
}
# As the README runs it: restarted unless stopped, the log capped (on loopback, a free port here).
start_container() {
  docker run -d --name "$1" --restart unless-stopped --log-opt max-size=10m --log-opt max-file=3 \
    -p 127.0.0.1::3000 -v "$volume:/data" "$image" >/dev/null
}
# as_service CONTAINER COMMAND: a shell command as the image's user, in the running container.
as_service() { docker exec "$1" sh -c "$2"; }
# Files of apt's lists and package cache (their empty lock files aside) in an image.
apt_leftovers() {
  docker run --rm --user 0 --entrypoint sh "$1" -c \
    'find /var/lib/apt/lists /var/cache/apt -type f ! -name lock 2>/dev/null | head -n 5; true'
}
# post_json CONTAINER PATH JSON: prints the status code, and the answer unless it is 200. Cookies are kept.
post_json() {
  local port answer
  port=$(port_of "$1")
  answer=$(curl -sS -b "$cookies" -c "$cookies" -w '\n%{http_code}' -H 'Content-Type: application/json' --data "$3" "http://127.0.0.1:$port$2")
  if [ "${answer##*$'\n'}" = 200 ]; then echo 200; else echo "${answer##*$'\n'} ${answer%$'\n'*}"; fi
}
zombies() { docker exec "$1" sh -c 'grep -l "^State:.*Z" /proc/[0-9]*/status 2>/dev/null | wc -l'; }
# An orphan whose parent is gone, as a health probe's children are when Docker kills the probe:
# PID 1 must reap it when it exits, or it stays a zombie.
orphan_is_reaped() {
  docker exec "$1" sh -c 'sleep 1.5 >/dev/null 2>&1 & exit 0'
  for _ in $(seq 1 20); do
    sleep 0.5
    docker exec "$1" sh -c 'cat /proc/[0-9]*/cmdline 2>/dev/null | tr "\0" " " | grep -q "sleep 1[.]5"' ||
      [ "$(zombies "$1")" != 0 ] || return 0
  done
  echo "      processes: $(docker exec "$1" sh -c 'grep -H "^State" /proc/[0-9]*/status' | tr '\n' ' ')"
  return 1
}

step "Build ($image)"
docker version --format 'Docker {{.Server.Version}}'
started=$(date +%s)
if ! docker build -t "$image" .; then
  echo "FAIL  docker build"
  failed=$((failed + 1))
  summary
  exit 1
fi
size=$(docker image inspect -f '{{.Size}}' "$image")
base_size=$(docker image inspect -f '{{.Size}}' "$base")
echo "built in $(($(date +%s) - started)) s; $((size / 1000000)) MB, $(((size - base_size) / 1000000)) MB over its base $base (budget: 150 MB)"

le() { [ "$1" -le "$2" ]; }
check "the image is at most 150 MB over its base" le $(((size - base_size) / 1000000)) 150
# The images the stages start from (a stage may start from an earlier one).
check "every stage starts from $base" equals \
  "$(awk '/^FROM/ { if (!($2 in stage)) print $2; if ($3 == "AS") stage[$4] = 1 }' Dockerfile | sort -u)" "$base"
check "the image runs Node 24" bash -c "docker run --rm '$image' node --version | grep -q '^v24[.]'"

step "What the image holds"
modules=$(docker run --rm --entrypoint sh "$image" -c 'ls node_modules')
check "no install-time packages (prebuild-install, cross-env, node-addon-api)" equals \
  "$(printf '%s\n' "$modules" | grep -xE 'prebuild-install|cross-env|node-addon-api|node-abi|tar-fs' | paste -sd ' ')" ""
check "no C sources, declarations or source maps in node_modules" equals \
  "$(docker run --rm --entrypoint sh "$image" -c \
    'find node_modules -type f \( -name "*.[ch]" -o -name "*.cpp" -o -name "*.d.ts" -o -name "*.d.cts" -o -name "*.map" \) | head -n 5')" ""
check "argon2: one addon, compiled for this Node (no prebuilds)" equals \
  "$(docker run --rm --entrypoint sh "$image" -c 'find node_modules/argon2 -name "*.node"')" "node_modules/argon2/build/Release/argon2.node"
check "no apt lists or downloaded packages" equals "$(apt_leftovers "$image")" ""
# The same Dockerfile on a base whose apt keeps what it downloads (no docker-clean): the runtime
# stage must clean up itself. The other stages come from the build's cache.
printf 'FROM %s\nRUN rm -f /etc/apt/apt.conf.d/docker-clean\n' "$base" | docker build -q -t "$apt_base" - >/dev/null
if sed "s|^FROM $base AS runtime|FROM $apt_base AS runtime|" Dockerfile | docker build -q -f - -t "$image-apt" . >/dev/null; then
  check "built on a base without docker-clean: no apt lists or downloaded packages" equals "$(apt_leftovers "$image-apt")" ""
else
  echo "FAIL  docker build on $apt_base"
  failed=$((failed + 1))
fi

step "Start on a new volume"
start_container "$prefix-1"
check "/healthz answers {\"ok\":true}" equals "$(wait_healthz "$prefix-1")" '{"ok":true}'
check "the image's user is uid 10001" equals "$(docker exec "$prefix-1" id -u)" 10001
docker top "$prefix-1" -o pid,uid,args
check "every process runs as uid 10001" equals "$(docker top "$prefix-1" -o pid,uid | awk 'NR > 1 { print $2 }' | sort -u)" 10001
# PID 1's command, then its children's program and script (Node's flags between them vary).
check "PID 1 is tini, the server its child" equals \
  "$(docker exec "$prefix-1" sh -c 'tr "\0" " " </proc/1/cmdline | cut -d " " -f 1-2
    for child in $(cat /proc/1/task/1/children); do tr "\0" "\n" </proc/$child/cmdline | sed -n "1p;\$p" | paste -sd " "; done')" \
  "$(printf '/usr/bin/tini --\nnode build/server.js')"
check "an orphaned process is reaped" orphan_is_reaped "$prefix-1"
check "the app's files belong to root and the service can write none of them" equals \
  "$(as_service "$prefix-1" 'find /app \( ! -user root -o -writable \) -print | head -n 5')" ""
check "the service cannot change its code" bash -c "! docker exec '$prefix-1' sh -c 'echo x >>/app/build/server.js' 2>/dev/null"
# Outside /data, the service may write only the temporary folders (the volume is another file
# system: -xdev lists its mount point, not what is in it).
check "the service writes nowhere else but /data and the temporary folders" equals \
  "$(as_service "$prefix-1" 'find / -xdev \( -path /proc -o -path /sys -o -path /dev \) -prune -o -writable -print 2>/dev/null | grep -vxE "/data|/tmp|/var/tmp|/run/lock|/var/lock" | head -n 5')" ""
email="docker-test-$$@example.com"
account="{\"workspaceName\":\"dockertest$$\",\"name\":\"Docker Test\",\"email\":\"$email\",\"password\":\"correct-horse\"}"
check "sign-up answers 200" equals "$(post_json "$prefix-1" /v1/users/signup "$account")" 200
check "/data is 0700, the database, its -wal and -shm and the session secret 0600" equals \
  "$(as_service "$prefix-1" 'cd /data && stat -c "%a %n" . storymap.db storymap.db-wal storymap.db-shm session-secret | paste -sd " "')" \
  "700 . 600 storymap.db 600 storymap.db-wal 600 storymap.db-shm 600 session-secret"
as_service "$prefix-1" 'node scripts/backup.mjs /data/backups/storymap.db' | sed 's/^/      /'
check "a backup in the container is one file, 0600, in a folder 0700" equals \
  "$(as_service "$prefix-1" 'cd /data/backups && stat -c "%a %n" . * | paste -sd " "')" "700 . 600 storymap.db"

step "Health after a minute (probes every 30 s)"
# Waits for the second probe (30 s and 60 s after the start), at most two minutes.
for _ in $(seq 1 120); do
  [ "$(docker inspect -f '{{len .State.Health.Log}}' "$prefix-1")" -ge 2 ] && break
  sleep 1
done
docker inspect -f '{{range .State.Health.Log}}probe {{.Start.Format "15:04:05"}}: exit {{.ExitCode}} in {{.End.Sub .Start}}{{println}}{{end}}' "$prefix-1"
check "two probes passed and the status is healthy" equals \
  "$(docker inspect -f '{{len .State.Health.Log}} {{.State.Health.FailingStreak}} {{.State.Health.Status}}' "$prefix-1")" \
  "2 0 healthy"
check "no zombie processes" equals "$(zombies "$prefix-1")" 0

step "A killed server (--restart unless-stopped)"
docker exec "$prefix-1" sh -c 'kill -KILL $(cat /proc/1/task/1/children)'
for _ in $(seq 1 60); do
  [ "$(docker inspect -f '{{.RestartCount}}' "$prefix-1")" -ge 1 ] && break
  sleep 0.5
done
check "Docker started it again" equals "$(docker inspect -f '{{.RestartCount}}' "$prefix-1")" 1
check "/healthz answers {\"ok\":true}" equals "$(wait_healthz "$prefix-1")" '{"ok":true}'

step "SIGTERM"
started=$(date +%s)
docker stop --time 30 "$prefix-1" >/dev/null
echo "stopped in $(($(date +%s) - started)) s"
check "exit code 0 on SIGTERM" equals "$(docker inspect -f '{{.State.ExitCode}}' "$prefix-1")" 0
docker logs "$prefix-1" 2>&1 | grep -E '"(shutting down|Storymap listening)' | cut -c 1-160
check "the log says it shut down on SIGTERM" bash -c "docker logs '$prefix-1' 2>&1 | grep -q '\"signal\":\"SIGTERM\".*shutting down'"

step "A new container on the same volume"
start_container "$prefix-2"
check "/healthz answers {\"ok\":true}" equals "$(wait_healthz "$prefix-2")" '{"ok":true}'
check "the session made before is still valid: /v1/account/app lists the workspace" bash -c \
  "curl -fsS -b '$cookies' http://127.0.0.1:$(port_of "$prefix-2")/v1/account/app | grep -q '\"name\":\"dockertest$$\"'"
check "the account made before logs in (200)" equals \
  "$(post_json "$prefix-2" /v1/users/login "{\"email\":\"$email\",\"password\":\"correct-horse\"}")" 200
check "exit code 0 on SIGTERM" equals "$(docker stop --time 30 "$prefix-2" >/dev/null && docker inspect -f '{{.State.ExitCode}}' "$prefix-2")" 0

step "A bind-mounted /data"
docker run -d --name "$prefix-bind" -p 127.0.0.1::3000 -v "$bind_dir:/data" "$image" >/dev/null
docker wait "$prefix-bind" >/dev/null
docker logs "$prefix-bind" 2>&1 | tail -n 3
check "not owned by uid 10001: exit code 1 with EACCES" equals \
  "$(docker inspect -f '{{.State.ExitCode}}' "$prefix-bind") $(docker logs "$prefix-bind" 2>&1 | grep -c EACCES)" "1 1"
docker rm -f "$prefix-bind" >/dev/null
docker run --rm --user 0 --entrypoint chown -v "$bind_dir:/data" "$image" 10001 /data
docker run -d --name "$prefix-bind" -p 127.0.0.1::3000 -v "$bind_dir:/data" "$image" >/dev/null
check "owned by uid 10001 (chown 10001): /healthz answers" equals "$(wait_healthz "$prefix-bind")" '{"ok":true}'
ls -ln "$bind_dir"

summary
