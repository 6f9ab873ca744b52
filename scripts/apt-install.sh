# Installing a missing Debian package for the tests without touching installed ones. Sourced by
# scripts/test.sh and scripts/services.sh; log lines go to standard error.
#
# `apt-get install --no-upgrade PKG` only keeps PKG itself from being upgraded: its dependencies
# are still upgraded when the package needs newer ones (installing chromium once upgraded 15
# packages, systemd and perl among them). So the install is simulated first (`apt-get install -s`),
# and when it would upgrade or remove any installed package, the package is not installed: the
# tests needing it skip, and the command that installs it is printed for the developer to run.
#
# Under CI (CI set) the package is installed all the same, upgrades included, and the upgrades are
# listed: a CI machine is set up for the run and thrown away after it, and tests never skip under
# CI, so refusing would only turn the run red on every machine whose image lags behind Debian.

# Reads `apt-get install -s` output; prints one line per installed package the install would
# change ("upgrade NAME OLD -> NEW", "remove NAME OLD"), nothing when it only adds packages.
apt_changes() {
  awk '
    $1 == "Inst" && substr($3, 1, 1) == "[" {
      old = $3; gsub(/[][]/, "", old)
      new = $4; sub(/^\(/, "", new)
      print "upgrade " $2 " " old " -> " new
    }
    $1 == "Remv" {
      line = "remove " $2
      if (substr($3, 1, 1) == "[") { old = $3; gsub(/[][]/, "", old); line = line " " old }
      print line
    }
  '
}

# apt_install_missing PURPOSE PACKAGE: installs PACKAGE (needed for PURPOSE) when that changes no
# installed package, or under CI. Returns 0 when it is installed, 1 when it was left out.
apt_install_missing() {
  local purpose="$1" package="$2" simulation changes output
  if ! simulation="$(apt-get install -s --no-upgrade "$package" 2>&1)"; then
    echo "[apt] cannot install $package ($purpose): $(printf '%s\n' "$simulation" | grep '^E:' | head -n 1)" >&2
    return 1
  fi
  changes="$(printf '%s\n' "$simulation" | apt_changes)"
  if [ -n "$changes" ] && [ -z "${CI:-}" ]; then
    {
      echo "[apt] not installing $package ($purpose): it would also change installed packages:"
      printf '%s\n' "$changes" | sed 's/^/[apt]   /'
      echo "[apt] its tests are skipped. To install it anyway, with those changes:"
      echo "[apt]   sudo apt-get install --no-upgrade $package"
    } >&2
    return 1
  fi
  if [ -n "$changes" ]; then
    echo "[apt] CI: installing $package ($purpose), which changes installed packages:" >&2
    printf '%s\n' "$changes" | sed 's/^/[apt]   /' >&2
  else
    echo "[apt] installing $package ($purpose); no installed package changes" >&2
  fi
  if ! output="$(DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-upgrade "$package" 2>&1)"; then
    echo "[apt] installing $package failed:" >&2
    printf '%s\n' "$output" | tail -n 5 | sed 's/^/[apt]   /' >&2
    return 1
  fi
}
