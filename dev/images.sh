#!/usr/bin/env bash
# The images pods run on the local node, built here (no registry is reachable) and cached outside
# the repository by a hash of their recipe, so an image is rebuilt only when its recipe changes:
#   python, r, git  a Debian root filesystem made by mmdebstrap from Debian's packages
#                   (dev/images/<image>/packages; python and r also pip-install their
#                   requirements.txt from the package index, and set up JupyterLab, with the
#                   steps in dev/images/pip and dev/images/jupyterlab), started under tini so
#                   signals reach the process
#   pause           the pods' sandbox: a static Go program (dev/images/pause/main.go)
# each wrapped as an OCI image layout ($LUDIS_CACHE/images/<image>-<hash>/) that
# `ctr images import` takes. The list of images and their ids is seeds/ludis-images.json.
#
#   dev/images.sh build [image...]   build what is missing (default: every image)
#   dev/images.sh refs               print "<image> <reference>" for every image
#   dev/images.sh configmap [ns]     print the ConfigMap ludis-images (id: reference) as YAML
#                                    in the namespace ns (default ludis-system)
#   dev/images.sh dir <image>        print the cached layout of an image
#   dev/images.sh product <image> <folder>
#                                    build a product image (ludis-api, ludis-operator): its
#                                    recipe's Debian base and a layer of <folder>; print its layout
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

RECIPES=$DEV_DIR/images
SEEDS=$REPO_DIR/seeds/ludis-images.json
# Part of every hash: a change to how images are made (below) rebuilds them all.
FORMAT=1
DEBIAN_SUITE=bookworm

all_images() { jq -r '[.images[].image, .operator[]] | unique | .[]' "$SEEDS"; }
registry() { jq -r .registry "$SEEDS"; }

# A short hash of everything that makes an image: its recipe folder, the folders of dev/images/
# its `uses` file names (steps recipes share, which its customize.sh runs), the suite, this format.
recipe_hash() {
  local name=$1 used
  [ -d "$RECIPES/$name" ] || die "no recipe for the image $name (dev/images/$name)"
  {
    echo "format $FORMAT suite $DEBIAN_SUITE"
    [ -f "$RECIPES/$name/main.go" ] && go_version
    (cd "$RECIPES/$name" && find . -type f -print0 | LC_ALL=C sort -z | xargs -0 sha256sum)
    if [ -f "$RECIPES/$name/uses" ]; then
      while read -r used; do
        [ -d "$RECIPES/$used" ] || die "the image $name uses dev/images/$used, which does not exist"
        (cd "$RECIPES" && find "$used" -type f -print0 | LC_ALL=C sort -z | xargs -0 sha256sum)
      done <"$RECIPES/$name/uses"
    fi
  } | sha256sum | cut -c1-12
}

image_ref() { echo "$(registry)/$1:$(recipe_hash "$1")"; }
image_dir() { echo "$LUDIS_CACHE/images/$1-$(recipe_hash "$1")"; }

# The apt sources this machine uses, for mmdebstrap (so images come from the same mirror).
apt_sources() {
  local f
  for f in /etc/apt/sources.list.d/*.sources /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
    [ -s "$f" ] && echo "$f"
  done
}

# A root filesystem tar of Debian packages (and the recipe's customize.sh), owned as in the
# image: user ludis (1000), the id Ludis pods run as, has a home.
debian_rootfs() {
  local name=$1 out=$2 packages sources=()
  packages=$(grep -v '^\s*#' "$RECIPES/$name/packages" | xargs | tr ' ' ',')
  mapfile -t sources < <(apt_sources)
  [ ${#sources[@]} -gt 0 ] || die "no apt sources on this machine (/etc/apt/sources.list*)"
  local hooks=(
    --customize-hook='printf "ludis:x:1000:1000::/home/ludis:/bin/sh\n" >>"$1/etc/passwd"'
    --customize-hook='printf "ludis:x:1000:\n" >>"$1/etc/group"'
    --customize-hook='mkdir -p "$1/home/ludis" && chown 1000:1000 "$1/home/ludis"'
  )
  if [ -f "$RECIPES/$name/customize.sh" ]; then
    hooks+=(
      --customize-hook='cp /etc/resolv.conf "$1/etc/resolv.conf"'
      --customize-hook="sh '$RECIPES/$name/customize.sh' \"\$1\""
      --customize-hook='rm -f "$1/etc/resolv.conf"'
    )
  fi
  SOURCE_DATE_EPOCH=0 mmdebstrap --mode=root --variant=essential --format=tar \
    --include="$packages" \
    --dpkgopt='path-exclude=/usr/share/man/*' --dpkgopt='path-exclude=/usr/share/doc/*' \
    --dpkgopt='path-include=/usr/share/doc/*/copyright' --dpkgopt='path-exclude=/usr/share/locale/*' \
    "${hooks[@]}" "$DEBIAN_SUITE" "$out" "${sources[@]}"
}

# A root filesystem tar holding only the static Go program of the recipe, as /<name>.
go_rootfs() {
  local name=$1 out=$2 tmp
  tmp=$(mktemp -d)
  (cd "$RECIPES/$name" && CGO_ENABLED=0 go build -trimpath -ldflags "-s -w" -o "$tmp/$name" .) || return 1
  tar --sort=name --mtime=@0 --owner=0 --group=0 --numeric-owner -C "$tmp" -cf "$out" "$name"
  rm -rf "$tmp"
}

# Wraps root filesystem tars (uncompressed layers, lowest first) as an OCI image layout named $ref,
# with the recipe's image.json as the image configuration. Layers are linked into the layout (a
# base image's layer is shared with its cached layout, not copied).
oci_layout() {
  local name=$1 out=$2 ref=$3 layer digest config config_digest manifest manifest_digest
  shift 3
  local diff_ids=() layers=()
  mkdir -p "$out/blobs/sha256"
  for layer in "$@"; do
    digest=$(sha256sum "$layer" | cut -d' ' -f1)
    ln -f "$layer" "$out/blobs/sha256/$digest" 2>/dev/null || cp "$layer" "$out/blobs/sha256/$digest"
    diff_ids+=("sha256:$digest")
    layers+=("$(jq -nc --arg l "sha256:$digest" --argjson ls "$(stat -c %s "$layer")" \
      '{mediaType: "application/vnd.oci.image.layer.v1.tar", digest: $l, size: $ls}')")
  done
  config=$(jq -c --args '{architecture: "amd64", os: "linux", config: .,
    rootfs: {type: "layers", diff_ids: $ARGS.positional}, history: [{created_by: "ludis dev/images.sh"}]}' \
    "${diff_ids[@]}" <"$RECIPES/$name/image.json")
  config_digest=$(printf '%s' "$config" | sha256sum | cut -d' ' -f1)
  printf '%s' "$config" >"$out/blobs/sha256/$config_digest"
  manifest=$(jq -nc --arg c "sha256:$config_digest" --argjson cs "${#config}" --jsonargs '{schemaVersion: 2,
    mediaType: "application/vnd.oci.image.manifest.v1+json",
    config: {mediaType: "application/vnd.oci.image.config.v1+json", digest: $c, size: $cs},
    layers: $ARGS.positional}' "${layers[@]}")
  manifest_digest=$(printf '%s' "$manifest" | sha256sum | cut -d' ' -f1)
  printf '%s' "$manifest" >"$out/blobs/sha256/$manifest_digest"
  jq -nc --arg m "sha256:$manifest_digest" --argjson ms "${#manifest}" --arg ref "$ref" '{schemaVersion: 2,
    manifests: [{mediaType: "application/vnd.oci.image.manifest.v1+json", digest: $m, size: $ms,
      annotations: {"io.containerd.image.name": $ref, "org.opencontainers.image.ref.name": ($ref | split(":") | last)}}]}' \
    >"$out/index.json"
  echo '{"imageLayoutVersion":"1.0.0"}' >"$out/oci-layout"
  echo "$ref" >"$out/ref"
}

# The layer tars of a cached image's layout, lowest first.
layout_layers() {
  local dir=$1 manifest
  manifest=$(jq -r '.manifests[0].digest | sub("sha256:"; "")' "$dir/index.json")
  jq -r '.layers[].digest | sub("sha256:"; "")' "$dir/blobs/sha256/$manifest" | sed "s|^|$dir/blobs/sha256/|"
}

# product <name> <folder>: the image <name> (a recipe with `base` naming a Debian recipe, and its
# image.json) made of the base image's layer and a layer of <folder>'s files (owned by root, as in
# the folder otherwise). Its tag is a hash of both, so new binaries make a new image; older
# layouts of the same product are removed. Prints the layout's folder (its reference is in `ref`).
build_product() {
  local name=$1 files=$2 base layer tag dir ref tmp
  [ -f "$RECIPES/$name/base" ] || die "no product recipe $name (dev/images/$name/base)"
  [ -d "$files" ] || die "no folder $files"
  base=$(cat "$RECIPES/$name/base")
  build_image "$base" >&2
  mkdir -p "$LUDIS_CACHE/images"
  tmp=$(mktemp -d "$LUDIS_CACHE/images/.$name.XXXXXX")
  layer=$tmp/layer.tar
  tar --sort=name --mtime=@0 --owner=0 --group=0 --numeric-owner -C "$files" -cf "$layer" .
  tag=$({ recipe_hash "$base"; recipe_hash "$name"; sha256sum <"$layer"; } | sha256sum | cut -c1-12)
  ref="$(registry)/$name:$tag"
  dir=$LUDIS_CACHE/images/$name-$tag
  if [ ! -f "$dir/.complete" ]; then
    mapfile -t base_layers < <(layout_layers "$(image_dir "$base")")
    oci_layout "$name" "$tmp/layout" "$ref" "${base_layers[@]}" "$layer"
    rm -rf "$dir" && mv "$tmp/layout" "$dir" && touch "$dir/.complete"
    find "$LUDIS_CACHE/images" -maxdepth 1 -name "$name-*" ! -name "$name-$tag" -exec rm -rf {} +
  fi
  rm -rf "$tmp"
  echo "$dir"
}

build_image() {
  local name=$1 dir ref tmp log start
  dir=$(image_dir "$name")
  ref=$(image_ref "$name")
  if [ -f "$dir/.complete" ]; then
    echo "$name: cached in $dir"
    return 0
  fi
  mkdir -p "$LUDIS_CACHE/logs" "$LUDIS_CACHE/images"
  log=$LUDIS_CACHE/logs/image-$name.log
  start=$(now)
  log "building the image $name (first time only; log: $log)"
  tmp="$dir.tmp.$$"
  rm -rf "$tmp" && mkdir -p "$tmp"
  {
    if [ -f "$RECIPES/$name/main.go" ]; then go_rootfs "$name" "$tmp/layer.tar"; else debian_rootfs "$name" "$tmp/layer.tar"; fi &&
      oci_layout "$name" "$tmp/layout" "$ref" "$tmp/layer.tar"
  } >"$log" 2>&1 || {
    echo "--- last lines of $log:" >&2
    tail -n 20 "$log" >&2
    rm -rf "$tmp"
    die "building the image $name failed after $(elapsed "$start")s (full log: $log)"
  }
  rm -rf "$dir" && mv "$tmp/layout" "$dir" && rm -rf "$tmp"
  # The marker holds the build's duration in seconds (dev/bench-node.sh prints it).
  elapsed "$start" >"$dir/.complete"
  ok "image $name built in $(cat "$dir/.complete")s: $ref ($(du -sh "$dir" | cut -f1))"
}

case "${1:-}" in
  build)
    shift
    command -v jq >/dev/null || die "jq is not installed (run dev/install-deps.sh)"
    images=("$@")
    [ ${#images[@]} -gt 0 ] || mapfile -t images < <(all_images)
    # The builds wait on downloads and disks more than on CPUs: they run side by side.
    builds=()
    for i in "${images[@]}"; do
      [ -f "$RECIPES/$i/main.go" ] || command -v mmdebstrap >/dev/null ||
        die "mmdebstrap is not installed (run dev/install-deps.sh)"
      build_image "$i" &
      builds+=($!)
    done
    failed=0
    for b in "${builds[@]}"; do wait "$b" || failed=1; done
    [ "$failed" = 0 ] || die "building the images failed (see above)"
    ;;
  refs) for i in $(all_images); do echo "$i $(image_ref "$i")"; done ;;
  configmap)
    jq -r '.images[] | "\(.id) \(.image)"' "$SEEDS" | while read -r id image; do
      echo "  $id: $(image_ref "$image")"
    done | { echo "apiVersion: v1"; echo "kind: ConfigMap"; echo "metadata: {name: ludis-images, namespace: ${2:-ludis-system}}"; echo "data:"; cat; }
    ;;
  dir) image_dir "${2:?image}" ;;
  product) build_product "${2:?image}" "${3:?folder}" ;;
  *) die "usage: dev/images.sh build [image...]|refs|configmap [ns]|dir <image>|product <image> <folder>" ;;
esac
