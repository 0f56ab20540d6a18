#!/bin/sh
# Installs flower from a built source tree into a package folder and links the `flower` command: the
# install steps of the Dockerfile, kept in a script so a test can run them against a scratch prefix.
#
#   install.sh <source: package.json, package-lock.json, dist/, plugin/> <package folder> <bin folder>
#
# Production dependencies only, exactly as locked (npm ci). The registry comes from NPM_CONFIG_REGISTRY
# when set; better-sqlite3's prebuilt binary from its usual host, or npm_config_better_sqlite3_binary_host.
set -eu
if [ "$#" -ne 3 ]; then
  echo 'usage: install.sh <source folder> <package folder> <bin folder>' >&2
  exit 2
fi
source_dir=$1
package_dir=$2
bin_dir=$3
for required in package.json package-lock.json dist/cli/main.js plugin; do
  if [ ! -e "$source_dir/$required" ]; then
    echo "install.sh: $source_dir/$required is missing; run npm run build in the source first" >&2
    exit 1
  fi
done
mkdir -p "$package_dir" "$bin_dir"
cp "$source_dir/package.json" "$source_dir/package-lock.json" "$package_dir/"
cp -R "$source_dir/dist" "$source_dir/plugin" "$package_dir/"
(cd "$package_dir" && npm ci --omit=dev --no-audit --no-fund --loglevel=error)
chmod 755 "$package_dir/dist/cli/main.js"
ln -sf "$package_dir/dist/cli/main.js" "$bin_dir/flower"
# The image must not be built around a flower that cannot start.
"$bin_dir/flower" --version
