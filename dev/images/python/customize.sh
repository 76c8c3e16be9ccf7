# Runs inside the image's root filesystem ($1) after Debian's packages are installed: the pinned
# Python packages (requirements.txt), then what Ludis needs of JupyterLab.
set -eu
here=$(dirname "$0")
sh "$here/../pip/install.sh" "$1" "$here/requirements.txt"
sh "$here/../jupyterlab/setup.sh" "$1"
