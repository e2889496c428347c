#!/usr/bin/env bash
# What the tests need besides node_modules, installed and started only when missing: a Redis server answering on
# 127.0.0.1:6379 (the key-store and shared-limit tests talk to a real one), Debian's chromium (the validation
# page's browser tests) and nginx (the proxy test runs the deployments' nginx configuration in front of the service). Installing needs root and Debian's apt, as on the project's machines.
set -euo pipefail

install_package() {
  apt-get update -qq && apt-get install -y -qq "$1" >/dev/null
}

command -v redis-server >/dev/null 2>&1 || install_package redis-server
[ -x /usr/bin/chromium ] || install_package chromium
[ -x /usr/sbin/nginx ] || install_package nginx-light

if ! redis-cli -h 127.0.0.1 -p 6379 ping >/dev/null 2>&1; then
  mkdir -p /tmp/test-redis
  redis-server --daemonize yes --bind 127.0.0.1 --port 6379 --save "" --appendonly no --dir /tmp/test-redis --logfile /tmp/test-redis/redis.log
  for _ in $(seq 1 50); do redis-cli -h 127.0.0.1 -p 6379 ping >/dev/null 2>&1 && break; sleep 0.1; done
fi
