# Runs inside an image's build (from its customize.sh): pip installs the recipe's pinned
# requirements.txt ($2) into the root filesystem $1 (/usr/local, where Debian's Python looks
# first). pip reaches the package index with this machine's CA bundle, copied in for the build
# and removed after it.
set -eu
root=$1
requirements=$2
cp /etc/ssl/certs/ca-certificates.crt "$root/tmp/build-ca.pem"
cp "$requirements" "$root/tmp/requirements.txt"
env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8 PIP_CERT=/tmp/build-ca.pem \
  PIP_DISABLE_PIP_VERSION_CHECK=1 PIP_DEFAULT_TIMEOUT=180 \
  chroot "$root" python3 -m pip install --no-cache-dir --break-system-packages --root-user-action=ignore \
  --no-warn-script-location --progress-bar off -r /tmp/requirements.txt
rm -f "$root/tmp/build-ca.pem" "$root/tmp/requirements.txt"
