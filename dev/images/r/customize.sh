# Runs inside the image's root filesystem ($1) after Debian's packages are installed: JupyterLab
# for R notebooks (requirements.txt: the python image's pins of JupyterLab and what it needs; R's
# kernel is Debian's r-cran-irkernel), then what Ludis needs of JupyterLab.
set -eu
here=$(dirname "$0")
sh "$here/../pip/install.sh" "$1" "$here/requirements.txt"
sh "$here/../jupyterlab/setup.sh" "$1"
