#!/bin/sh
# A base image for the Dockerfile built from Debian's packages alone (debootstrap + podman import), for a machine that
# reaches Debian's archive but no container registry (python:3.11-slim cannot be pulled there). Debian 12's python3 is
# 3.11, as the project needs. Then:
#   podman build --build-arg BASE_IMAGE=localhost/tablestakes-base:bookworm -t tablestakes .
# Needs root, debootstrap and podman (Debian: apt-get install debootstrap podman).
# Usage: deploy/debian-base-image.sh [IMAGE]
set -eu
image="${1:-localhost/tablestakes-base:bookworm}"
mirror="${DEBIAN_MIRROR:-http://deb.debian.org/debian}"
root="$(mktemp -d)"
trap 'rm -rf "$root"' EXIT
debootstrap --variant=minbase --include=python3,python3-venv,ca-certificates bookworm "$root" "$mirror" >&2
rm -rf "$root"/var/cache/apt/archives/*.deb "$root"/var/lib/apt/lists/*
tar -C "$root" -c . | podman import \
    --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
    --change 'CMD ["/bin/bash"]' - "$image" >&2
echo "$image"
