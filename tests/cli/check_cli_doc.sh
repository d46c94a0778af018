#!/usr/bin/env bash
# Checks the CLI manual (docs/cli.md) against the `fluxgraph` binary's own --help.
#
#   usage: check_cli_doc.sh FLUXGRAPH_BINARY CLI_MD      (CLI_MD = docs/cli.md)
#
# docs/cli.md gives each command a markdown heading `fluxgraph CMD` (any level; a benchmark's is
# `fluxgraph bench NAME`). A command's section runs from its heading to the next heading of the same
# or a higher level, so sub-headings inside it belong to it. An option is documented when a list
# item of that section (a line starting with "- ", "* " or "+ ", with the indented lines that
# continue it) has it in backticks, e.g. "- `--batch N`: edges per batch" or
# "- `--backend cpu|cuda`, `--format text|json`: ...". Prose and synopses do not count.
#
# For every command `fluxgraph --help` lists, and every subcommand such a command's --help lists
# (bench's), each long option its --help prints must be documented in its section (--help itself
# is left out: every command takes it). Every heading `fluxgraph ...` must name a command the
# binary has. Headings inside fenced code blocks are not headings.
#
# Needs bash, awk and grep. Prints one line per problem and exits 1, or prints a count and exits 0.
set -euo pipefail

if [ $# -ne 2 ]; then
  echo "usage: $0 FLUXGRAPH_BINARY CLI_MD" >&2
  exit 2
fi
bin=$1
doc=$2
if [ ! -x "$bin" ]; then
  echo "FAIL: $bin is not an executable" >&2
  exit 1
fi
if [ ! -r "$doc" ]; then
  echo "FAIL: cannot read $doc" >&2
  exit 1
fi

problems=0
fail() {
  echo "FAIL: $*"
  problems=$((problems + 1))
}

# The names under "Subcommands:" of a CLI11 help text (lines "  name   description").
subcommands_of() {
  awk '/^Subcommands:/ { on = 1; next }
       on && /^$/ { exit }
       on && /^  [A-Za-z0-9]/ { print $1 }' <<<"$1"
}

# The long options under "Options:" of a CLI11 help text, one per line. An option's line starts
# with two spaces and a dash ("  -h,--help", "  --batch N", "  --runs INT:INT in [1 - 1000]=5",
# "  --no-boost{false}"); description lines that wrap are indented further.
options_of() {
  awk '/^Options:/ { on = 1; next }
       on && /^$/ { exit }
       on && /^  -/ {
         n = split($1, names, ",")
         for (i = 1; i <= n; ++i)
           if (names[i] ~ /^--[A-Za-z0-9]/) {
             name = names[i]
             sub(/[{=\[].*$/, "", name)
             print name
           }
       }' <<<"$1"
}

# An awk function: a heading line's level and text (backticks and the #s dropped).
heading_awk='function heading(line) {
  level = match(line, /[^#]/) - 1
  text = substr(line, level + 1)
  gsub(/`/, "", text)
  sub(/^[ \t]+/, "", text)
  sub(/[ \t#]+$/, "", text)
}'

# The headings of the doc, outside fenced code blocks: "LEVEL<TAB>TEXT".
headings() {
  awk "$heading_awk"'
       /^[ \t]*(```|~~~)/ { fence = !fence; next }
       !fence && /^#+[ \t]/ { heading($0); print level "\t" text }' "$doc"
}

# The section whose heading reads exactly $1: from that heading to the next heading of the same or a
# higher level (every such section, when the heading appears more than once).
section_of() {
  awk -v want="$1" "$heading_awk"'
    /^[ \t]*(```|~~~)/ { fence = !fence }
    !fence && /^#+[ \t]/ {
      heading($0)
      if (inside && level <= depth) inside = 0
      if (text == want) { inside = 1; depth = level }
    }
    inside { print }' "$doc"
}

# The list items of a section, one per line (an item's indented continuation lines joined to it).
items_of() {
  awk '/^[ \t]*[-*+][ \t]/ { if (item != "") print item; item = $0; next }
       item != "" && /^[ \t]+[^ \t]/ { item = item " " $0; next }
       { if (item != "") print item; item = "" }
       END { if (item != "") print item }' <<<"$1"
}

declare -A known=()
commands=0
options=0

# Checks the command whose words are $1 ("stream", "bench spmv"), then its subcommands.
check_command() {
  local path=$1 help section items opts opt sub pattern
  # shellcheck disable=SC2086  # the words of the command path are meant to split
  if ! help=$("$bin" $path --help 2>&1); then
    fail "'fluxgraph $path --help' failed"
    return
  fi
  known["$path"]=1
  commands=$((commands + 1))
  section=$(section_of "fluxgraph $path")
  opts=$(options_of "$help")
  if [ -z "$opts" ]; then
    fail "no options read from 'fluxgraph $path --help' (has its layout changed?)"
  elif [ -z "$section" ]; then
    fail "fluxgraph $path: no section in $doc (a heading '## fluxgraph $path')"
  else
    items=$(items_of "$section")
    for opt in $opts; do
      [ "$opt" = --help ] && continue
      options=$((options + 1))
      # a list item with `--opt` in backticks, the name not running on (--snapshot is not --snapshot-in)
      pattern="\`${opt}([^A-Za-z0-9_-]|$)"
      if ! grep -qE -- "$pattern" <<<"$items"; then
        fail "fluxgraph $path: option $opt is not documented in its section of $doc"
      fi
    done
  fi
  for sub in $(subcommands_of "$help"); do
    check_command "$path $sub"
  done
}

if ! top=$("$bin" --help 2>&1); then
  echo "FAIL: '$bin --help' failed" >&2
  exit 1
fi
top_commands=$(subcommands_of "$top")
if [ -z "$top_commands" ]; then
  echo "FAIL: no commands read from '$bin --help' (has its layout changed?)" >&2
  exit 1
fi
for cmd in $top_commands; do
  check_command "$cmd"
done

# Every `fluxgraph ...` heading must name a command the binary has.
while IFS=$'\t' read -r _level text; do
  case $text in
    "fluxgraph "*)
      name=${text#fluxgraph }
      if [ -z "${known[$name]+x}" ]; then
        fail "$doc: the heading '$text' names a command 'fluxgraph $name' that $bin does not have"
      fi
      ;;
  esac
done < <(headings)

if [ "$problems" -gt 0 ]; then
  echo "$problems problem(s): $doc does not match $bin --help"
  exit 1
fi
echo "ok: $commands commands, $options options, each documented under its command in $doc"
