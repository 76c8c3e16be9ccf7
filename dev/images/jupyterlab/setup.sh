# Runs inside an image's build (from its customize.sh) after JupyterLab is pip-installed into the
# root filesystem $1: what Ludis needs of JupyterLab there, from JupyterLab's own files.
#
# - /usr/local/share/ludis/jupyterlab/index.html: JupyterLab's page template with storage.js
#   inlined first. JupyterLab keeps its window names in localStorage and, when a browser refuses
#   storage to a framed site (third-party storage blocking: Chromium's default here, Safari,
#   private windows), reloads itself for ever under new workspace names. The console frames
#   JupyterLab from the apps origin, another site: the stand-in keeps it working there. The
#   notebook launcher passes --LabApp.templates_dir when the folder exists.
# - JupyterLab's settings overrides: no news or update checks (pods reach nothing outside).
set -eu
root=$1
here=$(dirname "$0")
static=$root/usr/local/share/jupyter/lab/static
[ -f "$static/index.html" ] || { echo "JupyterLab's page template is missing: $static/index.html" >&2; exit 1; }
out=$root/usr/local/share/ludis/jupyterlab
mkdir -p "$out"
{
  printf '<script>'
  cat "$here/storage.js"
  printf '</script>'
} >"$out/storage.html"
# The stand-in goes right after <head>, before JupyterLab's bundle.
awk -v f="$out/storage.html" 'BEGIN { while ((getline line < f) > 0) s = s line "\n" }
  { i = index($0, "<head>"); if (!done && i) { $0 = substr($0, 1, i + 5) s substr($0, i + 6); done = 1 } print }
  END { if (!done) exit 1 }' "$static/index.html" >"$out/index.html"
rm -f "$out/storage.html"
mkdir -p "$root/usr/local/share/jupyter/lab/settings"
cp "$here/overrides.json" "$root/usr/local/share/jupyter/lab/settings/overrides.json"
